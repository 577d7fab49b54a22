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

  it('refuses, changing nothing, when a later commit changed the same lines', async () => {
    await vault.mem.writeFile('a.md', 'a v2\n');
    const first = await vault.mem.commitChanges('First');
    await vault.mem.writeFile('a.md', 'a v3\n');
    await vault.mem.commitChanges('Second');
    const error = await rejectionOf(() => vault.mem.revertCommit(first), RevertConflictError);
    expect(error.data).toMatchObject({ paths: ['a.md'], hash: first });
    expect(error.message).toContain('same places');
    expect(await vault.disk('a.md')).toBe('a v3\n');
    expect(gitCli(vault.dir, 'rev-list', '--count', 'HEAD').trim()).toBe('3');
  });

  it('merges with later changes to other lines, keeping them', async () => {
    await vault.mem.writeFile('a.md', 'one\ntwo\nthree\nfour\nfive\nsix\n');
    await vault.mem.commitChanges('Lines');
    await vault.mem.replaceInFile('a.md', 'one', 'ONE');
    const first = await vault.mem.commitChanges('Shout one');
    await vault.mem.replaceInFile('a.md', 'six', 'SIX');
    await vault.mem.commitChanges('Shout six');
    await vault.mem.revertCommit(first);
    expect(await vault.disk('a.md')).toBe('one\ntwo\nthree\nfour\nfive\nSIX\n');
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict')).toBe('');
  });

  it('keeps a byte-order mark through a merged revert', async () => {
    await vault.mem.writeFile('bom.md', '\uFEFFone\ntwo\nthree\nfour\nfive\nsix\n');
    await vault.mem.commitChanges('Lines with a BOM');
    await vault.mem.replaceInFile('bom.md', 'six', 'SIX');
    const first = await vault.mem.commitChanges('Shout six');
    await vault.mem.replaceInFile('bom.md', 'one', 'ONE');
    await vault.mem.commitChanges('Shout one');
    await vault.mem.revertCommit(first);
    expect(await vault.disk('bom.md')).toBe('\uFEFFONE\ntwo\nthree\nfour\nfive\nsix\n');
  });

  it("commits the user's uncommitted edits first, as the user's, and merges the revert into them", async () => {
    await vault.mem.writeFile('a.md', 'title\n\nbody\n\nend\n');
    await vault.mem.commitChanges('Write a');
    await vault.mem.replaceInFile('a.md', 'title', 'Title');
    const hash = await vault.mem.commitChanges('Capitalise the title');
    await vault.userWrite('a.md', 'Title\n\nbody\n\nend, with a user edit\n');
    const revert = await vault.mem.revertCommit(hash);
    expect(await vault.disk('a.md')).toBe('title\n\nbody\n\nend, with a user edit\n');
    const saved = gitCli(vault.dir, 'log', '-1', '--format=%an|%B', `${revert}^`);
    expect(saved).not.toContain('Recursa-Run');
    expect(saved.startsWith('Your edits')).toBe(true);
    expect(gitCli(vault.dir, 'show', `${revert}^:a.md`)).toBe('Title\n\nbody\n\nend, with a user edit\n');
    expect(gitCli(vault.dir, 'diff', `${revert}^`, revert)).toContain('-Title\n+title');
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses, writing nothing, when uncommitted edits overlap the change', async () => {
    await vault.mem.writeFile('a.md', 'a v2\n');
    const hash = await vault.mem.commitChanges('Edit a');
    const before = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    await vault.userWrite('a.md', 'a v2 and a user edit\n');
    const error = await rejectionOf(() => vault.mem.revertCommit(hash), RevertConflictError);
    expect(error.data).toMatchObject({ paths: ['a.md'] });
    expect(await vault.disk('a.md')).toBe('a v2 and a user edit\n');
    expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(before);
  });

  it('never deletes what the reverted commit did not create, nor a folder still holding files', async () => {
    await vault.mem.writeFile('New/a.md', 'agent\n');
    const hash = await vault.mem.commitChanges('Create New');
    await vault.userWrite('New/mine.md', 'the user note\n');
    await vault.mem.revertCommit(hash);
    expect(await vault.mem.fileExists('New/a.md')).toBe(false);
    expect(await vault.disk('New/mine.md')).toBe('the user note\n');
    await vault.mem.writeFile('Other/b.md', 'agent\n');
    const second = await vault.mem.commitChanges('Create Other');
    await vault.mem.revertCommit(second);
    expect(await vault.mem.fileExists('Other')).toBe(false);
  });

  it('reverts only agent commits', async () => {
    const snapshot = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    const error = await rejectionOf(() => vault.mem.revertCommit(snapshot), InvalidArgumentError);
    expect(error.message).toContain('Recursa-Run');
  });
});
