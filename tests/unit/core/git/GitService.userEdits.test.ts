import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NothingToCommitError } from '../../../../src/core/errors';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { openGitVault, useGitVault } from '../../../helpers/gitVault';
import { nodeRuntime, RUNTIMES } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

const seed = async (dir: string): Promise<void> => {
  await writeFile(join(dir, 'Plan.md'), '# Plan\n\n- one\n- two\n');
  await writeFile(join(dir, '.gitignore'), 'private/\n');
};

describe.each(RUNTIMES)("GitService and the user's own work ($name)", (runtime) => {
  const vault = useGitVault(runtime, { before: seed });

  it("commits the user's uncommitted edits first, as the user's, so the agent's commit holds only its change", async () => {
    await vault.userWrite('Plan.md', '# Plan\n\n- one\n- two\n- three (mine)\n');
    await vault.mem.replaceInFile('Plan.md', '# Plan', '# The plan');
    const hash = await vault.mem.commitChanges('Retitle the plan');
    const saved = gitCli(vault.dir, 'log', '-1', '--format=%an <%ae>|%s|%B', `${hash}^`);
    expect(saved).toMatch(/^Your edits \(saved by Recursa\) <your-edits@recursa\.invalid>\|Your edits to "Plan\.md", saved before the agent changed it\|/);
    expect(saved).not.toContain('Recursa-Run');
    expect(gitCli(vault.dir, 'show', `${hash}^:Plan.md`)).toBe('# Plan\n\n- one\n- two\n- three (mine)\n');
    expect(gitCli(vault.dir, 'diff', `${hash}^`, hash)).toContain('-# Plan\n+# The plan\n');
    expect(gitCli(vault.dir, 'diff', `${hash}^`, hash)).not.toContain('three');
    // Undoing the agent's commit gives the user's version back.
    await vault.mem.revertCommit(hash);
    expect(await vault.disk('Plan.md')).toBe('# Plan\n\n- one\n- two\n- three (mine)\n');
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
  });

  it("uses the repository's own user identity when it has one, and commits a new note of the user's too", async () => {
    gitCli(vault.dir, 'config', 'user.name', 'Ada Lovelace');
    gitCli(vault.dir, 'config', 'user.email', 'ada@example.com');
    await vault.userWrite('Ideas.md', 'my idea\n');
    await vault.mem.writeFile('Ideas.md', 'my idea\nand the agent\n');
    const hash = await vault.mem.commitChanges('Extend ideas');
    expect(gitCli(vault.dir, 'log', '-1', '--format=%an <%ae>', `${hash}^`).trim()).toBe('Ada Lovelace <ada@example.com>');
    expect(gitCli(vault.dir, 'show', `${hash}^:Ideas.md`)).toBe('my idea\n');
  });

  it('makes no extra commit when the note has no uncommitted edits', async () => {
    await vault.mem.replaceInFile('Plan.md', '- two', '- 2');
    const hash = await vault.mem.commitChanges('Number two');
    expect(gitCli(vault.dir, 'log', '-1', '--format=%an', `${hash}^`).trim()).toBe('Recursa');
    expect(gitCli(vault.dir, 'rev-list', '--count', 'HEAD').trim()).toBe('2');
  });

  it('commits what the agent wrote, leaving a later user edit uncommitted', async () => {
    await vault.mem.writeFile('Plan.md', '# Plan\n\n- one\n- two\n- agent three\n');
    await vault.userWrite('Plan.md', '# Plan\n\n- one\n- two\n- agent three\n- user four\n');
    const hash = await vault.mem.commitChanges('Add three');
    expect(gitCli(vault.dir, 'show', `${hash}:Plan.md`)).toBe('# Plan\n\n- one\n- two\n- agent three\n');
    expect(await vault.disk('Plan.md')).toBe('# Plan\n\n- one\n- two\n- agent three\n- user four\n');
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe(' M Plan.md\n');
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
  });

  it('leaves paths the ignore rules exclude out of the commit, and says so', async () => {
    await vault.mem.writeFile('private/secret.md', 'not for history\n');
    const alone = await rejectionOf(() => vault.mem.commitChanges('Secret'), NothingToCommitError);
    expect(alone.data).toMatchObject({ ignored: ['private/secret.md'] });
    expect(alone.message).toContain('ignored');
    await vault.mem.writeFile('private/other.md', 'also private\n');
    await vault.mem.writeFile('Public.md', 'public\n');
    const hash = await vault.mem.commitChanges('Mixed');
    expect(gitCli(vault.dir, 'show', '--name-only', '--format=', hash).trim()).toBe('Public.md');
    expect(gitCli(vault.dir, 'log', '--all', '--format=%H', '--', 'private').trim()).toBe('');
  });

  it("records every branch move in git's reflog", async () => {
    await vault.mem.writeFile('A.md', 'a\n');
    const hash = await vault.mem.commitChanges('Add A');
    const log = gitCli(vault.dir, 'reflog', 'show', '--format=%H %gs', 'main').trim().split('\n');
    expect(log[0]).toBe(`${hash} commit: Add A`);
    expect(log.at(-1)).toMatch(/ commit \(initial\): Snapshot of the vault/);
    expect(gitCli(vault.dir, 'reflog', 'show', '--format=%H', 'HEAD').trim().split('\n')[0]).toBe(hash);
  });
});

describe('GitService and symbolic links', () => {
  const temp = useTempDir();

  it('stores links as git does (mode 120000, the link text), never following them; a loop is harmless', async () => {
    const outside = join(temp.dir, 'outside');
    const dir = join(temp.dir, 'vault');
    await mkdir(outside);
    await mkdir(join(dir, 'Notes'), { recursive: true });
    await writeFile(join(outside, 'secret.md'), 'outside content\n');
    await writeFile(join(dir, 'Notes/a.md'), 'a\n');
    await symlink(join(outside, 'secret.md'), join(dir, 'Notes/secret-link.md'));
    await symlink(outside, join(dir, 'ext'));
    await symlink('.', join(dir, 'loop'));
    const vault = await openGitVault(nodeRuntime, dir);
    try {
      await vault.git.whenSnapshotDone();
      const tree = gitCli(dir, 'ls-tree', '-r', 'HEAD').trim().split('\n');
      expect(tree.filter((line) => line.startsWith('120000')).map((line) => line.split('\t')[1]).sort()).toEqual(['Notes/secret-link.md', 'ext', 'loop']);
      expect(gitCli(dir, 'cat-file', '-p', 'HEAD:loop')).toBe('.');
      // `git grep` exits 1 when nothing matches: the outside content is in no committed blob.
      expect(() => gitCli(dir, 'grep', '-c', 'outside content', 'HEAD')).toThrow();
    } finally {
      await vault.dispose();
    }
    expect(gitCli(dir, 'fsck', '--full', '--strict')).toBe('');
    expect(gitCli(dir, 'status', '--porcelain')).toBe('');
  });
});
