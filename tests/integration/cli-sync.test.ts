import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsckProblems } from '../helpers/childVault';
import { runCli, type CliRun } from '../helpers/cliProcess';
import { gitCli } from '../helpers/gitCli';
import { gitAsync, startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer';
import { makeTempDir } from '../helpers/tempVault';

const USER = 'bob';
const TOKEN = 'cli-tok-3d8e0b6a1f2c';
const AUTH = { username: USER, password: TOKEN };
const ENV = { RECURSA_GIT_USERNAME: USER, RECURSA_GIT_TOKEN: TOKEN };
const LIBRARY_URL = pathToFileURL(join(process.cwd(), 'dist/recursa.mjs')).href;

interface Library {
  syncVault(dir: string, options?: { remote?: string; username?: string; token?: string }): Promise<Record<string, unknown>>;
}

/** The one JSON object a sync prints, after checking it is the only thing on stdout. */
function printed(run: CliRun): Record<string, unknown> {
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  expect(lines, `exit ${String(run.status)}, stderr: ${run.stderr}`).toHaveLength(1);
  return JSON.parse(lines[0] as string) as Record<string, unknown>;
}

describe('recursa sync', () => {
  let server: GitHttpServer;
  let root: string;
  let vault: string;
  let remote: { url: string; dir: string };
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const temp = await makeTempDir('recursa-cli-sync-');
    root = temp.dir;
    server = await startGitHttpServer({ root: join(root, 'remote'), auth: AUTH });
    remote = await server.createRepo('notes');
    vault = join(root, 'vault');
    await mkdir(vault);
    await writeFile(join(vault, 'Note.md'), 'a\nb\nc\n');
    cleanup = async () => {
      await server.stop();
      await temp.remove();
    };
  });
  afterEach(async () => cleanup());

  const sync = (args: string[], env: Record<string, string> = ENV): Promise<CliRun> => runCli(['sync', ...args], join(root, 'home'), env);

  function expectNoToken(run: CliRun): void {
    expect(run.stdout).not.toContain(TOKEN);
    expect(run.stderr).not.toContain(TOKEN);
  }

  it('pushes the vault, sets origin without credentials, prints one JSON object and exits 0', async () => {
    const run = await sync(['--vault', vault, '--remote', remote.url]);
    expect(run.status).toBe(0);
    expect(printed(run)).toEqual({ ok: true, fetched: 0, pushed: 1, merged: false, conflicts: [], copies: [], uncommitted: [] });
    expectNoToken(run);
    expect(gitCli(remote.dir, 'rev-parse', 'main')).toBe(gitCli(vault, 'rev-parse', 'HEAD'));
    const config = await readFile(join(vault, '.git/config'), 'utf8');
    expect(config).toContain(`url = ${remote.url}`);
    expect(config).not.toContain(TOKEN);
    expect(fsckProblems(vault)).toEqual([]);
    expect(fsckProblems(remote.dir)).toEqual([]);
  });

  it('exits 0 and lists the conflicts when edits overlap', async () => {
    expect((await sync(['--vault', vault, '--remote', remote.url])).status).toBe(0);
    const other = join(root, 'other');
    await gitAsync(root, ['clone', '-q', remote.url, other], AUTH);
    await writeFile(join(other, 'Note.md'), 'a\nB (other)\nc\n');
    await gitAsync(other, ['commit', '-qam', 'other']);
    await gitAsync(other, ['push', '-q', 'origin', 'main'], AUTH);
    await writeFile(join(vault, 'Note.md'), 'a\nB (vault)\nc\n');
    gitCli(vault, 'commit', '-qam', 'vault');

    const run = await sync(['--vault', vault]);
    expect(run.status).toBe(0);
    const result = printed(run);
    expect(result).toMatchObject({ ok: true, fetched: 1, pushed: 2, merged: true, conflicts: ['Note.md'] });
    expect(result.copies).toEqual([expect.stringMatching(/^Note \(conflict \d{4}-\d{2}-\d{2}\)\.md$/)]);
    expect(await readFile(join(vault, 'Note.md'), 'utf8')).toBe('a\nB (vault)\nc\n');
    expect(await readFile(join(vault, (result.copies as string[])[0] as string), 'utf8')).toBe('a\nB (other)\nc\n');
    expect(fsckProblems(vault)).toEqual([]);
    expect(fsckProblems(remote.dir)).toEqual([]);
  });

  it('exits 1 with code AuthFailed for a wrong token, printing no token', async () => {
    const wrong = 'wrong-cli-token-77c1';
    const run = await sync(['--vault', vault, '--remote', remote.url], { RECURSA_GIT_USERNAME: USER, RECURSA_GIT_TOKEN: wrong });
    expect(run.status).toBe(1);
    const result = printed(run);
    expect(Object.keys(result).sort()).toEqual(['code', 'message', 'ok']);
    expect(result).toMatchObject({ ok: false, code: 'AuthFailed' });
    expect(typeof result.message).toBe('string');
    expect(run.stdout + run.stderr).not.toContain(wrong);
    expect(await readFile(join(vault, '.git/config'), 'utf8')).not.toContain(wrong);
  });

  it('never stores credentials given inside the URL', async () => {
    const withCredentials = remote.url.replace('http://', `http://${USER}:${TOKEN}@`);
    const run = await sync(['--vault', vault, '--remote', withCredentials], {});
    expect(run.status).toBe(0);
    expectNoToken(run);
    expect(await readFile(join(vault, '.git/config'), 'utf8')).not.toContain(TOKEN);
  });

  it('exits 1 with code Unreachable when the host is down', async () => {
    await server.stop();
    const run = await sync(['--vault', vault, '--remote', remote.url]);
    expect(run.status).toBe(1);
    expect(printed(run)).toMatchObject({ ok: false, code: 'Unreachable' });
  });

  it('exits 1 with code Rejected when the server refuses the push', async () => {
    await server.refusePushes(remote.dir, 'no pushes today');
    const run = await sync(['--vault', vault, '--remote', remote.url]);
    expect(run.status).toBe(1);
    expect(printed(run)).toMatchObject({ ok: false, code: 'Rejected' });
    expect(fsckProblems(vault)).toEqual([]);
  });

  describe('when the arguments are wrong', () => {
    it.each([
      ['no --vault', [] as string[]],
      ['an unknown flag', ['--vault', 'VAULT', '--force']],
      ['a stray argument', ['--vault', 'VAULT', 'extra']],
      ['a missing folder', ['--vault', 'VAULT/missing']],
      ['a remote that is not http(s)', ['--vault', 'VAULT', '--remote', 'ftp://example.com/x.git']],
      ['no remote at all', ['--vault', 'VAULT']],
    ])('exits 2 for %s, printing nothing on stdout and leaving the folder as it was', async (_name, args) => {
      const before = await readdir(vault);
      const run = await sync(args.map((arg) => arg.replace('VAULT', vault)));
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('recursa sync --vault DIR');
      // Refused before the vault is touched: no repository made, nothing written.
      expect(existsSync(join(vault, '.git'))).toBe(false);
      expect(await readdir(vault)).toEqual(before);
    });
  });

  it('is the same operation as the library syncVault(dir, { remote, username, token })', async () => {
    // eslint-disable-next-line no-unsanitized/method -- a fixed URL into this repository's build output
    const library = (await import(/* @vite-ignore */ LIBRARY_URL)) as Library;
    const result = await library.syncVault(vault, { remote: remote.url, username: USER, token: TOKEN });
    expect(result).toEqual({ ok: true, fetched: 0, pushed: 1, merged: false, conflicts: [], copies: [], uncommitted: [] });
    const again = await sync(['--vault', vault]);
    expect(printed(again)).toEqual({ ok: true, fetched: 0, pushed: 0, merged: false, conflicts: [], copies: [], uncommitted: [] });
  });
});
