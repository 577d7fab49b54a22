import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermTable, UNSEEN } from '../../../../src/core/graph/termTable';

describe('TermTable', () => {
  it('answers as a Map would, looked up by a range of a longer string, through every growth', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 1, maxLength: 3000 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 200 }), (words, others) => {
        const table = new TermTable();
        const model = new Map<string, number>();
        words.forEach((word, i) => {
          table.set(word, i * 3 - 7);
          model.set(word, i * 3 - 7);
        });
        expect(table.size).toBe(words.length);
        for (const word of [...words, ...others]) {
          const source = `«${word}»`;
          expect(table.numberOf(source, 1, word.length + 1)).toBe(model.get(word) ?? UNSEEN);
        }
        expect([...table.entries()]).toEqual([...model.entries()]);
      }),
      { numRuns: 40, seed: 31 },
    );
  });

  it('tells apart words of equal hash position and prefixes of one another', () => {
    const table = new TermTable();
    const words = Array.from({ length: 50_000 }, (_, i) => `w${i}`);
    words.forEach((word, i) => table.set(word, i));
    for (const probe of ['w', 'w1', 'w12', 'w123', 'w1234', 'w12345', 'w49999', 'w50000', '']) {
      expect(table.numberOf(probe, 0, probe.length)).toBe(words.indexOf(probe) >= 0 ? words.indexOf(probe) : UNSEEN);
    }
  });
});
