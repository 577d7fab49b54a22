import { lstat, mkdir, readFile, readlink, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RevertConflictError } from '../../src/core/errors';
import type { Mem } from '../../src/core/mem';
import { rejectionOf } from '../helpers/errors';
import { gitCli } from '../helpers/gitCli';
import { useGitVault } from '../helpers/gitVault';
import { LINK_RUNTIMES, useMemFixture } from '../helpers/memHarness';
import { useTempDir } from '../helpers/tempVault';

/**
 * Symbolic links planted in the vault (a shared vault, a synced folder, an unpacked archive) must
 * not let agent code read or write outside the vault, or into `.git` and the config folder.
 * Real links on a real folder, through the vault port of every runtime that has links (Obsidian
 * mobile's adapter has none: `ObsidianVaultPort.test.ts` shows it reports none).
 */
describe.each(LINK_RUNTIMES)('symbolic links in the vault ($name)', (runtime) => {
  const vault = useMemFixture(runtime);
  const outside = useTempDir('recursa-outside-');

  const link = async (target: string, path: string): Promise<void> => {
    await mkdir(join(vault.dir, path, '..'), { recursive: true });
    await symlink(target, join(vault.dir, path));
  };

  /** Every mem call that reads or writes through `path`, each expected to be refused with `rule`. */
  const everyAccess = (mem: Mem, path: string): [string, () => Promise<unknown>][] => [
    ['readFile', () => mem.readFile(path)],
    ['writeFile', () => mem.writeFile(path, 'planted\n')],
    ['updateFile', () => mem.updateFile(path, 'secret\n', 'changed\n')],
    ['replaceInFile', () => mem.replaceInFile(path, 'secret', 'changed')],
    ['getTokenCount', () => mem.getTokenCount(path)],
    ['fileExists', () => mem.fileExists(path)],
    ['getTokenCountForPaths', () => mem.getTokenCountForPaths(['inside.md', path])],
  ];

  describe('leading outside the vault', () => {
    it('refuses reads and writes through a linked folder, and leaves the outside untouched', async () => {
      await writeFile(join(outside.dir, 'secret.md'), 'secret\n');
      await link(outside.dir, 'ext');
      for (const [name, call] of everyAccess(vault.mem, 'ext/secret.md')) {
        await expect(call(), name).rejects.toMatchObject({ code: 'PathRefused', data: { rule: 'link-outside' } });
      }
      await expect(vault.mem.writeFile('ext/new.md', 'x')).rejects.toMatchObject({ data: { rule: 'link-outside' } });
      await expect(vault.mem.createDir('ext/made')).rejects.toMatchObject({ data: { rule: 'link-outside' } });
      await expect(vault.mem.listFiles('ext')).rejects.toMatchObject({ data: { rule: 'link-outside' } });
      await expect(vault.mem.rename('ext/secret.md', 'stolen.md')).rejects.toMatchObject({ data: { rule: 'link-outside' } });
      expect(await readFile(join(outside.dir, 'secret.md'), 'utf8')).toBe('secret\n');
      await expect(stat(join(outside.dir, 'new.md'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(stat(join(outside.dir, 'made'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses a note that is itself a link to a file outside', async () => {
      await writeFile(join(outside.dir, 'config'), 'secret\n');
      await link(join(outside.dir, 'config'), 'Notes/ssh.md');
      for (const [name, call] of everyAccess(vault.mem, 'Notes/ssh.md')) {
        await expect(call(), name).rejects.toMatchObject({ code: 'PathRefused', data: { rule: 'link-outside' } });
      }
      expect(await readFile(join(outside.dir, 'config'), 'utf8')).toBe('secret\n');
    });

    it('refuses a write to a dangling link, which would create its target outside', async () => {
      await link(join(outside.dir, 'created.md'), 'new.md');
      await expect(vault.mem.writeFile('new.md', 'x')).rejects.toMatchObject({ data: { rule: 'link-outside' } });
      await expect(stat(join(outside.dir, 'created.md'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses a relative link that climbs out of the vault', async () => {
      await writeFile(join(outside.dir, 'secret.md'), 'secret\n');
      const climb = join('..', '..', outside.dir.split('/').pop() as string);
      await mkdir(join(vault.dir, 'Deep'), { recursive: true });
      // From <vault>/Deep, two levels up is the temp folder both live in.
      await link(climb, 'Deep/up');
      await expect(vault.mem.readFile('Deep/up/secret.md')).rejects.toMatchObject({ data: { rule: 'link-outside' } });
    });

    it('deletes the link itself, never what it points at', async () => {
      await writeFile(join(outside.dir, 'keep.md'), 'keep\n');
      await link(outside.dir, 'ext');
      expect(await vault.mem.deletePath('ext')).toBe(true);
      await expect(lstat(join(vault.dir, 'ext'))).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await readFile(join(outside.dir, 'keep.md'), 'utf8')).toBe('keep\n');
      expect(vault.context.writeSet.paths()).toEqual(['ext']);
    });

    it('leaves links out of listings, so no walk descends into them', async () => {
      await writeFile(join(outside.dir, 'secret.md'), 'secret\n');
      await link(outside.dir, 'ext');
      await vault.seed('note.md', 'x');
      expect(await vault.mem.listFiles()).toEqual(['note.md']);
    });
  });

  describe('leading into what the agent may not touch', () => {
    it('refuses a link into .git, so git config cannot be rewritten', async () => {
      await mkdir(join(vault.dir, '.git'));
      await writeFile(join(vault.dir, '.git/config'), '[core]\n');
      await link('.git', 'g');
      await expect(vault.mem.writeFile('g/config', '[core]\n\tfsmonitor = evil\n')).rejects.toMatchObject({ data: { rule: 'protected-folder' } });
      await expect(vault.mem.readFile('g/config')).rejects.toMatchObject({ data: { rule: 'protected-folder' } });
      await expect(vault.mem.listFiles('g')).rejects.toMatchObject({ data: { rule: 'protected-folder' } });
      expect(await readFile(join(vault.dir, '.git/config'), 'utf8')).toBe('[core]\n');
    });

    it('refuses a link to a file in the config folder or the trash', async () => {
      await mkdir(join(vault.dir, '.obsidian'));
      await writeFile(join(vault.dir, '.obsidian/app.json'), '{}');
      await mkdir(join(vault.dir, '.trash'));
      await writeFile(join(vault.dir, '.trash/old.md'), 'old');
      await link('.obsidian/app.json', 'settings.md');
      await link('../.trash', 'Notes/bin');
      await expect(vault.mem.writeFile('settings.md', 'x')).rejects.toMatchObject({ data: { rule: 'protected-folder' } });
      await expect(vault.mem.readFile('Notes/bin/old.md')).rejects.toMatchObject({ data: { rule: 'protected-folder' } });
      expect(await readFile(join(vault.dir, '.obsidian/app.json'), 'utf8')).toBe('{}');
    });
  });

  describe('going round in circles', () => {
    it('names a loop instead of hanging or failing obscurely', async () => {
      await link('b', 'a');
      await link('a', 'b');
      await link('self', 'self');
      await expect(vault.mem.readFile('a/x.md')).rejects.toMatchObject({ data: { rule: 'link-loop' } });
      await expect(vault.mem.writeFile('self', 'x')).rejects.toMatchObject({ data: { rule: 'link-loop' } });
    });
  });

  describe('staying inside the vault', () => {
    it('reads through a link, and writes land on (and are recorded for) the file it leads to', async () => {
      await vault.seed('real.md', 'real\n');
      await link('real.md', 'alias.md');
      expect(await vault.mem.readFile('alias.md')).toBe('real\n');
      await vault.mem.replaceInFile('alias.md', 'real', 'changed');
      expect(await vault.disk('real.md')).toBe('changed\n');
      expect(await readlink(join(vault.dir, 'alias.md'))).toBe('real.md');
      expect(vault.context.writeSet.paths()).toEqual(['real.md']);
    });

    it('follows a linked folder, relative or absolute, to the notes inside the vault', async () => {
      await vault.seed('Real/note.md', 'inside\n');
      await link('../Real', 'Links/rel');
      await link(join(vault.dir, 'Real'), 'abs');
      expect(await vault.mem.readFile('Links/rel/note.md')).toBe('inside\n');
      expect(await vault.mem.readFile('abs/note.md')).toBe('inside\n');
      await vault.mem.writeFile('abs/new.md', 'new\n');
      expect(await vault.disk('Real/new.md')).toBe('new\n');
      expect(await vault.mem.listFiles('Links/rel')).toEqual(['Real/new.md', 'Real/note.md']);
    });
  });
});

describe.each(LINK_RUNTIMES)('undoing through a link ($name)', (runtime) => {
  const vault = useGitVault(runtime);
  const outside = useTempDir('recursa-outside-');

  it('refuses to revert a file whose folder has since become a link, writing nothing anywhere', async () => {
    await vault.mem.writeFile('Work/plan.md', 'plan\n');
    const hash = await vault.mem.commitChanges('Plan');
    // Someone (a sync, a script) swaps the folder for a link to a folder outside with the same file.
    await rename(join(vault.dir, 'Work'), join(vault.dir, 'Work-old'));
    await writeFile(join(outside.dir, 'plan.md'), 'plan\n');
    await symlink(outside.dir, join(vault.dir, 'Work'));
    const error = await rejectionOf(() => vault.mem.revertCommit(hash), RevertConflictError);
    expect(error.data).toMatchObject({ paths: ['Work/plan.md'] });
    expect(await readFile(join(outside.dir, 'plan.md'), 'utf8')).toBe('plan\n');
    expect(gitCli(vault.dir, 'log', '-1', '--format=%s')).toContain('Plan');
  });
});
