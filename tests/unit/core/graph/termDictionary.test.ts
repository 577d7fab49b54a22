import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermDictionary } from '../../../../src/core/graph/termDictionary';
import { compareUnits } from '../../../../src/core/util/compareCodePoints';
import { Slicer } from '../../../../src/core/util/Slicer';

/**
 * Pieces terms are made of: ASCII with shared prefixes, accented letters, CJK, emoji (surrogate
 * pairs, two of them sharing their high surrogate), a character above the surrogates (where
 * code-unit order and code-point order disagree) and a long run (past the 16 rows `fuzzy` starts with).
 */
const FRAGMENTS = ['a', 'b', 'ab', 'ba', 'plan', 'planning', 'x', 'é', 'e', 'ü', 'u', '東', '京', '東京', '😀', '😁', 'ｱ', 'abcdefghijklmnop'];

const word = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
const termSets = fc.uniqueArray(word, { maxLength: 40 });

/** Edit distance over UTF-16 code units, the plain dynamic-programming way. */
function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitute = (row[j - 1] as number) + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      next.push(Math.min(substitute, (row[j] as number) + 1, (next[j - 1] as number) + 1));
    }
    row = next;
  }
  return row[b.length] as number;
}

/** Code-unit order written out, independent of `compareUnits` and of the `<` operator on strings. */
function unitOrder(a: string, b: string): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i += 1) if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
  return a.length - b.length;
}

/** Queries near the terms: each of a few terms, one code unit shorter, one longer, one changed; and unrelated words. */
function queriesFor(terms: readonly string[], extra: readonly string[]): string[] {
  const queries = ['', ...extra];
  for (const term of terms.slice(0, 6)) {
    const middle = term.length >> 1;
    queries.push(term, term.slice(0, middle) + term.slice(middle + 1), `${term.slice(0, middle)}q${term.slice(middle)}`, `${term.slice(0, middle)}é${term.slice(middle + 1)}`);
  }
  return queries;
}

const sortedEntries = (map: Map<number, number>): [number, number][] => [...map.entries()].sort(([a], [b]) => a - b);

