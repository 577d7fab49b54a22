import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortByCodePoints } from '../../../../src/core/util/compareCodePoints';
import { Slicer } from '../../../../src/core/util/Slicer';
import { sortByCodePointsInSlices, sortInSlices, sortStringsInSlices } from '../../../../src/core/util/sortInSlices';

// Few units, so strings share prefixes; lone and paired surrogates, where UTF-16 order is tested.
const unit = fc.constantFrom('a', 'b', '/', '.', '\u00e9', '\uFF21', '\uE000', '\uD83D', '\uDE00');
// Up to several runs of the engine's sort, so merges of whole and partial runs are exercised.
const strings = fc.array(fc.string({ unit, maxLength: 6 }), { maxLength: 1_500 });

describe('sortStringsInSlices', () => {
  it('sorts as sort() sorts strings, into a new array, leaving the input as it was', async () => {
    await fc.assert(
      fc.asyncProperty(strings, async (values) => {
        const before = [...values];
        const sorted = await sortStringsInSlices(values, new Slicer(1_000));
        expect(sorted).toEqual([...values].sort());
        expect(sorted).not.toBe(values);
        expect(values).toEqual(before);
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('gives the event loop back while it sorts a long list', async () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `Folder ${(i * 7_919) % 97}/Note ${(i * 104_729) % 10_007}.md`);
    const slicer = new Slicer(0);
    const sorted = await sortStringsInSlices(values, slicer);
    expect(sorted).toEqual([...values].sort());
    // 40 runs sorted, then 6 rounds of merging 10,000 values, a pause every 1,024 placed.
    expect(slicer.yields).toBeGreaterThanOrEqual(40 + 50);
  });
  it('sorts a short list without a pause: a commit\'s few paths cost it no turn of the event loop', async () => {
    const slicer = new Slicer(0);
    expect(await sortStringsInSlices(['b.md', 'a.md', 'c/d.md'], slicer)).toEqual(['a.md', 'b.md', 'c/d.md']);
    expect(await sortStringsInSlices(Array.from({ length: 256 }, (_, i) => `${255 - i}`), slicer)).toHaveLength(256);
    expect(slicer.yields).toBe(0);
  });
});

describe('sortInSlices', () => {
  it('sorts by the comparator, keeping equal values in the order they came (as sort() does)', async () => {
    const items = fc.array(fc.record({ key: fc.integer({ min: 0, max: 20 }), id: fc.nat() }), { maxLength: 1_200 });
    await fc.assert(
      fc.asyncProperty(items, async (values) => {
        const byKey = (a: { key: number }, b: { key: number }): number => a.key - b.key;
        expect(await sortInSlices(values, byKey, new Slicer(1_000))).toEqual([...values].sort(byKey));
      }),
      { numRuns: 150, seed: 8 },
    );
  });

  it('pauses between runs as it sorts by a comparator', async () => {
    const values = Array.from({ length: 3_000 }, (_, i) => (i * 7_919) % 3_001);
    const slicer = new Slicer(0);
    expect(await sortInSlices(values, (a, b) => a - b, slicer)).toEqual([...values].sort((a, b) => a - b));
    expect(slicer.yields).toBeGreaterThanOrEqual(12);
  });
});

describe('sortByCodePointsInSlices', () => {
  const codePointUnit = fc.constantFrom('a', 'b', '/', '\u00e9', '\uFF21', '\uE000', '\uD83D', '\uDE00');

  it('sorts as sortByCodePoints does, into a new array, surrogates or not, over several runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: codePointUnit, maxLength: 5 }), { maxLength: 700 }), async (values) => {
        const before = [...values];
        expect(await sortByCodePointsInSlices(values, new Slicer(1_000))).toEqual(sortByCodePoints([...values]));
        expect(values).toEqual(before);
      }),
      { numRuns: 100, seed: 9 },
    );
  });
});
