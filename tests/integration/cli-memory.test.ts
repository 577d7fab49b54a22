import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cliProcess';
import { gitCli } from '../helpers/gitCli';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir, useTempDir } from '../helpers/tempVault';


describe('recursa remember and recall (dist/cli.mjs)', () => {
  const temp = useTempDir();
  let home: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    home = await makeTempDir('recursa-home-');
  });
  afterEach(async () => home.remove());

  /** Runs the CLI with the registry of vaults in a temporary home folder. */
  function recursa(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    return runCli(args, home.dir, env);
  }

  it('remembers with tags: prints the id and path, writes the note and commits it', async () => {
    const ran = await recursa(['remember', '--vault', temp.dir, '--tag', 'Deploy', '--tag', 'infra_ops', 'The staging server moved to **eu-west**.']);
    expect(ran.status, ran.stderr).toBe(0);
    const [id, path] = ran.stdout.trim().split(' ');
    expect(id).toMatch(/^mem_[0-9a-f]{16}$/);
    expect(path).toMatch(/^Memories\/\d{4}-\d{2}-\d{2}\/\d{6}_[0-9a-f]{4}\.md$/);
    const note = await readFile(join(temp.dir, path!), 'utf8');
    expect(note).toContain(`id: ${id}\n`);
    expect(note).toContain('tags:\n  - deploy\n  - infra-ops\n');
    expect(note.endsWith('\n---\n\nThe staging server moved to **eu-west**.\n')).toBe(true);
    expect(gitCli(temp.dir, 'log', '-1', '--name-only', '--format=%s').trim().split('\n')).toEqual(['Remember: The staging server moved to **eu-west**.', '', path]);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
  });

  it('recalls by query (fuzzy), tags, since and limit, as text or JSON', async () => {
    for (const [tag, content] of [['deploy', 'The staging server moved to eu-west.'], ['people', 'Ada prefers reviews on Friday.'], ['deploy', 'Production deploys need two approvals.']] as const) {
      expect((await recursa(['remember', '--vault', temp.dir, '--tag', tag, content])).status).toBe(0);
    }
    const json = async (...args: string[]): Promise<{ memories: { content: string; tags: string[] }[] }> => {
      const ran = await recursa(['recall', '--vault', temp.dir, '--json', ...args]);
      expect(ran.status, ran.stderr).toBe(0);
      return JSON.parse(ran.stdout) as { memories: { content: string; tags: string[] }[] };
    };
    expect((await json()).memories.map((m) => m.content)).toEqual(['Production deploys need two approvals.', 'Ada prefers reviews on Friday.', 'The staging server moved to eu-west.']);
    expect((await json('--query', 'stagng servr')).memories.map((m) => m.content)).toEqual(['The staging server moved to eu-west.']);
    expect((await json('--tag', 'deploy')).memories).toHaveLength(2);
    expect((await json('--tag', 'people', '--tag', 'nope')).memories.map((m) => m.tags)).toEqual([['people']]);
    expect((await json('--since', '1h', '--limit', '1')).memories).toHaveLength(1);
    expect((await json('--since', '2099-01-01')).memories).toEqual([]);

    const text = await recursa(['recall', '--vault', temp.dir, '--query', 'approvals']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC {2}mem_[0-9a-f]{16} {2}\[deploy\] {2}Memories\/\S+\.md\n {4}Production deploys need two approvals\.\n$/);
  });

  it('recalls across every vault it has opened with --scope all', async () => {
    const other = await makeTempDir('recursa-other-');
    try {
      expect((await recursa(['remember', '--vault', other.dir, 'Other vault: the VPN config is in Infra/VPN.md.'])).status).toBe(0);
      expect((await recursa(['remember', '--vault', temp.dir, 'This vault: nothing about networks.'])).status).toBe(0);
      const registry = JSON.parse(await readFile(join(home.dir, '.recursa/vaults.json'), 'utf8')) as { vaults: { root: string }[] };
      expect(registry.vaults.map((vault) => vault.root)).toEqual([temp.dir, other.dir]);

      const mine = JSON.parse((await recursa(['recall', '--vault', temp.dir, '--json', '--query', 'VPN'])).stdout) as { memories: unknown[] };
      expect(mine.memories).toEqual([]);
      const all = await recursa(['recall', '--vault', temp.dir, '--json', '--scope', 'all', '--query', 'VPN']);
      expect(all.status, all.stderr).toBe(0);
      const result = JSON.parse(all.stdout) as { memories: { content: string; vault: string }[]; searched: string[] };
      expect(result.memories).toMatchObject([{ content: 'Other vault: the VPN config is in Infra/VPN.md.', vault: other.dir.split('/').at(-1) }]);
      expect(result.searched).toEqual(['this vault', other.dir.split('/').at(-1)]);
    } finally {
      await other.remove();
    }
  });

  it('exits 2 for bad arguments, listing the forms since accepts', async () => {
    const badSince = await recursa(['recall', '--vault', temp.dir, '--since', 'last week']);
    expect(badSince.status).toBe(2);
    expect(badSince.stderr).toMatch(/"12h" \(hours\), "1d" \(days\), "2w" \(weeks\), "today", "yesterday", or an ISO date/);
    for (const args of [
      ['remember', '--vault', temp.dir],
      ['remember', 'content without a vault'],
      ['remember', '--vault', temp.dir, '--since', '1d', 'x'],
      ['recall'],
      ['recall', '--vault', temp.dir, '--limit', '0'],
      ['recall', '--vault', temp.dir, '--limit', 'many'],
      ['recall', '--vault', temp.dir, '--scope', 'global'],
      ['recall', '--vault', temp.dir, 'loose words'],
    ]) {
      const ran = await recursa(args);
      expect(ran.status, args.join(' ')).toBe(2);
      expect(ran.stderr).toContain(`Usage: recursa ${args[0] as string} --vault DIR`);
    }
  });
});

describe('recursa ask --protocol actions (dist/cli.mjs)', () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  it('runs the action protocol and commits what the actions changed', async () => {
    server.script([
      { text: '<think>Saving.</think><actions><action><kind>set</kind><target_path>/storage/Inbox/idea</target_path><content>Try the new protocol.</content></action></actions>' },
      { text: '<think>Done.</think><reply>Saved Inbox/idea.md.</reply>' },
    ]);
    server.requests.length = 0;
    const home = await makeTempDir('recursa-home-');
    try {
      const ran = await runCli(['ask', '--vault', temp.dir, '--base-url', `${server.url}/v1`, '--model', 'small', '--protocol', 'actions', 'Save my idea'], home.dir);
      expect(ran.status, ran.stderr).toBe(0);
      expect(ran.stdout).toBe('Saved Inbox/idea.md.\n');
      expect(await readFile(join(temp.dir, 'Inbox/idea.md'), 'utf8')).toBe('Try the new protocol.\n');
      expect(gitCli(temp.dir, 'log', '-1', '--name-only', '--format=%s').trim().split('\n')).toEqual(['Recursa: Save my idea', '', 'Inbox/idea.md']);
      expect(JSON.stringify(server.requests[1]?.body)).toContain('_1 set /storage/Inbox/idea: success');
    } finally {
      await home.remove();
    }
  });
});