describe('the term dictionary', () => {
  it('finds exactly the terms within the edit distance, each with its distance', () => {
    fc.assert(
      fc.property(termSets, fc.array(word, { maxLength: 3 }), (terms, extra) => {
        const dictionary = TermDictionary.of(terms);
        for (const query of queriesFor(terms, extra)) {
          const distances = dictionary.list().map((term) => levenshtein(query, term));
          for (let maxDistance = 0; maxDistance <= 3; maxDistance += 1) {
            const expected: [number, number][] = [];
            distances.forEach((distance, id) => {
              if (distance <= maxDistance) expected.push([id, distance]);
            });
            expect(sortedEntries(dictionary.fuzzy(query, maxDistance)), `${JSON.stringify(query)} within ${maxDistance}`).toEqual(expected);
          }
        }
      }),
      { numRuns: 250, seed: 7 },
    );
  });

  it('finds far terms that come after a run of hopeless terms sharing a prefix', () => {
    // `fuzzy` skips every term under a prefix already too far; what follows the run must still be seen.
    const terms = ['zzzz', 'zzzza', 'zzzzb', 'zzzzc', 'zzzy', 'gardem', 'garden', 'gardens', 'gardenz', 'zgarden', 'g'];
    const dictionary = TermDictionary.of(terms);
    const found = new Map([...dictionary.fuzzy('garden', 1)].map(([id, distance]) => [dictionary.term(id), distance]));
    expect(found).toEqual(
      new Map([
        ['gardem', 1],
        ['garden', 0],
        ['gardens', 1],
        ['gardenz', 1],
        ['zgarden', 1],
      ]),
    );
  });

  it('measures distance in UTF-16 code units, so an emoji is two edits away from nothing', () => {
    const dictionary = TermDictionary.of(['a😀', 'a😁', 'a', 'aé']);
    const byTerm = (query: string, maxDistance: number): Map<string, number> =>
      new Map([...dictionary.fuzzy(query, maxDistance)].map(([id, distance]) => [dictionary.term(id), distance]));
    expect(byTerm('a', 1)).toEqual(
      new Map([
        ['a', 0],
        ['aé', 1],
      ]),
    );
    expect(byTerm('a', 2)).toEqual(
      new Map([
        ['a', 0],
        ['aé', 1],
        ['a😀', 2],
        ['a😁', 2],
      ]),
    );
    // The two emoji share their high surrogate: one substitution apart.
    expect(byTerm('a😀', 1)).toEqual(
      new Map([
        ['a😀', 0],
        ['a😁', 1],
      ]),
    );
  });

  it('compares long terms and long queries alike', () => {
    const long = 'x'.repeat(120);
    const dictionary = TermDictionary.of([long, `${long}yy`, `y${long.slice(1)}`, 'x']);
    expect(sortedEntries(dictionary.fuzzy(long, 2)).map(([id, distance]) => [dictionary.term(id), distance])).toEqual([
      [long, 0],
      [`${long}yy`, 2],
      [`y${long.slice(1)}`, 1],
    ]);
    expect(sortedEntries(dictionary.fuzzy('', 3)).map(([id]) => dictionary.term(id))).toEqual(['x']);
  });

  it('gives the ranges of terms starting with a prefix, and the id of every term', () => {
    fc.assert(
      fc.property(termSets, fc.array(word, { maxLength: 5 }), (terms, others) => {
        const dictionary = TermDictionary.of(terms);
        const list = dictionary.list();
        expect(dictionary.size).toBe(terms.length);
        expect([...list]).toEqual([...terms].sort(unitOrder));
        for (let i = 1; i < list.length; i += 1) expect(unitOrder(list[i - 1] as string, list[i] as string)).toBeLessThan(0);

        for (const term of terms) {
          const id = dictionary.idOf(term);
          expect(id).toBeGreaterThanOrEqual(0);
          expect(dictionary.term(id)).toBe(term);
        }
        // Every cut of every term, even between the halves of a surrogate pair, and a few unrelated words.
        const prefixes = new Set(['', ...others]);
        for (const term of terms) for (let cut = 0; cut <= term.length; cut += 1) prefixes.add(term.slice(0, cut));
        for (const prefix of prefixes) {
          const below = list.filter((term) => unitOrder(term, prefix) < 0).length;
          const starting = list.filter((term) => term.startsWith(prefix)).length;
          expect(dictionary.prefixRange(prefix), JSON.stringify(prefix)).toEqual([below, below + starting]);
          if (!terms.includes(prefix)) expect(dictionary.idOf(prefix), JSON.stringify(prefix)).toBe(-1);
        }
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('covers every term with the empty prefix and nothing when empty', () => {
    const dictionary = TermDictionary.of(new Set(['b', 'a', 'c']));
    expect(dictionary.prefixRange('')).toEqual([0, 3]);
    expect(dictionary.prefixRange('d')).toEqual([3, 3]);
    expect(dictionary.prefixRange('0')).toEqual([0, 0]);

    const empty = TermDictionary.of([]);
    expect(empty.size).toBe(0);
    expect(empty.list()).toEqual([]);
    expect(empty.prefixRange('')).toEqual([0, 0]);
    expect(empty.idOf('')).toBe(-1);
    expect(empty.idOf('a')).toBe(-1);
    expect(empty.fuzzy('a', 3).size).toBe(0);
  });

  it('orders by code units, not code points', () => {
    // U+FF71 is below U+1F600 as a code point, above its high surrogate U+D83D as a code unit.
    expect(compareUnits('😀', 'ｱ')).toBeLessThan(0);
    expect(compareUnits('ｱ', '😀')).toBeGreaterThan(0);
    expect(TermDictionary.of(['ｱ', '😀', 'z']).list()).toEqual(['z', '😀', 'ｱ']);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }), (a, b) => {
        expect(Math.sign(compareUnits(a, b))).toBe(Math.sign(unitOrder(a, b)));
        expect(compareUnits(a, a)).toBe(0);
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('takes sorted terms as they are and refuses unsorted or repeated ones', () => {
    expect(TermDictionary.ofSorted([])?.size).toBe(0);
    expect(TermDictionary.ofSorted(['a'])?.list()).toEqual(['a']);
    expect(TermDictionary.ofSorted(['a', 'b', 'é', '😀', 'ｱ'])?.list()).toEqual(['a', 'b', 'é', '😀', 'ｱ']);
    expect(TermDictionary.ofSorted(['b', 'a'])).toBeNull();
    expect(TermDictionary.ofSorted(['a', 'a'])).toBeNull();
    expect(TermDictionary.ofSorted(['a', 'b', 'b', 'c'])).toBeNull();
    // In code-point order, which is not code-unit order.
    expect(TermDictionary.ofSorted(['ｱ', '😀'])).toBeNull();

    fc.assert(
      fc.property(termSets, fc.array(fc.nat()), (terms, swaps) => {
        const sorted = [...terms].sort(unitOrder);
        const fromSorted = TermDictionary.ofSorted(sorted);
        expect(fromSorted?.list()).toEqual(sorted);
        sorted.forEach((term, id) => expect(fromSorted?.idOf(term)).toBe(id));

        const shuffled = [...sorted];
        for (const [i, swap] of swaps.entries()) {
          const a = i % Math.max(shuffled.length, 1);
          const b = swap % Math.max(shuffled.length, 1);
          [shuffled[a], shuffled[b]] = [shuffled[b] as string, shuffled[a] as string];
        }
        const stillSorted = shuffled.every((term, i) => i === 0 || unitOrder(shuffled[i - 1] as string, term) < 0);
        expect(TermDictionary.ofSorted(shuffled) === null).toBe(!stillSorted);
        if (sorted.length > 0) expect(TermDictionary.ofSorted([...sorted, sorted[sorted.length - 1] as string])).toBeNull();
      }),
      { numRuns: 300, seed: 9 },
    );
  });

  it('checks the order the same way in slices', async () => {
    await fc.assert(
      fc.asyncProperty(termSets, fc.array(fc.nat()), async (terms, swaps) => {
        const listed = [...terms].sort(unitOrder);
        for (const [i, swap] of swaps.entries()) {
          const a = i % Math.max(listed.length, 1);
          const b = swap % Math.max(listed.length, 1);
          [listed[a], listed[b]] = [listed[b] as string, listed[a] as string];
        }
        const inSlices = await TermDictionary.ofSortedInSlices(listed, new Slicer(0));
        expect(inSlices?.list() ?? null).toEqual(TermDictionary.ofSorted(listed)?.list() ?? null);
      }),
      { numRuns: 200, seed: 10 },
    );
  });
});
