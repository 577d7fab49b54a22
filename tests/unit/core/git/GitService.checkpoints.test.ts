import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RevertConflictError } from '../../../../src/core/errors';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

const seedNotes = async (dir: string): Promise<void> => {
  await mkdir(join(dir, 'Notes'), { recursive: true });
  await writeFile(join(dir, 'Notes/a.md'), 'a v1\n');
  await writeFile(join(dir, 'Notes/b.md'), 'b v1\n');
  await writeFile(join(dir, 'Other.md'), 'other v1\n');
};

describe.each(RUNTIMES)('GitService checkpoints and discards ($name)', (runtime) => {
  const vault = useGitVault(runtime, { before: seedNotes });
  const exists = async (path: string): Promise<boolean> => vault.mem.fileExists(path);

  it('revertToLastCheckpoint restores the checkpoint, and the state before it for files touched later', async () => {
    await vault.mem.writeFile('Notes/a.md', 'a v2\n');
    await vault.mem.writeFile('Notes/new.md', 'new v1\n');
    expect(await vault.mem.saveCheckpoint()).toBe(true);
    await vault.mem.writeFile('Notes/a.md', 'a v3\n');
    await vault.mem.deletePath('Notes/new.md');
    await vault.mem.writeFile('Notes/b.md', 'b v2\n');
    await vault.mem.writeFile('Notes/later.md', 'later\n');
    expect(await vault.mem.revertToLastCheckpoint()).toBe(true);
    expect(await vault.disk('Notes/a.md')).toBe('a v2\n');
    expect(await vault.disk('Notes/new.md')).toBe('new v1\n');
    expect(await vault.disk('Notes/b.md')).toBe('b v1\n');
    expect(await exists('Notes/later.md')).toBe(false);
    // Reverting twice lands on the same state; the result is committed like any agent work.
    await vault.mem.writeFile('Notes/a.md', 'a v4\n');
    await vault.mem.revertToLastCheckpoint();
    expect(await vault.disk('Notes/a.md')).toBe('a v2\n');
    await vault.mem.commitChanges('Keep the checkpoint state');
    expect(gitCli(vault.dir, 'show', '--name-status', '--format=', 'HEAD').trim().split('\n')).toEqual(['M\tNotes/a.md', 'A\tNotes/new.md']);
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe('');
  });

  it('revertToLastCheckpoint is false without a checkpoint, and a commit ends the checkpoint', async () => {
    expect(await vault.mem.revertToLastCheckpoint()).toBe(false);
    await vault.mem.writeFile('Notes/a.md', 'a v2\n');
    await vault.mem.saveCheckpoint();
    await vault.mem.commitChanges('Edit a');
    expect(await vault.mem.revertToLastCheckpoint()).toBe(false);
    expect(await vault.disk('Notes/a.md')).toBe('a v2\n');
  });

  it('discardChanges returns the agent files to how they were and leaves the user files alone', async () => {
    await vault.userWrite('Other.md', 'other, edited by the user\n');
    await vault.mem.writeFile('Notes/a.md', 'a v2\n');
    await vault.mem.rename('Notes/b.md', 'Notes/b2.md');
    await vault.mem.writeFile('Created.md', 'created\n');
    expect(await vault.mem.discardChanges()).toBe(true);
    expect(await vault.disk('Notes/a.md')).toBe('a v1\n');
    expect(await vault.disk('Notes/b.md')).toBe('b v1\n');
    expect(await exists('Notes/b2.md')).toBe(false);
    expect(await exists('Created.md')).toBe(false);
    expect(await vault.disk('Other.md')).toBe('other, edited by the user\n');
    expect(gitCli(vault.dir, 'status', '--porcelain')).toBe(' M Other.md\n');
    expect(await vault.mem.discardChanges()).toBe(false);
  });

  it('discardChanges keeps uncommitted user edits the agent then built on', async () => {
    await vault.userWrite('Notes/a.md', 'a with the user edit\n');
    await vault.mem.replaceInFile('Notes/a.md', 'user edit', 'user edit and the agent edit');
    await vault.mem.discardChanges();
    expect(await vault.disk('Notes/a.md')).toBe('a with the user edit\n');
  });

  it('stops, restoring nothing, when the user edited the same lines the agent wrote', async () => {
    await vault.mem.writeFile('Notes/a.md', 'a v2\n');
    await vault.mem.writeFile('Notes/b.md', 'b v2\n');
    await vault.mem.saveCheckpoint();
    await vault.mem.writeFile('Notes/b.md', 'b v3\n');
    await vault.userWrite('Notes/a.md', 'a v2 plus the user edit\n');
    // Since the checkpoint the agent changed only b.md: the user's edit to a.md stays.
    expect(await vault.mem.revertToLastCheckpoint()).toBe(true);
    expect(await vault.disk('Notes/b.md')).toBe('b v2\n');
    expect(await vault.disk('Notes/a.md')).toBe('a v2 plus the user edit\n');
    // Discarding would undo the agent's a.md, which the user edited on the same line.
    const discard = await rejectionOf(() => vault.mem.discardChanges(), RevertConflictError);
    expect(discard.data).toMatchObject({ paths: ['Notes/a.md'], operation: 'discardChanges' });
    expect(discard.message).toContain('"Notes/a.md"');
    expect(await vault.disk('Notes/a.md')).toBe('a v2 plus the user edit\n');
    expect(await vault.disk('Notes/b.md')).toBe('b v2\n');
  });

  it("undoes the agent's change and keeps a user's edit to other lines", async () => {
    await vault.userWrite('Notes/c.md', 'first\n\nmiddle\n\nlast\n');
    await vault.git.verifyChangedFiles();
    await vault.mem.replaceInFile('Notes/c.md', 'first', 'FIRST');
    await vault.userWrite('Notes/c.md', 'FIRST\n\nmiddle\n\nlast, and the user\n');
    expect(await vault.mem.discardChanges()).toBe(true);
    expect(await vault.disk('Notes/c.md')).toBe('first\n\nmiddle\n\nlast, and the user\n');
  });

  it("commits what the agent restored, and git still sees the user's merged-in edit as uncommitted", async () => {
    await vault.userWrite('Notes/d.md', 'top\n\nmiddle\n\nbottom\n');
    await vault.git.verifyChangedFiles();
    await vault.mem.replaceInFile('Notes/d.md', 'top', 'TOP');
    await vault.mem.saveCheckpoint();
    await vault.mem.replaceInFile('Notes/d.md', 'middle', 'MIDDLE');
    await vault.userWrite('Notes/d.md', 'TOP\n\nMIDDLE\n\nbottom, the user\n');
    expect(await vault.mem.revertToLastCheckpoint()).toBe(true);
    expect(await vault.disk('Notes/d.md')).toBe('TOP\n\nmiddle\n\nbottom, the user\n');
    const hash = await vault.mem.commitChanges('Capitalise the top');
    expect(gitCli(vault.dir, 'show', `${hash}:Notes/d.md`)).toBe('TOP\n\nmiddle\n\nbottom\n');
    expect(gitCli(vault.dir, 'status', '--porcelain', '--', 'Notes/d.md')).toBe(' M Notes/d.md\n');
    // The index never vouches (by size and time) for bytes it does not hold, or git would take the
    // user's edit for committed once the file's time is no longer racy.
    const indexedSize = Number(/size: (\d+)/.exec(gitCli(vault.dir, 'ls-files', '--debug', '--', 'Notes/d.md'))?.[1]);
    expect(indexedSize).not.toBe(Buffer.byteLength('TOP\n\nmiddle\n\nbottom, the user\n'));
    // Blobs of the agent's intermediate versions are left dangling, as git leaves them: gc removes them.
    expect(gitCli(vault.dir, 'fsck', '--full', '--strict', '--no-dangling')).toBe('');
  });
});
