import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault, type GitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

/** The paths `git status` lists (renames as two paths, untracked files one by one), each once. */
function cliChanged(dir: string): string[] {
  const out = gitCli(dir, 'status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all');
  const paths = out
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => record.slice(3));
  // A path can appear twice (staged deletion, then untracked); we list it once.
  return [...new Set(paths)].sort();
}

const seedNotes = async (dir: string): Promise<void> => {
  await mkdir(join(dir, 'Folder/Sub'), { recursive: true });
  await mkdir(join(dir, '.obsidian'), { recursive: true });
  await writeFile(join(dir, 'a.md'), 'a\n');
  await writeFile(join(dir, 'Folder/b.md'), 'b\n');
  await writeFile(join(dir, 'Folder/Sub/c.md'), 'c\n');
  await writeFile(join(dir, '.obsidian/app.json'), '{}\n');
};

describe.each(RUNTIMES)('changed files ($name)', (runtime) => {
  const vault = useGitVault(runtime, { before: seedNotes });
  const expectSameAsCli = async (v: GitVault): Promise<string[]> => {
    const ours = await v.mem.getChangedFiles();
    expect(ours).toEqual(cliChanged(v.dir));
    return ours;
  };

  it('is empty on a clean tree', async () => {
    expect(await expectSameAsCli(vault)).toEqual([]);
  });

  it('follows edits, creations, deletions and folder renames made through the vault', async () => {
    await vault.userWrite('a.md', 'a, edited\n');
    await vault.userWrite('New/d.md', 'd\n');
    await vault.port.remove('Folder/b.md');
    expect(await expectSameAsCli(vault)).toEqual(['Folder/b.md', 'New/d.md', 'a.md']);
    await vault.port.rename('Folder', 'Moved');
    expect(await expectSameAsCli(vault)).toEqual(['Folder/Sub/c.md', 'Folder/b.md', 'Moved/Sub/c.md', 'New/d.md', 'a.md']);
    await vault.userWrite('a.md', 'a\n');
    expect(await expectSameAsCli(vault)).not.toContain('a.md');
  });

  it('leaves out ignored files, and follows changes to .gitignore', async () => {
    await vault.userWrite('.obsidian/workspace.json', '{"layout":1}\n');
    await vault.userWrite('.trash/old.md', 'old\n');
    await vault.userWrite('private/secret.md', 'secret\n');
    expect(await expectSameAsCli(vault)).toEqual(['private/secret.md']);
    await vault.userWrite('.gitignore', `${await vault.disk('.gitignore')}private/\n`);
    expect(await expectSameAsCli(vault)).toEqual(['.gitignore']);
  });

  it('notices what other git programs stage and commit', async () => {
    await vault.userWrite('a.md', 'a, edited\n');
    expect(await vault.mem.getChangedFiles()).toEqual(['a.md']);
    gitCli(vault.dir, 'add', 'a.md');
    gitCli(vault.dir, 'rm', '-q', '--cached', 'Folder/b.md');
    expect(await expectSameAsCli(vault)).toEqual(['Folder/b.md', 'a.md']);
    gitCli(vault.dir, 'commit', '-q', '-m', 'by the user');
    expect(await expectSameAsCli(vault)).toEqual(['Folder/b.md']);
    gitCli(vault.dir, 'add', 'Folder/b.md');
    gitCli(vault.dir, 'commit', '-q', '-m', 'track b again');
    expect(await expectSameAsCli(vault)).toEqual([]);
  });

  it('finds changes no event reported with the full check', async () => {
    await writeFile(join(vault.dir, 'a.md'), 'changed behind the vault\n');
    await rm(join(vault.dir, 'Folder/Sub/c.md'));
    expect(await vault.git.verifyChangedFiles()).toEqual(['Folder/Sub/c.md', 'a.md']);
    expect(await expectSameAsCli(vault)).toEqual(['Folder/Sub/c.md', 'a.md']);
  });

  it('does not list a file whose content is back to the committed one, even with a new mtime', async () => {
    await vault.userWrite('a.md', 'a\n');
    expect(await expectSameAsCli(vault)).toEqual([]);
  });

  it('sees a file saved again at once with the same size and mtime, once it was found equal to the committed one', async () => {
    // In whole milliseconds, which every runtime reports exactly, and not a whole second. Set a
    // little ahead, so it is still within its tick when the checks read the file, however busy the machine.
    const ahead = Date.now() + 5_000;
    const mtime = new Date(ahead % 1000 === 0 ? ahead + 1 : ahead);
    await writeFile(join(vault.dir, 'a.md'), 'a\n');
    await utimes(join(vault.dir, 'a.md'), mtime, mtime);
    expect(await vault.git.verifyChangedFiles()).toEqual([]);
    // Saved again within the same file-time tick: same size, same mtime.
    await writeFile(join(vault.dir, 'a.md'), 'b\n');
    await utimes(join(vault.dir, 'a.md'), mtime, mtime);
    expect(await vault.git.verifyChangedFiles()).toEqual(['a.md']);
    expect(cliChanged(vault.dir)).toEqual(['a.md']);
  });
});
