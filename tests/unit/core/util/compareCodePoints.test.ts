import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../../../src/core/util/compareCodePoints';

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
});
