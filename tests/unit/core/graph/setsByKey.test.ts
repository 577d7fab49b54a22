import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SetsByKey } from '../../../../src/core/graph/setsByKey';
import { StringSet } from '../../../../src/core/util/StringMap';

describe('SetsByKey', () => {
  it('answers as a Map of Sets does, through any adds and deletes', () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const value = fc.constantFrom('x', 'y', 'z', 'w');
    const step = fc.record({ add: fc.boolean(), key, value });
    for (const kind of [Set, StringSet]) {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
          const sets = new SetsByKey(kind);
          const model = new Map<string, Set<string>>();
          for (const { add, key: k, value: v } of steps) {
            if (add) {
              sets.add(k, v);
              model.set(k, (model.get(k) ?? new Set()).add(v));
            } else {
              sets.delete(k, v);
              model.get(k)?.delete(v);
              if (model.get(k)?.size === 0) model.delete(k);
            }
            for (const k2 of ['a', 'b', 'c']) {
              // In the order they came, as a Set keeps them.
              expect(sets.values(k2)).toEqual([...(model.get(k2) ?? [])]);
              expect(sets.size(k2)).toBe(model.get(k2)?.size ?? 0);
              for (const v2 of ['x', 'y', 'z', 'w']) expect(sets.has(k2, v2)).toBe(model.get(k2)?.has(v2) ?? false);
            }
          }
        }),
        { numRuns: 300, seed: 45 },
      );
    }
  });

  it('gives a copy, so a set can change while its strings are read', () => {
    const sets = new SetsByKey();
    for (const value of ['x', 'y', 'z']) sets.add('a', value);
    for (const value of sets.values('a')) if (value !== 'y') sets.delete('a', value);
    expect(sets.values('a')).toEqual(['y']);
    sets.clear();
    expect(sets.size('a')).toBe(0);
  });
});
