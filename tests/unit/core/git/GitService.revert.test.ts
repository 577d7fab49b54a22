import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, RevertConflictError } from '../../../../src/core/errors';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('GitService revertCommit ($name)', (runtime) => {
  const vault = useGitVault(runtime, {
    before: async (dir) => {
      await writeFile(join(dir, 'a.md'), 'a v1\n');
      await writeFile(join(dir, 'b.md'), 'b v1\n');
    },
  });

  it('undoes an agent commit with a new commit, history untouched', async () => {
    await vault.mem.writeFile('a.md', 'a v2\n');
    await vault.mem.deletePath('b.md');
    await vault.mem.writeFile('c.md', 'c\n');
    const hash = await vault.mem.commitChanges('Agent work');
    const revert = await vault.git.revertCommit(hash.slice(0, 10), 'undo-1');
    expect(await vault.disk('a.md')).toBe('a v1\n');
    expect(await vault.disk('b.md')).toBe('b v1\n');
    expect(await vault.mem.fileExists('c.md')).toBe(false);
    expect(gitCli(vault.dir, 'rev-parse', `${revert}^`).trim()).toBe(hash);
    expect(gitCli(vault.dir, 'log', '-1', '--format=%B', revert)).toBe(`Revert "Agent work"\n\nThis reverts commit ${hash}.\n\nRecursa-Run: undo-1\n\n`);
    expect(gitCli(vault.dir, 'diff', `${hash}^`, revert)).toBe('');
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
    // A revert is an agent commit too, so it can itself be undone.
    await vault.mem.revertCommit(revert);
    expect(await vault.disk('c.md')).toBe('c\n');
  });

  it('refuses, changing nothing, when a later commit changed the same file', async () => {
    await vault.mem.writeFile('a.md', 'a v2\n');
    const first = await vault.mem.commitChanges('First');
    await vault.mem.writeFile('a.md', 'a v3\n');
    await vault.mem.commitChanges('Second');
    const error = await rejectionOf(() => vault.mem.revertCommit(first), RevertConflictError);
    expect(error.data).toMatchObject({ paths: ['a.md'] });
    expect(error.message).toContain('later commits');
    expect(await vault.disk('a.md')).toBe('a v3\n');
    expect(gitCli(vault.dir, 'rev-list', '--count', 'HEAD').trim()).toBe('3');
  });

  it('refuses when the file has uncommitted edits', async () => {
    await vault.mem.writeFile('a.md', 'a v2\n');
    const hash = await vault.mem.commitChanges('Edit a');
    await vault.userWrite('a.md', 'a v2 and a user edit\n');
    const error = await rejectionOf(() => vault.mem.revertCommit(hash), RevertConflictError);
    expect(error.message).toContain('uncommitted changes');
    expect(await vault.disk('a.md')).toBe('a v2 and a user edit\n');
  });

  it('reverts only agent commits', async () => {
    const snapshot = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    const error = await rejectionOf(() => vault.mem.revertCommit(snapshot), InvalidArgumentError);
    expect(error.message).toContain('Recursa-Run');
  });
});
