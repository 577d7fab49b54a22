import { describe, expect, it } from 'vitest';
import { TreeReader, updateTree } from '../../../../src/core/git/treeEdit';
import { TREE_MODE, type TreeEntry } from '../../../../src/core/git/treeObjects';
import { Slicer } from '../../../../src/core/util/Slicer';
import { gitCli } from '../../../helpers/gitCli';
import { withRepository } from '../../../helpers/gitRepositoryTask';
import { useTempDir } from '../../../helpers/tempVault';

const BLOB = 'e69de29bb2d1d6434b8b29ae775a8c2d48c5391d';

describe('the tree reader', () => {
  const temp = useTempDir();

  it('keeps a tree it wrote exactly as reading it back gives it', async () => {
    gitCli(temp.dir, 'init', '--quiet');
    // Names whose order differs between orders: on disk a folder sorts as `name/`, and characters
    // above U+FFFF sort after U+E000–U+FFFF in UTF-8 but before them in UTF-16.
    const names = ['a-b', 'a', 'a.b', 'a0', '\u{1F600}', '\uE000', 'Z', 'é', 'b'];
    await withRepository(temp.dir, async (repo) => {
      const sub = await repo.trees.write([{ mode: '100644', name: 'inner.md', oid: BLOB }]);
      const entries: TreeEntry[] = names.map((name, i) => (i % 3 === 1 ? { mode: TREE_MODE, name, oid: sub } : { mode: i % 3 === 2 ? '100755' : '100644', name, oid: BLOB }));
      const oid = await repo.trees.write(entries);
      const kept = await repo.trees.read(oid);
      const readBack = await new TreeReader(repo.store).read(oid);
      expect(kept).toEqual(readBack);
      expect(gitCli(temp.dir, 'ls-tree', '-z', '--name-only', oid).split('\0').filter(Boolean).sort()).toEqual(names.slice().sort());
    });
    expect(gitCli(temp.dir, 'fsck', '--strict', '--no-dangling')).toBe('');
  });

  it("applies many changes in the slicer's slices, to the tree applying them at once gives", async () => {
    gitCli(temp.dir, 'init', '--quiet');
    const changes = new Map(Array.from({ length: 600 }, (_, i) => [`Folder ${i % 3}/Note ${i}.md`, { oid: BLOB, mode: '100644' }] as const));
    await withRepository(temp.dir, async (repo) => {
      const slicer = new Slicer(0);
      const sliced = await updateTree(repo.trees, null, changes, { slicer });
      expect(sliced).toBe(await updateTree(repo.trees, null, changes));
      // Twice while splitting the 600 paths, twice among the top folders' 600 changes, none in a folder's 200.
      expect(slicer.yields).toBe(4);
      expect(gitCli(temp.dir, 'ls-tree', '-r', '--name-only', sliced).trim().split('\n')).toHaveLength(600);
    });
  });
});
