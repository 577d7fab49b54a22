import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCommitMessage, readAgentTrailer, safeIdentity, type CommitObject } from '../../../../src/core/git/commitObjects';
import { EMPTY_TREE_OID, GitObjectStore } from '../../../../src/core/git/gitObjects';
import { hashBlob } from '../../../../src/core/git/objectHash';
import type { TreeEntry } from '../../../../src/core/git/treeObjects';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { GIT_ENV, gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

const SIGNED = { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000, timezoneOffset: -330 };

/** The git CLI with standard input and extra environment. */
function gitWith(dir: string, args: string[], options: { input?: string; env?: Record<string, string> }): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', input: options.input ?? '', env: { ...GIT_ENV, ...options.env } });
}

describe('GitObjectStore (isomorphic-git through the vault port)', () => {
  const temp = useTempDir();

  const open = async (): Promise<GitObjectStore> => {
    gitCli(temp.dir, 'init', '-q');
    return new GitObjectStore(await NodeVaultPort.open(temp.dir, { watch: false }));
  };

  it('writes blobs with the ids git hash-object gives, readable by git cat-file', async () => {
    const store = await open();
    const bytes = new TextEncoder().encode('# Café\n\nnaïve\n');
    const oid = await store.writeBlob(bytes);
    await writeFile(join(temp.dir, 'sample.md'), bytes);
    expect(oid).toBe(gitCli(temp.dir, 'hash-object', 'sample.md').trim());
    expect(await hashBlob(bytes)).toBe(oid);
    expect(gitCli(temp.dir, 'cat-file', '-p', oid)).toBe('# Café\n\nnaïve\n');
    expect(new TextDecoder().decode(await store.readBlob(oid))).toBe('# Café\n\nnaïve\n');
  });

  it('writes trees in git order, with the ids git mktree gives', async () => {
    const store = await open();
    const blob = await store.writeBlob(new Uint8Array());
    const link = await store.writeBlob(new TextEncoder().encode('../outside'));
    const entries: TreeEntry[] = [
      { mode: '100644', name: 'a.md', oid: blob },
      { mode: '40000', name: 'a', oid: await store.writeTree([{ mode: '100644', name: 'x.md', oid: blob }]) },
      { mode: '100644', name: 'a-b', oid: blob },
      { mode: '100755', name: 'Zeta', oid: blob },
      { mode: '120000', name: 'link', oid: link },
      { mode: '100644', name: 'é.md', oid: blob },
    ];
    const oid = await store.writeTree(entries);
    expect(gitCli(temp.dir, 'cat-file', '-t', oid).trim()).toBe('tree');
    const listed = gitCli(temp.dir, 'ls-tree', oid).trim().split('\n').map((line) => line.split('\t')[1]);
    expect(listed).toEqual(['Zeta', 'a-b', 'a.md', 'a', 'link', '"\\303\\251.md"']);
    gitCli(temp.dir, 'fsck', '--full', '--no-dangling');
    const read = (await store.readTree(oid)).map((entry) => `${entry.mode} ${entry.name}`).sort();
    expect(read).toEqual(['100644 a-b', '100644 a.md', '100644 é.md', '100755 Zeta', '120000 link', '40000 a']);
    expect(await store.writeTree([])).toBe(EMPTY_TREE_OID);
    // Stored for real (git and isomorphic-git both answer for it from memory, but fsck wants it on disk).
    expect(existsSync(join(temp.dir, '.git/objects', EMPTY_TREE_OID.slice(0, 2), EMPTY_TREE_OID.slice(2)))).toBe(true);
  });

  it('orders names by their UTF-8 bytes, as git mktree does, above U+FFFF too', async () => {
    const store = await open();
    const blob = await store.writeBlob(new TextEncoder().encode('x'));
    const sub = await store.writeTree([{ mode: '100644', name: 'x', oid: blob }]);
    // UTF-16 puts 😀 (a surrogate pair, 0xD83D…) before U+FFFD; its UTF-8 bytes (F0…) come after (EF…).
    const names = ['😀.md', '\uFFFD.md', 'é', 'z', 'a.b', 'a-b'];
    const entries: TreeEntry[] = [...names.map((name) => ({ mode: '100644', name, oid: blob })), { mode: '40000', name: 'a', oid: sub }];
    const oid = await store.writeTree(entries);
    const mktreeInput = entries.map((entry) => `${entry.mode === '40000' ? '040000 tree' : '100644 blob'} ${entry.oid}\t${entry.name}\n`).join('');
    expect(gitWith(temp.dir, ['mktree'], { input: mktreeInput }).trim()).toBe(oid);
    gitCli(temp.dir, 'fsck', '--strict', '--no-dangling');
  });

  it('writes commits byte for byte as git commit-tree does', async () => {
    const store = await open();
    const tree = await store.writeTree([{ mode: '100644', name: 'a.md', oid: await store.writeBlob(new Uint8Array([0x61])) }]);
    const parent = await store.writeCommit({ tree, parents: [], author: SIGNED, committer: SIGNED, message: 'First\n' });
    const oid = await store.writeCommit({ tree, parents: [parent], author: SIGNED, committer: SIGNED, message: '\n\nSecond\r\n\nBody\n\n\n' });
    const env = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_AUTHOR_DATE: '1700000000 -0530' };
    const committer = { GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_COMMITTER_DATE: '1700000000 -0530' };
    expect(gitWith(temp.dir, ['commit-tree', tree, '-p', parent, '-m', 'Second\n\nBody'], { env: { ...env, ...committer } }).trim()).toBe(oid);
    gitCli(temp.dir, 'fsck', '--strict', '--no-dangling');
  });

  it('writes commits that git reads back, time zones and the run trailer included', async () => {
    const store = await open();
    const commit: CommitObject = {
      tree: await store.writeTree([{ mode: '100644', name: 'a.md', oid: await store.writeBlob(new Uint8Array([0x61])) }]),
      parents: [],
      author: { name: 'Ada', email: 'ada@example.com', timestamp: 1_700_000_000, timezoneOffset: -330 },
      committer: { name: 'Recursa', email: 'recursa@localhost', timestamp: 1_700_000_060, timezoneOffset: 60 },
      message: agentCommitMessage('  Subject line\n\nBody.  ', 'run-42'),
    };
    const oid = await store.writeCommit(commit);
    expect(gitCli(temp.dir, 'log', '-1', '--format=%an|%ad|%cn|%cd|%(trailers:key=Recursa-Run,valueonly)', '--date=iso', oid).trim()).toBe(
      'Ada|2023-11-14 16:43:20 -0530|Recursa|2023-11-14 23:14:20 +0100|run-42',
    );
    expect(await store.readCommit(oid)).toEqual(commit);
    expect(await store.peelToCommit(oid)).toBe(oid);
    gitCli(temp.dir, 'tag', '-a', '-m', 'v1', 'v1', oid);
    expect(await store.peelToCommit(gitCli(temp.dir, 'rev-parse', 'v1').trim())).toBe(oid);
    expect(await store.has(oid)).toBe(true);
    expect(await store.has('0'.repeat(40))).toBe(false);
    gitCli(temp.dir, 'fsck', '--full', '--no-dangling');
  });

  it('reads the run trailer back, and only as the last paragraph', () => {
    expect(readAgentTrailer(agentCommitMessage('Fix links', 'run-1'))).toEqual({ message: 'Fix links', run: 'run-1' });
    expect(readAgentTrailer('Quote: Recursa-Run: x\n\nmore\n')).toEqual({ message: 'Quote: Recursa-Run: x\n\nmore', run: null });
    expect(readAgentTrailer('User commit\n')).toEqual({ message: 'User commit', run: null });
  });

  it('cleans identities so a setting cannot corrupt a commit', () => {
    expect(safeIdentity({ name: 'Eve <evil>\nx', email: 'a@b>\n' })).toEqual({ name: 'Eve evilx', email: 'a@b' });
    expect(safeIdentity({ name: ' ', email: '' })).toEqual({ name: 'Recursa', email: 'recursa@localhost' });
  });
});
