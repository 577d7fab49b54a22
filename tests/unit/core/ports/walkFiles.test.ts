import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { walkEntries, walkFiles } from '../../../../src/core/ports';
import { Slicer } from '../../../../src/core/util/Slicer';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { useTempDir } from '../../../helpers/tempVault';

describe('walking a vault', () => {
  const temp = useTempDir('recursa-walk-');
  let port: NodeVaultPort;

  beforeEach(async () => {
    const files: [string, string][] = [
      ['a.md', 'a'],
      ['Notes/b.md', 'b'],
      ['Notes/Deep/c.md', 'c'],
      ['.git/HEAD', 'ref: refs/heads/main\n'],
    ];
    for (const [path, text] of files) {
      await mkdir(join(temp.dir, path, '..'), { recursive: true });
      await writeFile(join(temp.dir, path), text);
    }
    await symlink('..', join(temp.dir, 'Notes/Deep/up'));
    await symlink('b.md', join(temp.dir, 'Notes/alias.md'));
    port = new NodeVaultPort(temp.dir, { watch: false });
  });

  describe('walkFiles', () => {
    it('returns every file (a folder\'s own before its subfolders) and no link', async () => {
      expect(await walkFiles(port, '')).toEqual(['a.md', '.git/HEAD', 'Notes/b.md', 'Notes/Deep/c.md']);
    });

    it('descends only into the folders `enter` accepts', async () => {
      expect(await walkFiles(port, '', (folder) => folder !== '.git' && folder !== 'Notes/Deep')).toEqual(['a.md', 'Notes/b.md']);
    });

    it('walks a subfolder alone', async () => {
      expect(await walkFiles(port, 'Notes/Deep')).toEqual(['Notes/Deep/c.md']);
    });

    it("gives way between folders in the slicer's slices, with the same files", async () => {
      const slicer = new Slicer(0);
      expect(await walkFiles(port, '', (folder) => folder !== '.git', slicer)).toEqual(['a.md', 'Notes/b.md', 'Notes/Deep/c.md']);
      expect(slicer.yields).toBe(3);
    });
  });

  describe('walkEntries', () => {
    it('returns the files and, apart, the links, never entering a link (here a loop back up)', async () => {
      expect(await walkEntries(port, '', (folder) => folder !== '.git')).toEqual({
        files: ['a.md', 'Notes/b.md', 'Notes/Deep/c.md'],
        links: ['Notes/alias.md', 'Notes/Deep/up'],
      });
    });

    it("gives way between folders in the slicer's slices, with the same result", async () => {
      const slicer = new Slicer(0);
      expect(await walkEntries(port, '', (folder) => folder !== '.git', slicer)).toEqual({
        files: ['a.md', 'Notes/b.md', 'Notes/Deep/c.md'],
        links: ['Notes/alias.md', 'Notes/Deep/up'],
      });
      // Before each of the three subfolders met: .git, Notes and Notes/Deep.
      expect(slicer.yields).toBe(3);
    });
  });
});
