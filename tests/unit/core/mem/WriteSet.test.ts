import { describe, expect, it } from 'vitest';
import { WriteSet } from '../../../../src/core/mem';

describe('WriteSet', () => {
  describe('record', () => {
    it('keeps the first touch of a path', () => {
      const set = new WriteSet();
      set.record('a.md', false);
      set.record('a.md', true);
      expect(set.list()).toEqual([{ path: 'a.md', existedBefore: false }]);
    });
  });

  describe('paths', () => {
    it('returns the recorded paths sorted', () => {
      const set = new WriteSet();
      set.record('b.md', true);
      set.record('A/c.md', false);
      expect(set.paths()).toEqual(['A/c.md', 'b.md']);
      expect(set.size).toBe(2);
      expect(set.has('b.md')).toBe(true);
    });
  });

  describe('clear', () => {
    it('forgets everything', () => {
      const set = new WriteSet();
      set.record('a.md', true);
      set.clear();
      expect(set.size).toBe(0);
      expect(set.list()).toEqual([]);
    });
  });

  describe('list', () => {
    it('returns copies that cannot change the set', () => {
      const set = new WriteSet();
      set.record('a.md', true);
      const [entry] = set.list();
      if (entry) entry.existedBefore = false;
      expect(set.list()).toEqual([{ path: 'a.md', existedBefore: true }]);
    });
  });
});
