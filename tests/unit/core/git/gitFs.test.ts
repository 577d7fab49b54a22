import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFs, GIT_ROOT, toVaultPath } from '../../../../src/core/git/gitFs';
import type { VaultPort } from '../../../../src/core/ports';
import { gitCli } from '../../../helpers/gitCli';
import { RUNTIMES, type OpenedRuntime } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

const author = { name: 'Recursa', email: 'recursa@localhost' };

/** The port, counting whole-file reads outside `.git` (what hashing a work-tree file costs). */
function countingReads(port: VaultPort): { port: VaultPort; reads: () => number } {
  let reads = 0;
  const counted = Object.create(port) as VaultPort;
  Object.assign(counted, {
    readBinary: (path: string) => {
      if (!path.startsWith('.git/')) reads++;
      return port.readBinary(path);
    },
  });
  return { port: counted, reads: () => reads };
}

describe.each(RUNTIMES)('createGitFs ($name)', (runtime) => {
  const temp = useTempDir();
  let opened: OpenedRuntime;

  beforeEach(async () => {
    await writeFile(join(temp.dir, 'a.md'), '# A\n');
    opened = await runtime.open(temp.dir);
  });
  afterEach(async () => opened.dispose());

  it('lets isomorphic-git make commits the git CLI accepts', async () => {
    const fs = createGitFs(opened.port);
    await git.init({ fs, dir: GIT_ROOT, defaultBranch: 'main' });
    await git.add({ fs, dir: GIT_ROOT, filepath: 'a.md' });
    const oid = await git.commit({ fs, dir: GIT_ROOT, message: 'first', author });
    expect(gitCli(temp.dir, 'rev-parse', 'HEAD').trim()).toBe(oid);
    expect(gitCli(temp.dir, 'fsck', '--full')).toBe('');
    expect(gitCli(temp.dir, 'log', '--format=%s')).toBe('first\n');
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(temp.dir, 'show', 'HEAD:a.md')).toBe('# A\n');
  });

  it('reports stable stat fields, so an unchanged file is not re-read on status', async () => {
    const { port, reads } = countingReads(opened.port);
    const fs = createGitFs(port);
    await git.init({ fs, dir: GIT_ROOT });
    await git.add({ fs, dir: GIT_ROOT, filepath: 'a.md' });
    await git.commit({ fs, dir: GIT_ROOT, message: 'first', author });
    const before = reads();
    expect(await git.statusMatrix({ fs, dir: GIT_ROOT, filepaths: ['a.md'] })).toEqual([['a.md', 1, 1, 1]]);
    expect(reads() - before).toBe(0);
  });

  it('rejects a read without a path (how isomorphic-git tells a promise fs) with one prepared error', async () => {
    const fs = createGitFs(opened.port);
    const read = (): Promise<unknown> => (fs.promises as unknown as { readFile(): Promise<unknown> }).readFile().catch((error: unknown) => error);
    const first = await read();
    expect(first).toMatchObject({ code: 'EINVAL' });
    expect(await read()).toBe(first);
  });

  describe('the fs contract', () => {
    it('fails with the Node error codes isomorphic-git branches on', async () => {
      const { promises: fs } = createGitFs(opened.port);
      await expect(fs.readFile('/missing')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(fs.stat('/missing')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(fs.mkdir('/')).rejects.toMatchObject({ code: 'EEXIST' });
      await expect(fs.readdir('/a.md')).rejects.toMatchObject({ code: 'ENOTDIR' });
      await expect(fs.readdir('/missing')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(fs.readFile('/')).rejects.toMatchObject({ code: 'EISDIR' });
      await fs.mkdir('/d');
      await fs.writeFile('/d/x', 'x');
      await expect(fs.rmdir('/d')).rejects.toMatchObject({ code: 'ENOTEMPTY' });
      await fs.unlink('/d/x');
      await fs.rmdir('/d');
      // (Obsidian's port moves removed vault files to the trash, so the root may gain `.trash`.)
      const root = await fs.readdir('/');
      expect(root).toContain('a.md');
      expect(root).not.toContain('d');
    });

    it('reads text or bytes as asked', async () => {
      const { promises: fs } = createGitFs(opened.port);
      expect(await fs.readFile('/a.md', 'utf8')).toBe('# A\n');
      expect(await fs.readFile('/a.md', { encoding: 'utf8' })).toBe('# A\n');
      expect(Array.from((await fs.readFile('/a.md')) as Uint8Array)).toEqual([35, 32, 65, 10]);
    });
  });
});

describe('toVaultPath', () => {
  it.each([
    ['/', ''],
    ['/.git/HEAD', '.git/HEAD'],
    ['//a//', 'a'],
    ['./a', 'a'],
    ['.', ''],
  ])('maps %j to %j', (input, expected) => {
    expect(toVaultPath(input)).toBe(expected);
  });
});
