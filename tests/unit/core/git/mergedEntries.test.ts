import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptEntries, mergedEntries } from '../../../../src/core/git/commitFiles';
import type { IndexEntry } from '../../../../src/core/git/indexFile';
import { compareCodePoints } from '../../../../src/core/util/compareCodePoints';
import { Slicer } from '../../../../src/core/util/Slicer';

function entry(path: string, stage = 0): IndexEntry {
  return {
    path, stage, oid: '0'.repeat(40), mode: 0o100644, size: 0, ctimeSeconds: 0, ctimeNanoseconds: 0, mtimeSeconds: 0, mtimeNanoseconds: 0, dev: 0, ino: 0, uid: 0, gid: 0,
    assumeValid: false, skipWorktree: false, intentToAdd: false,
  };
}

const gitOrder = (a: IndexEntry, b: IndexEntry): number => compareCodePoints(a.path, b.path) || a.stage - b.stage;
// Paths where UTF-16 order and code-point (UTF-8) order differ, and prefixes of one another.
const PATHS = ['a.md', 'a/b.md', 'a-b.md', 'B.md', 'é.md', '\uFF61.md', '😀.md', 'z/y.md', 'a.md.md'];

describe('mergedEntries', () => {
  it('gives what a full sort of both in git\'s order gives, for an index in that order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.constantFrom(...PATHS)), fc.uniqueArray(fc.constantFrom(...PATHS)), async (indexPaths, addedPaths) => {
        const index = indexPaths.filter((path) => !addedPaths.includes(path)).map((path) => entry(path)).sort(gitOrder);
        const added = addedPaths.map((path) => entry(path));
        const merged = await mergedEntries(index, added);
        expect(merged.map((e) => e.path)).toEqual([...index, ...added].sort(gitOrder).map((e) => e.path));
      }),
      { numRuns: 300, seed: 41 },
    );
  });

  it('puts each added entry in its place in a large index, wherever the search lands', async () => {
    const path = fc.oneof(fc.constantFrom(...PATHS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(path, { maxLength: 200 }), fc.uniqueArray(path, { maxLength: 12 }), async (indexPaths, addedPaths) => {
        const index = indexPaths.filter((p) => !addedPaths.includes(p)).map((p) => entry(p)).sort(gitOrder);
        const added = addedPaths.map((p) => entry(p));
        expect((await mergedEntries(index, added)).map((e) => e.path)).toEqual([...index, ...added].sort(gitOrder).map((e) => e.path));
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('puts added entries given in any order in git\'s order, many at once as a first snapshot adds them', async () => {
    // No surrogates here (UTF-16 order is then code point order); U+E000 and U+FF61 are where
    // UTF-16 order parts from UTF-8's once surrogates are about.
    const path = fc.string({ unit: fc.constantFrom('a', 'B', '/', '-', '.', 'é', '\uE000', '\uFF61', '漢'), minLength: 1, maxLength: 7 });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(path, { maxLength: 40 }), fc.uniqueArray(path, { minLength: 1, maxLength: 300 }), async (indexPaths, addedPaths) => {
        const index = indexPaths.filter((p) => !addedPaths.includes(p)).map((p) => entry(p)).sort(gitOrder);
        const added = addedPaths.map((p) => entry(p));
        expect((await mergedEntries(index, added)).map((e) => e.path)).toEqual([...index, ...added].sort(gitOrder).map((e) => e.path));
      }),
      { numRuns: 200, seed: 44 },
    );
    // A path added twice (two stages) is sorted by stage too.
    expect((await mergedEntries([], [entry('b.md', 3), entry('a.md'), entry('b.md', 1)])).map((e) => `${e.path}:${e.stage}`)).toEqual(['a.md:0', 'b.md:1', 'b.md:3']);
  });

  it('gives the event loop back while it orders a first snapshot\'s entries, surrogates or not', async () => {
    for (const mark of ['', '😀']) {
      const added = Array.from({ length: 6_000 }, (_, i) => entry(`Folder ${(i * 7_919) % 89}/${mark}Note ${(i * 104_729) % 6_007}.md`));
      const slicer = new Slicer(0);
      const merged = await mergedEntries([], added, slicer);
      expect(merged.map((e) => e.path)).toEqual([...added].sort(gitOrder).map((e) => e.path));
      expect(slicer.yields, mark).toBeGreaterThan(6_000 / 512 + 6_000 / 256);
    }
  });

  it('keeps conflict stages of a path together, in stage order, and loses nothing from an index out of order', async () => {
    const index = [entry('a.md', 1), entry('a.md', 2), entry('a.md', 3), entry('c.md')];
    expect((await mergedEntries(index, [entry('b.md'), entry('a-b.md')])).map((e) => `${e.path}:${e.stage}`)).toEqual(['a-b.md:0', 'a.md:1', 'a.md:2', 'a.md:3', 'b.md:0', 'c.md:0']);
    const unordered = [entry('z.md'), entry('a.md')];
    expect((await mergedEntries(unordered, [entry('m.md')])).map((e) => e.path).sort()).toEqual(['a.md', 'm.md', 'z.md']);
  });
});

describe('keptEntries', () => {
  const byFilter = (index: readonly IndexEntry[], replaced: ReadonlyMap<string, unknown>): string[] =>
    index.filter((e) => !replaced.has(e.path)).map((e) => `${e.path}:${e.stage}`);

  it('takes out every stage of each replaced path, found by search in an index in git\'s order', () => {
    const path = fc.oneof(fc.constantFrom(...PATHS), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }));
    fc.assert(
      fc.property(
        fc.uniqueArray(path, { minLength: 200, maxLength: 260 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.uniqueArray(path, { maxLength: 2 }),
        (indexPaths, picks, others) => {
          // Some paths in conflict (stages 1–3), as a merge leaves them.
          const index = indexPaths.flatMap((p, i) => (i % 17 === 0 ? [entry(p, 1), entry(p, 2), entry(p, 3)] : [entry(p)])).sort(gitOrder);
          const replaced = new Map<string, null>([...picks.map((n) => indexPaths[n % indexPaths.length] as string), ...others].map((p) => [p, null]));
          expect(keptEntries(index, replaced, true).map((e) => `${e.path}:${e.stage}`)).toEqual(byFilter(index, replaced));
        },
      ),
      { numRuns: 300, seed: 43 },
    );
  });

  it('filters an index not known to be in order, and loses nothing else from it', () => {
    const unordered = [entry('z.md'), entry('a.md', 2), entry('m.md'), entry('a.md', 1)];
    const replaced = new Map([['a.md', null]]);
    expect(keptEntries(unordered, replaced, false).map((e) => e.path)).toEqual(['z.md', 'm.md']);
  });
});
