import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitService } from '../../src/core/git/GitService';
import { DEFAULT_MEM_OPTIONS, WriteSet } from '../../src/core/mem';
import { SyncError } from '../../src/core/sync/SyncError';
import { createGitHttpClient } from '../../src/desktop/gitHttpClient';
import { NodeVaultPort } from '../../src/node/NodeVaultPort';
import type { GitHttpClient } from '../../src/core/sync/gitHttpClient';
import { createObsidianGitHttpClient } from '../../src/obsidian/sync/obsidianGitHttpClient';
import { SyncController } from '../../src/obsidian/sync/SyncController';
import type { SyncMessage } from '../../src/obsidian/sync/syncMessages';
import type { SyncProgress, SyncResult } from '../../src/core/sync/syncRepository';
import { syncVault, type SyncVaultOptions } from '../../src/node/syncVault';
import { fsckProblems } from '../helpers/childVault';
import { gitCli } from '../helpers/gitCli';
import { gitAsync, startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer';
import { makeTempDir } from '../helpers/tempVault';

const USER = 'alice';
const TOKEN = 'tok-9f3c1e7a5b2d4c6e8f0a';
const AUTH = { username: USER, password: TOKEN };
/** The day every sync in these tests runs on (conflict copies are named after it). */
const DAY = new Date(2026, 10, 25, 12, 0, 0);
const COPY = (stem: string, ext = '.md'): string => `${stem} (conflict 2026-11-25)${ext}`;

/**
 * Two devices sharing one remote: the vault Recursa syncs (`vault`), and a second clone driven by
 * the `git` CLI (`other`), both against `git http-backend` on 127.0.0.1 with Basic auth.
 */
describe('sync with a git remote over smart HTTP', () => {
  let server: GitHttpServer;
  let root: string;
  let vault: string;
  let other: string;
  let remote: { url: string; dir: string };
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const temp = await makeTempDir('recursa-sync-');
    root = temp.dir;
    server = await startGitHttpServer({ root: join(root, 'remote'), auth: AUTH });
    remote = await server.createRepo('notes');
    vault = join(root, 'vault');
    other = join(root, 'other');
    await mkdir(vault);
    cleanup = async () => {
      await server.stop();
      await temp.remove();
    };
  });
  afterEach(async () => cleanup());

  const sync = (options: SyncVaultOptions = {}): Promise<SyncResult> => syncVault(vault, { username: USER, token: TOKEN, git: { now: () => DAY }, ...options });

  /** Writes files into a folder (parents created). */
  async function put(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
  }

  /** Commits files in the vault as the user would with the `git` CLI (no network). */
  async function commitInVault(files: Record<string, string | Uint8Array>, message: string): Promise<string> {
    await put(vault, files);
    gitCli(vault, 'add', '--', ...Object.keys(files));
    gitCli(vault, 'commit', '-q', '-m', message);
    return gitCli(vault, 'rev-parse', 'HEAD').trim();
  }

  /** Commits files in the other clone and pushes them. */
  async function pushFromOther(files: Record<string, string | Uint8Array>, message: string): Promise<string> {
    await put(other, files);
    await gitAsync(other, ['add', '--', ...Object.keys(files)]);
    await gitAsync(other, ['commit', '-q', '-m', message]);
    await gitAsync(other, ['push', '-q', 'origin', 'main'], AUTH);
    return (await gitAsync(other, ['rev-parse', 'HEAD'])).trim();
  }

  /** The first device's vault pushed, and the other clone made from the remote. */
  async function shared(files: Record<string, string | Uint8Array>): Promise<void> {
    await put(vault, files);
    const first = await syncVault(vault, { remote: remote.url, username: USER, token: TOKEN, git: { now: () => DAY } });
    expect(first.pushed).toBeGreaterThan(0);
    await gitAsync(root, ['clone', '-q', '--branch', 'main', remote.url, other], AUTH);
  }

  const remoteHead = (): string => gitCli(remote.dir, 'rev-parse', 'refs/heads/main').trim();
  const vaultHead = (): string => gitCli(vault, 'rev-parse', 'HEAD').trim();
  const read = (dir: string, path: string): Promise<string> => readFile(join(dir, path), 'utf8');

  const packs = async (): Promise<string[]> => (await readdir(join(vault, '.git/objects/pack'))).filter((name) => name.endsWith('.pack'));
  const packObjects = (pack: string): number => gitCli(vault, 'verify-pack', '-v', `.git/objects/pack/${pack}`).split('\n').filter((line) => /^[0-9a-f]{40} /.test(line)).length;

  /** What must hold after every sync: both repositories valid, no token stored anywhere in the vault's `.git`. */
  async function expectHealthy(): Promise<void> {
    expect(fsckProblems(vault)).toEqual([]);
    expect(fsckProblems(remote.dir)).toEqual([]);
    expect(await read(vault, '.git/config')).not.toContain(TOKEN);
    for (const entry of await readdir(join(vault, '.git'), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const bytes = await readFile(join(entry.parentPath, entry.name));
      expect(bytes.includes(TOKEN), `${entry.name} holds the token`).toBe(false);
      expect(bytes.includes(Buffer.from(`${USER}:${TOKEN}`).toString('base64')), `${entry.name} holds the credentials`).toBe(false);
    }
  }

  async function syncError(options: SyncVaultOptions = {}): Promise<SyncError> {
    const error = await sync(options).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SyncError);
    const text = JSON.stringify({ message: (error as SyncError).message, data: (error as SyncError).data, json: (error as SyncError).toJSON() });
    expect(text).not.toContain(TOKEN);
    return error as SyncError;
  }

  describe('when the remote is empty', () => {
    it('pushes the whole vault on the first sync, sets origin without credentials, and the CLI clones it', async () => {
      await put(vault, { 'Note.md': 'one\n', 'Projects/Plan.md': '# Plan\n- ship\n' });
      const result = await syncVault(vault, { remote: `http://${USER}:${TOKEN}@${remote.url.slice('http://'.length)}`, git: { now: () => DAY } });
      expect(result).toMatchObject({ ok: true, fetched: 0, merged: false, conflicts: [] });
      expect(result.pushed).toBeGreaterThan(0);
      expect(remoteHead()).toBe(vaultHead());
      expect(gitCli(vault, 'config', 'remote.origin.url').trim()).toBe(remote.url);
      expect(gitCli(vault, 'rev-parse', 'refs/remotes/origin/main').trim()).toBe(vaultHead());
      await gitAsync(root, ['clone', '-q', remote.url, other], AUTH);
      expect(await read(other, 'Projects/Plan.md')).toBe('# Plan\n- ship\n');
      expect(await read(other, 'Note.md')).toBe('one\n');
      await expectHealthy();
    });

    it('merges into a repository the host started with a README (unrelated histories)', async () => {
      const seed = join(root, 'seed');
      await put(seed, { 'README.md': '# notes\n', 'Note.md': 'from the host\n' });
      gitCli(root, 'init', '-q', '--initial-branch=main', seed);
      gitCli(seed, 'add', '-A');
      gitCli(seed, 'commit', '-qm', 'Initial commit');
      await gitAsync(seed, ['push', '-q', remote.url, 'main'], AUTH);
      const hostCommit = remoteHead();
      await put(vault, { 'Note.md': 'from the vault\n', 'Mine.md': 'mine\n' });
      const result = await syncVault(vault, { remote: remote.url, username: USER, token: TOKEN, git: { now: () => DAY } });
      expect(result).toMatchObject({ ok: true, fetched: 1, merged: true, conflicts: ['Note.md'], copies: [COPY('Note')] });
      expect(await read(vault, 'README.md')).toBe('# notes\n');
      expect(await read(vault, 'Note.md')).toBe('from the vault\n');
      expect(await read(vault, COPY('Note'))).toBe('from the host\n');
      expect(gitCli(vault, 'rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ')).toContain(hostCommit);
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
    });

    it('fills an empty vault on a new device from the remote, joining its own first commit (.gitignore) without a conflict', async () => {
      await shared({ 'Note.md': 'one\n', 'Folder/Deep.md': 'deep\n' });
      const fresh = join(root, 'phone');
      await mkdir(fresh);
      const result = await syncVault(fresh, { remote: remote.url, username: USER, token: TOKEN, git: { now: () => DAY } });
      // The new device's repository starts with Recursa's .gitignore, the same on both sides.
      expect(result).toEqual({ ok: true, fetched: 1, pushed: 2, merged: true, conflicts: [], copies: [], uncommitted: [] });
      expect(await read(fresh, 'Folder/Deep.md')).toBe('deep\n');
      expect(await read(fresh, '.gitignore')).toBe(await read(vault, '.gitignore'));
      expect(gitCli(fresh, 'rev-parse', 'HEAD').trim()).toBe(remoteHead());
      expect(gitCli(fresh, 'status', '--porcelain')).toBe('');
      expect(fsckProblems(fresh)).toEqual([]);
    });

    it('does nothing on a second sync when neither side moved', async () => {
      await shared({ 'Note.md': 'one\n' });
      const head = vaultHead();
      expect(await sync()).toEqual({ ok: true, fetched: 0, pushed: 0, merged: false, conflicts: [], copies: [], uncommitted: [] });
      expect(vaultHead()).toBe(head);
      await expectHealthy();
    });
  });

  describe('the push', () => {
    const objects = (dir: string, ...revisions: string[]): string[] => gitCli(dir, 'rev-list', '--objects', ...revisions).split('\n').filter((line) => line !== '').map((line) => line.slice(0, 40)).sort();

    it('stores a first push of many notes whole on the remote (its pack kept as sent): fsck --full clean, every object there', async () => {
      // Over git's unpack limit (100 objects), so the remote keeps the pack rather than unpacking it.
      const files: Record<string, string> = {};
      for (let i = 0; i < 150; i++) files[`Folder ${i % 7}/Sub ${i % 3}/Note ${i}.md`] = `# Note ${i}\n${'text '.repeat(i)}\n`;
      const progress: SyncProgress[] = [];
      await put(vault, files);
      const result = await syncVault(vault, { remote: remote.url, username: USER, token: TOKEN, git: { now: () => DAY }, onProgress: (step) => progress.push(step) });
      expect(result.pushed).toBeGreaterThan(0);
      expect(remoteHead()).toBe(vaultHead());
      expect(fsckProblems(remote.dir)).toEqual([]);
      expect(objects(remote.dir, '--all')).toEqual(objects(vault, 'HEAD'));
      expect(progress.map((step) => step.phase)).toEqual(expect.arrayContaining(['Counting objects', 'Compressing objects', 'Writing objects']));
      expect(progress.find((step) => step.phase === 'Compressing objects' && step.loaded === step.total)?.total).toBe(objects(vault, 'HEAD').length);
      await expectHealthy();
    });

    it('sends several commits of edits, moves, deletions, binary and empty files that the remote lacks', async () => {
      await shared({ 'Note.md': 'one\n', 'Folder/Deep/Kept.md': 'kept\n', 'Folder/Moved.md': 'moved\n', 'Gone.md': 'gone\n' });
      await commitInVault({ 'Note.md': 'one\ntwo\n', 'img/pic.png': Uint8Array.from({ length: 500 }, (_, i) => (i * 31) & 0xff), 'Empty.md': '' }, 'vault: edit, binary, empty');
      await rm(join(vault, 'Folder/Moved.md'));
      await rm(join(vault, 'Gone.md'));
      await put(vault, { 'Elsewhere/Moved.md': 'moved\n' });
      gitCli(vault, 'add', '-A');
      gitCli(vault, 'commit', '-q', '-m', 'vault: move and delete');
      await commitInVault({ 'Folder/Deep/New.md': 'new\n' }, 'vault: add deep');
      expect(await sync()).toMatchObject({ ok: true, fetched: 0, pushed: 3, merged: false });
      expect(remoteHead()).toBe(vaultHead());
      expect(fsckProblems(remote.dir)).toEqual([]);
      expect(objects(remote.dir, '--all')).toEqual(objects(vault, 'HEAD'));
      await expectHealthy();
    });
  });

  describe("when the remote's HEAD names a branch it has not got", () => {
    it('still fetches the branch, counts nothing twice and fast-forwards', async () => {
      gitCli(remote.dir, 'symbolic-ref', 'HEAD', 'refs/heads/master');
      await shared({ 'Note.md': 'one\n' });
      expect(await sync()).toMatchObject({ fetched: 0, pushed: 0, merged: false });
      const theirs = await pushFromOther({ 'Note.md': 'one\ntwo\n' }, 'other: two');
      expect(await sync()).toMatchObject({ fetched: 1, pushed: 0, merged: false });
      expect(vaultHead()).toBe(theirs);
      expect(await read(vault, 'Note.md')).toBe('one\ntwo\n');
      await expectHealthy();
    });
  });

  describe('when only the remote moved', () => {
    it('fast-forwards the branch and writes the new files', async () => {
      await shared({ 'Note.md': 'one\n' });
      const theirs = await pushFromOther({ 'Note.md': 'one\ntwo\n', 'New/Idea.md': 'idea\n' }, 'other: edit and add');
      const progress: SyncProgress[] = [];
      const result = await sync({ onProgress: (step) => progress.push(step) });
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((step) => typeof step.phase === 'string' && step.loaded >= 0)).toBe(true);
      expect(result).toEqual({ ok: true, fetched: 1, pushed: 0, merged: false, conflicts: [], copies: [], uncommitted: [] });
      expect(vaultHead()).toBe(theirs);
      expect(await read(vault, 'Note.md')).toBe('one\ntwo\n');
      expect(await read(vault, 'New/Idea.md')).toBe('idea\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      await expectHealthy();
    });
  });

  describe('when both sides moved', () => {
    it('joins changes to different notes in a merge commit with both parents and pushes it', async () => {
      await shared({ 'Note.md': 'one\n' });
      const theirs = await pushFromOther({ 'Phone.md': 'from the phone\n' }, 'other: add Phone');
      const ours = await commitInVault({ 'Laptop.md': 'from the laptop\n' }, 'vault: add Laptop');
      const packsBefore = await packs();
      const result = await sync();
      // Only what is new is fetched (the history is not sent again): one commit, its tree, one blob.
      const fetchedPacks = (await packs()).filter((pack) => !packsBefore.includes(pack));
      expect(fetchedPacks).toHaveLength(1);
      expect(packObjects(fetchedPacks[0] as string)).toBe(3);
      expect(result).toMatchObject({ ok: true, fetched: 1, pushed: 2, merged: true, conflicts: [] });
      expect(gitCli(vault, 'rev-list', '--parents', '-n', '1', 'HEAD').trim().split(' ').slice(1)).toEqual([ours, theirs]);
      expect(remoteHead()).toBe(vaultHead());
      expect(await read(vault, 'Phone.md')).toBe('from the phone\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      await gitAsync(other, ['pull', '-q', '--ff-only', 'origin', 'main'], AUTH);
      expect(await read(other, 'Laptop.md')).toBe('from the laptop\n');
      await expectHealthy();
    });

    it('merges edits to different lines of the same note line by line', async () => {
      const base = 'line 1\nline 2\nline 3\nline 4\nline 5\n';
      await shared({ 'Note.md': base });
      await pushFromOther({ 'Note.md': base.replace('line 1', 'line 1 (phone)') }, 'other: line 1');
      await commitInVault({ 'Note.md': base.replace('line 5', 'line 5 (laptop)') }, 'vault: line 5');
      const result = await sync();
      expect(result).toMatchObject({ merged: true, conflicts: [], copies: [] });
      const merged = 'line 1 (phone)\nline 2\nline 3\nline 4\nline 5 (laptop)\n';
      expect(await read(vault, 'Note.md')).toBe(merged);
      expect(gitCli(vault, 'show', 'HEAD:Note.md')).toBe(merged);
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      await expectHealthy();
    });

    it('keeps ours in the note and theirs in a conflict copy when edits overlap, both committed and pushed', async () => {
      await shared({ 'Notes/Plan.md': 'a\nb\nc\n' });
      await pushFromOther({ 'Notes/Plan.md': 'a\nB from the phone\nc\n' }, 'other: b');
      await commitInVault({ 'Notes/Plan.md': 'a\nB from the laptop\nc\n' }, 'vault: b');
      const result = await sync();
      expect(result).toMatchObject({ ok: true, merged: true, conflicts: ['Notes/Plan.md'], copies: [`Notes/${COPY('Plan')}`], uncommitted: [] });
      expect(await read(vault, 'Notes/Plan.md')).toBe('a\nB from the laptop\nc\n');
      expect(await read(vault, `Notes/${COPY('Plan')}`)).toBe('a\nB from the phone\nc\n');
      expect(gitCli(vault, 'show', `HEAD:Notes/${COPY('Plan')}`)).toBe('a\nB from the phone\nc\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
    });

    it('keeps both versions of a binary file that both sides changed', async () => {
      const image = (fill: number): Uint8Array => Uint8Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? 0 : (i * fill) & 0xff));
      await shared({ 'img/photo.png': image(1) });
      await pushFromOther({ 'img/photo.png': image(3) }, 'other: photo');
      await commitInVault({ 'img/photo.png': image(5) }, 'vault: photo');
      const result = await sync();
      expect(result).toMatchObject({ merged: true, conflicts: ['img/photo.png'], copies: [`img/${COPY('photo', '.png')}`] });
      expect(new Uint8Array(await readFile(join(vault, 'img/photo.png')))).toEqual(image(5));
      expect(new Uint8Array(await readFile(join(vault, `img/${COPY('photo', '.png')}`)))).toEqual(image(3));
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      await expectHealthy();
    });

    it('merges a criss-cross history (two merge bases) with its own tree merge', async () => {
      const base = 'first\nsecond\nthird\nfourth\nfifth\n';
      await shared({ 'Note.md': base, 'a.md': 'a\n', 'b.md': 'b\n' });
      // The other device: B1 on a side branch.
      await put(other, { 'b.md': 'b edited\n' });
      await gitAsync(other, ['commit', '-qam', 'B1']);
      await gitAsync(other, ['push', '-q', 'origin', 'HEAD:side'], AUTH);
      // This vault: A1, synced; then it merges B1 on its own.
      await commitInVault({ 'a.md': 'a edited\n' }, 'A1');
      await sync();
      await gitAsync(vault, ['fetch', '-q', remote.url, 'side'], AUTH);
      gitCli(vault, 'merge', '-q', '--no-edit', 'FETCH_HEAD');
      await commitInVault({ 'Note.md': base.replace('fifth', 'fifth (laptop)') }, 'A2');
      // The other device merges A1 into B1 on its own, edits, and pushes.
      await gitAsync(other, ['pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main'], AUTH);
      await pushFromOther({ 'Note.md': base.replace('first', 'first (phone)') }, 'B2');
      await gitAsync(vault, ['fetch', '-q', remote.url, 'main'], AUTH);
      expect(gitCli(vault, 'merge-base', '--all', 'HEAD', 'FETCH_HEAD').trim().split('\n')).toHaveLength(2);

      const result = await sync();
      expect(result).toMatchObject({ ok: true, merged: true, conflicts: [] });
      expect(await read(vault, 'Note.md')).toBe('first (phone)\nsecond\nthird\nfourth\nfifth (laptop)\n');
      expect(await read(vault, 'a.md')).toBe('a edited\n');
      expect(await read(vault, 'b.md')).toBe('b edited\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
    });
  });

  describe("when the user has edits that are not committed", () => {
    it('leaves the edited file as it is, reports it, keeps the remote version beside it, and syncs the rest', async () => {
      await shared({ 'Note.md': 'committed\n', 'Other.md': 'x\n' });
      await pushFromOther({ 'Note.md': 'committed\nfrom the phone\n', 'Other.md': 'x\ny\n' }, 'other: edits');
      await writeFile(join(vault, 'Note.md'), 'committed\nbeing typed on the laptop\n');
      const result = await sync();
      expect(result).toMatchObject({ ok: true, uncommitted: ['Note.md'], copies: [COPY('Note')], conflicts: [] });
      expect(await read(vault, 'Note.md')).toBe('committed\nbeing typed on the laptop\n');
      expect(await read(vault, COPY('Note'))).toBe('committed\nfrom the phone\n');
      expect(await read(vault, 'Other.md')).toBe('x\ny\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe(' M Note.md\n');
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
    });
  });

  describe('when the sync is cut short', () => {
    it('leaves the branch where it was when a file write fails, and the next sync finishes the job', async () => {
      await shared({ 'Note.md': 'one\n', 'Other.md': 'x\n' });
      const theirs = await pushFromOther({ 'Note.md': 'one\ntwo\n', 'Other.md': 'x\ny\n', 'New.md': 'new\n' }, 'other: three files');
      const ours = await commitInVault({ 'Mine.md': 'mine\n' }, 'vault: mine');
      let writes = 0;
      const failed = await sync({
        onStep: (step) => {
          if (step === 'file-written' && ++writes === 2) throw new Error('disk full');
        },
      }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(Error);
      expect(vaultHead()).toBe(ours);
      expect(remoteHead()).toBe(theirs);
      expect(fsckProblems(vault)).toEqual([]);

      const result = await sync();
      expect(result).toMatchObject({ ok: true, merged: true, conflicts: [], uncommitted: [], copies: [] });
      expect(await read(vault, 'Note.md')).toBe('one\ntwo\n');
      expect(await read(vault, 'Other.md')).toBe('x\ny\n');
      expect(await read(vault, 'New.md')).toBe('new\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
    });
  });

  describe('when the sync fails', () => {
    it('reports Rejected when another device pushed between fetch and push, and the next sync merges it', async () => {
      await shared({ 'Note.md': 'one\n' });
      await commitInVault({ 'Laptop.md': 'laptop\n' }, 'vault: laptop');
      let raced = false;
      server.intercept(async (request) => {
        if (raced || request.method !== 'POST' || !request.path.endsWith('/git-receive-pack')) return;
        raced = true;
        await pushFromOther({ 'Phone.md': 'phone\n' }, 'other: phone');
      });
      const error = await syncError();
      expect(error.code).toBe('Rejected');
      expect(error.message).toContain('Sync again');
      server.intercept(null);
      expect(await readdir(join(vault))).not.toContain('Phone.md');
      const result = await sync();
      expect(result).toMatchObject({ ok: true, merged: true, fetched: 1, pushed: 2 });
      expect(await read(vault, 'Phone.md')).toBe('phone\n');
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
    });

    it('reports GitBusy when another git program holds the index, with no file touched, and the next sync finishes', async () => {
      await shared({ 'Note.md': 'one\n' });
      await pushFromOther({ 'Note.md': 'one\ntwo\n' }, 'other: two');
      const head = vaultHead();
      await writeFile(join(vault, '.git/index.lock'), '');
      const error = await sync({ git: { now: () => DAY, lockWait: { timeoutMs: 200, pollMs: 20 } } }).then(
        () => null,
        (caught: unknown) => caught as { code?: string },
      );
      expect(error?.code).toBe('GitBusy');
      expect(vaultHead()).toBe(head);
      expect(await read(vault, 'Note.md')).toBe('one\n');
      // Once the other program is done, the next sync finishes the job.
      await rm(join(vault, '.git/index.lock'));
      expect(await sync()).toMatchObject({ ok: true, uncommitted: [], copies: [] });
      expect(await read(vault, 'Note.md')).toBe('one\ntwo\n');
      expect(gitCli(vault, 'status', '--porcelain')).toBe('');
      await expectHealthy();
    });

    it('reports AuthFailed for a wrong token, without the token', async () => {
      await shared({ 'Note.md': 'one\n' });
      const wrong = 'wrong-token-5e1d';
      const error = await syncError({ token: wrong });
      expect(error.code).toBe('AuthFailed');
      expect(JSON.stringify(error.toJSON())).not.toContain(wrong);
      expect(error.message).not.toContain(wrong);
      await expectHealthy();
    });

    it('reports AuthFailed when no credentials are given', async () => {
      await shared({ 'Note.md': 'one\n' });
      const error = await syncError({ username: undefined, token: undefined });
      expect(error.code).toBe('AuthFailed');
    });

    it('reports Unreachable when the host is down, with the branch untouched', async () => {
      await shared({ 'Note.md': 'one\n' });
      const ours = await commitInVault({ 'Note.md': 'one\ntwo\n' }, 'vault: two');
      await server.stop();
      const error = await syncError();
      expect(error.code).toBe('Unreachable');
      expect(vaultHead()).toBe(ours);
      expect(fsckProblems(vault)).toEqual([]);
    });

    it('reports Rejected when the server refuses the push, and leaves both sides as they were', async () => {
      await shared({ 'Note.md': 'one\n' });
      const before = remoteHead();
      await server.refusePushes(remote.dir, 'policy: pushes are closed');
      const ours = await commitInVault({ 'Note.md': 'one\ntwo\n' }, 'vault: two');
      const error = await syncError();
      expect(error.code).toBe('Rejected');
      expect(error.message).toMatch(/the remote refused the push \(refs\/heads\/main: pre-receive hook declined; the remote said: policy: pushes are closed\)\. Sync again/);
      expect(remoteHead()).toBe(before);
      expect(vaultHead()).toBe(ours);
      expect(gitCli(vault, 'rev-parse', 'refs/remotes/origin/main').trim()).toBe(before);
      await expectHealthy();
    });
  });

  describe("the plugin's sync controller (Sync now, status bar, notices)", () => {
    async function controllerFor(remoteUrl: string, token: string | null, client?: GitHttpClient): Promise<{ controller: SyncController; notices: SyncMessage[]; updates: string[]; close: () => void }> {
      const port = await NodeVaultPort.open(vault, { watch: false });
      const service = await GitService.open(port, new WriteSet(port), { configDir: DEFAULT_MEM_OPTIONS.configDir, now: () => DAY });
      await service.whenSnapshotDone();
      const notices: SyncMessage[] = [];
      const updates: string[] = [];
      const modules = { http: await import('node:http'), https: await import('node:https') };
      const controller = new SyncController({
        git: () => service,
        remote: () => ({ url: remoteUrl, username: USER }),
        token: () => token,
        http: client ?? createGitHttpClient(modules),
        notify: (message) => {
          notices.push(message);
          return { update: (text) => updates.push(text), hide: () => undefined };
        },
        now: () => DAY,
      });
      return {
        controller,
        notices,
        updates,
        close: () => {
          service.close();
          port.close();
        },
      };
    }

    it('syncs on "Sync now", names the conflicted notes with an action to open them, and shows ahead/behind', async () => {
      await shared({ 'Plan.md': 'a\nb\nc\n' });
      await pushFromOther({ 'Plan.md': 'a\nB phone\nc\n' }, 'other: b');
      await commitInVault({ 'Plan.md': 'a\nB laptop\nc\n' }, 'vault: b');
      const { controller, notices, close } = await controllerFor(remote.url, TOKEN);
      try {
        await controller.refreshStatus();
        expect(controller.status).toEqual({ branch: 'main', ahead: 1, behind: 0, tracked: true });
        await controller.syncNow('manual');
        const last = controller.last;
        expect(last !== null && 'result' in last ? last.result.conflicts : null).toEqual(['Plan.md']);
        expect(notices.at(-1)).toMatchObject({ action: 'show-conflicts', paths: ['Plan.md'] });
        expect(controller.status).toEqual({ branch: 'main', ahead: 0, behind: 0, tracked: true });
        expect(await read(vault, COPY('Plan'))).toBe('a\nB phone\nc\n');
      } finally {
        close();
      }
      await expectHealthy();
    });

    it('offers the settings for refused credentials and "Sync again" for an unreachable host, never showing the token', async () => {
      await shared({ 'Note.md': 'one\n' });
      const wrong = await controllerFor(remote.url, 'not-the-token-0c4f');
      try {
        await wrong.controller.syncNow('interval');
        expect(wrong.notices).toHaveLength(1);
        expect(wrong.notices[0]?.action).toBe('open-settings');
        expect(JSON.stringify(wrong.notices)).not.toContain('not-the-token-0c4f');
      } finally {
        wrong.close();
      }
      await server.stop();
      const down = await controllerFor(remote.url, TOKEN);
      try {
        await down.controller.syncNow('manual');
        expect(down.notices.at(-1)?.action).toBe('sync-again');
        expect(JSON.stringify(down.notices)).not.toContain(TOKEN);
        expect(down.controller.last !== null && 'error' in down.controller.last).toBe(true);
      } finally {
        down.close();
      }
    });

    it("syncs over Obsidian's requestUrl (the mobile path) as it does over Node's http", async () => {
      await shared({ 'Plan.md': 'a\nb\nc\nd\ne\n' });
      await pushFromOther({ 'Plan.md': 'A\nb\nc\nd\ne\n', 'Phone.md': 'phone\n' }, 'other: edits');
      await commitInVault({ 'Plan.md': 'a\nb\nc\nd\nE\n' }, 'vault: edit');
      const mobile = await controllerFor(remote.url, TOKEN, createObsidianGitHttpClient());
      try {
        await mobile.controller.syncNow('manual');
        const last = mobile.controller.last;
        expect(last !== null && 'result' in last ? last.result : last).toMatchObject({ ok: true, merged: true, fetched: 1, pushed: 2, conflicts: [] });
      } finally {
        mobile.close();
      }
      expect(await read(vault, 'Plan.md')).toBe('A\nb\nc\nd\nE\n');
      expect(await read(vault, 'Phone.md')).toBe('phone\n');
      expect(remoteHead()).toBe(vaultHead());
      await expectHealthy();
      const refused = await controllerFor(remote.url, 'bad-mobile-token', createObsidianGitHttpClient());
      try {
        await refused.controller.syncNow('manual');
        expect(refused.notices.at(-1)?.action).toBe('open-settings');
      } finally {
        refused.close();
      }
    });

    it('stays quiet on a scheduled sync that needs nothing from the user', async () => {
      await shared({ 'Note.md': 'one\n' });
      await pushFromOther({ 'Note.md': 'one\ntwo\n' }, 'other: two');
      const { controller, notices, close } = await controllerFor(remote.url, TOKEN);
      try {
        await controller.syncNow('interval');
        expect(notices).toEqual([]);
        expect(await read(vault, 'Note.md')).toBe('one\ntwo\n');
      } finally {
        close();
      }
    });
  });
});
