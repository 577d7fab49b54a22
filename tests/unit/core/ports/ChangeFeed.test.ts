import { describe, expect, it } from 'vitest';
import { ChangeFeed, type VaultChange } from '../../../../src/core/ports';

const change: VaultChange = { type: 'create', path: 'a.md', kind: 'file' };

describe('ChangeFeed', () => {
  describe('emit', () => {
    it('reaches every listener, even after one throws, and reports the failure', () => {
      const failures: unknown[] = [];
      const feed = new ChangeFeed((error) => failures.push(error));
      const seen: VaultChange[] = [];
      feed.add(() => {
        throw new Error('listener bug');
      });
      feed.add((c) => seen.push(c));
      expect(() => feed.emit(change)).not.toThrow();
      expect(seen).toEqual([change]);
      expect(failures).toHaveLength(1);
    });
  });

  describe('add', () => {
    it('returns a remover that reports whether the listener was there', () => {
      const feed = new ChangeFeed();
      const seen: VaultChange[] = [];
      const remove = feed.add((c) => seen.push(c));
      expect(feed.size).toBe(1);
      expect(remove()).toBe(true);
      expect(remove()).toBe(false);
      feed.emit(change);
      expect(seen).toEqual([]);
    });
  });
});
