import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cliProcess';
import { gitCli } from '../helpers/gitCli';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir, useTempDir } from '../helpers/tempVault';

/** The registry of vaults goes to a temporary home folder, never the user's. */
let registryHome = '';

/** Runs the CLI asynchronously: the model server answers from this same process. */
function recursa(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, registryHome, env);
}

describe('recursa ask (dist/cli.mjs)', () => {
  const temp = useTempDir();
  let server: ModelServer;
  let home: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    server = await startModelServer();
    home = await makeTempDir('recursa-home-');
    registryHome = home.dir;
  });
  afterAll(async () => {
    await server.close();
    await home.remove();
  });

  it('prints the think lines to stderr and the reply to stdout, exit 0, with the work committed', async () => {
    server.script([
      { text: `<think>Writing the note.</think>\n<typescript>\nawait mem.writeFile('Hello.md', '# Hello\\n');\nawait mem.commitChanges('Add a hello note');\n</typescript>\n<reply>Created Hello.md.</reply>` },
    ]);
    const { status, stdout, stderr } = await recursa(['ask', '--vault', temp.dir, '--base-url', `${server.url}/v1`, '--model', 'scripted', 'Create a hello note']);
    expect(status).toBe(0);
    expect(stdout).toBe('Created Hello.md.\n');
    expect(stderr).toContain('Writing the note.');
    // One commit, told once.
    expect(stderr.match(/committed/g)).toHaveLength(1);
    expect(await readFile(join(temp.dir, 'Hello.md'), 'utf8')).toBe('# Hello\n');
    expect(gitCli(temp.dir, 'log', '-1', '--format=%s').trim()).toBe('Add a hello note');
  });

  it('tells each automatic commit once', async () => {
    server.script([
      { text: `<think>Writing.</think>\n<typescript>\nawait mem.writeFile('Auto.md', '# Auto\\n');\n</typescript>` },
      { text: '<reply>Wrote Auto.md.</reply>' },
    ]);
    const { status, stderr } = await recursa(['ask', '--vault', temp.dir, '--base-url', `${server.url}/v1`, '--model', 'scripted', 'Write a note']);
    expect(status).toBe(0);
    expect(stderr.match(/committed/g)).toHaveLength(1);
    expect(gitCli(temp.dir, 'log', '-1', '--name-only', '--format=').trim()).toBe('Auto.md');
  });

  it('takes its settings from RECURSA_* variables, and sends the key', async () => {
    server.script([{ text: '<think>Answering.</think><reply>Hi.</reply>' }]);
    server.requests.length = 0;
    const { status, stdout } = await recursa(['ask', '--vault', temp.dir, 'Say hi'], {
      RECURSA_PROVIDER: 'anthropic',
      RECURSA_BASE_URL: server.url,
      RECURSA_MODEL: 'scripted-claude',
      RECURSA_API_KEY: 'secret-key',
    });
    expect(status).toBe(0);
    expect(stdout).toBe('Hi.\n');
    expect(server.requests[0]).toMatchObject({ path: '/v1/messages', headers: { 'x-api-key': 'secret-key' }, body: { model: 'scripted-claude' } });
  });

  it('exits 1 when the run fails, saying why', async () => {
    server.script([{ status: 401 }]);
    const { status, stdout, stderr } = await recursa(['ask', '--vault', temp.dir, '--base-url', `${server.url}/v1`, '--model', 'scripted', 'Hello']);
    expect(status).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { code: 'RunFailed' } });
    expect(stderr).toMatch(/failed.*key/is);
    expect(stderr).toContain('--api-key');
    expect(stderr).not.toContain("Recursa's settings");
  });

  it('exits 2 for bad arguments', async () => {
    for (const args of [['ask'], ['ask', '--vault', temp.dir], ['ask', '--vault', temp.dir, '--model', 'm', '--provider', 'gemini', 'hi'], ['ask', '--vault', temp.dir, 'no model']]) {
      const { status, stderr } = await recursa(args, { RECURSA_MODEL: '' });
      expect(status, args.join(' ')).toBe(2);
      expect(stderr).toContain('Usage: recursa ask');
    }
  });
});
