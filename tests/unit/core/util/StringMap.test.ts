import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringMap, StringSet } from '../../../../src/core/util/StringMap';

/** Few distinct keys, so operations meet the same keys again; lone surrogates and the empty string included. */
const key = fc.oneof(fc.constantFrom('', 'a', 'A', 'Notes/A.md', 'notes/a.md', '\ud800', 'é', 'e\u0301'), fc.string({ maxLength: 3, unit: 'binary' }));

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string } | { kind: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), key }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

describe('StringMap', () => {
  it('behaves as a Map of the same operations: lookups, sizes, results and insertion order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.array(key, { maxLength: 20 }), (ops, probes) => {
        const model = new Map<string, number>();
        const map = new StringMap<number>();
        for (const step of ops) {
          if (step.kind === 'set') {
            expect(map.set(step.key, step.value)).toBe(map);
            model.set(step.key, step.value);
          } else if (step.kind === 'delete') {
            expect(map.delete(step.key)).toBe(model.delete(step.key));
          } else {
            map.clear();
            model.clear();
          }
          expect(map.size).toBe(model.size);
        }
        expect([...map]).toEqual([...model]);
        expect([...map.keys()]).toEqual([...model.keys()]);
        expect([...map.values()]).toEqual([...model.values()]);
        for (const probe of probes) {
          expect(map.get(probe)).toBe(model.get(probe));
          expect(map.has(probe)).toBe(model.has(probe));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps thousands of keys through growth and deletions', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `note ${i}`);
    const map = new StringMap<number>(keys.map((k, i) => [k, i]));
    for (const [i, k] of keys.entries()) expect(map.get(k)).toBe(i);
    for (const k of keys.filter((_, i) => i % 3 === 0)) map.delete(k);
    expect(map.size).toBe(keys.length - Math.ceil(keys.length / 3));
    for (const [i, k] of keys.entries()) expect(map.get(k)).toBe(i % 3 === 0 ? undefined : i);
  });

  it('sees deletions made while it is iterated, and additions that do not grow the table', () => {
    const map = new StringMap<number>([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const seen: string[] = [];
    for (const [k] of map) {
      seen.push(k);
      if (k === 'a') map.delete('b');
      if (k === 'c') map.set('d', 4);
    }
    expect(seen).toEqual(['a', 'c', 'd']);
  });

  it('reuses the room of deleted entries instead of growing without end', () => {
    const map = new StringMap<number>();
    for (let round = 0; round < 1000; round += 1) {
      map.set(`key ${round}`, round);
      map.delete(`key ${round}`);
    }
    expect(map.size).toBe(0);
    expect((map as unknown as { keyList: unknown[] }).keyList.length).toBeLessThan(16);
  });

  it('is a Map to code that takes one: forEach and the string tag', () => {
    const map = new StringMap<number>([['x', 1]]);
    const asMap: Map<string, number> = map;
    const seen: [string, number][] = [];
    asMap.forEach((value, k, self) => {
      expect(self).toBe(map);
      seen.push([k, value]);
    });
    expect(seen).toEqual([['x', 1]]);
    expect(Object.prototype.toString.call(map)).toBe('[object StringMap]');
  });
});

describe('StringSet', () => {
  it('behaves as a Set of the same additions and deletions, in insertion order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), key), { maxLength: 200 }), (steps) => {
        const model = new Set<string>();
        const set = new StringSet();
        for (const [add, k] of steps) {
          if (add) {
            set.add(k);
            model.add(k);
          } else {
            expect(set.delete(k)).toBe(model.delete(k));
          }
        }
        expect(set.size).toBe(model.size);
        expect([...set]).toEqual([...model]);
        expect([...set.entries()]).toEqual([...model.entries()]);
        for (const [, k] of steps) expect(set.has(k)).toBe(model.has(k));
      }),
    );
  });
});
