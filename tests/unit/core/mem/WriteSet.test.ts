import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WriteSet, type OriginalStore } from '../../../../src/core/mem';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { useTempDir } from '../../../helpers/tempVault';

describe('WriteSet', () => {
  const temp = useTempDir();
  let port: NodeVaultPort;
  let set: WriteSet;
  const saved: Record<string, string> = {};
  const written: Record<string, string | null> = {};
  const store: OriginalStore = {
    saveOriginals: async (paths) => {
      const ids = new Map<string, string>();
      for (const path of paths) {
        saved[path] = await readFile(join(temp.dir, path), 'utf8');
        ids.set(path, `id-of-${path}`);
      }
      return ids;
    },
    saveWritten: async (paths) => {
      const ids = new Map<string, string | null>();
      for (const path of paths) {
        written[path] = await readFile(join(temp.dir, path), 'utf8').catch(() => null);
        ids.set(path, written[path] === null ? null : `written-${written[path]}`);
      }
      return ids;
    },
  };

  beforeEach(async () => {
    port = await NodeVaultPort.open(temp.dir, { watch: false });
    set = new WriteSet(port);
    await writeFile(join(temp.dir, 'a.md'), 'original\n');
  });
  afterEach(() => port.close());

  describe('track', () => {
    it('records the first touch of a path: whether it existed and, with a store, its original content', async () => {
      set.keepOriginals(store);
      await set.track(['a.md', 'new.md'], async () => {
        await port.write('a.md', 'changed\n');
        await port.write('new.md', 'created\n');
      });
      await set.track(['a.md'], () => port.write('a.md', 'changed again\n'));
      expect(set.get('a.md')).toMatchObject({ existedBefore: true, original: 'id-of-a.md', written: 'written-changed again\n' });
      expect(set.get('new.md')).toMatchObject({ existedBefore: false, original: null, written: 'written-created\n' });
      expect(saved).toEqual({ 'a.md': 'original\n' });
    });

    it('keeps no original without a store', async () => {
      await set.track(['a.md'], () => port.write('a.md', 'changed\n'));
      expect(set.get('a.md')).toMatchObject({ existedBefore: true, original: null });
    });

    it('records nothing when the mutation throws', async () => {
      await expect(set.track(['a.md'], () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
      expect(set.size).toBe(0);
    });
  });

  describe('changedByOthers', () => {
    it('names the files whose state differs from what the agent left', async () => {
      await set.track(['a.md', 'gone.md'], async () => {
        await port.write('a.md', 'agent\n');
      });
      expect(await set.changedByOthers()).toEqual([]);
      await writeFile(join(temp.dir, 'a.md'), 'user edit, longer\n');
      await writeFile(join(temp.dir, 'gone.md'), 'user created it\n');
      expect(await set.changedByOthers()).toEqual(['a.md', 'gone.md']);
      await set.refresh(['a.md', 'gone.md']);
      expect(await set.changedByOthers()).toEqual([]);
    });
  });

  describe('paths, list, delete and clear', () => {
    it('report the recorded paths sorted, and forget them on request', async () => {
      await set.track(['b.md', 'A/c.md'], () => Promise.resolve());
      expect(set.paths()).toEqual(['A/c.md', 'b.md']);
      expect(set.list()).toEqual([
        { path: 'A/c.md', existedBefore: false },
        { path: 'b.md', existedBefore: false },
      ]);
      set.delete('b.md');
      expect(set.has('b.md')).toBe(false);
      set.clear();
      expect(set.size).toBe(0);
    });
  });
});
