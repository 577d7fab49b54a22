import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, sortByCodePoints } from '../../../../src/core/util/compareCodePoints';

describe('compareCodePoints', () => {
  it('puts characters above U+FFFF after U+E000–U+FFFF', () => {
    expect(['😀', '\uFF21', 'a'].sort(compareCodePoints)).toEqual(['a', '\uFF21', '😀']);
  });

  it('agrees with comparing arrays of code points', () => {
    const reference = (a: string, b: string): number => {
      const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
      const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
      return x.length - y.length;
    };
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(reference(a, b)));
      }),
      { numRuns: 3000 },
    );
  });

  describe('sortByCodePoints', () => {
    // Few units, so strings share prefixes and meet at the units where the orders differ.
    const tricky = fc.string({ unit: fc.constantFrom('a', 'b', '/', '\u00e9', '\uFF21', '\uE000', '\uD83D', '\uDE00', '\uD800', '\uDC00') });

    it('sorts in place as sorting with compareCodePoints does, surrogates or not', () => {
      fc.assert(
        fc.property(fc.array(fc.oneof(tricky, fc.string({ unit: 'grapheme-ascii' }))), (values) => {
          const expected = [...values].sort(compareCodePoints);
          const sorted = sortByCodePoints(values);
          expect(sorted).toBe(values);
          expect(sorted).toEqual(expected);
        }),
        { numRuns: 2000 },
      );
    });

    it('puts a character above U+FFFF after U+FF21 among plain paths', () => {
      expect(sortByCodePoints(['b/😀.md', 'b/\uFF21.md', 'a.md', 'b/z.md'])).toEqual(['a.md', 'b/z.md', 'b/\uFF21.md', 'b/😀.md']);
    });
  });
});
