import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FullTextIndex, termsOf, type FullTextDocument } from '../../../../src/core/graph/fullTextIndex';
import { Slicer } from '../../../../src/core/util/Slicer';

const WORDS = ['garden', 'gardens', 'Gärten', 'kubernetes', 'budget', 'review', 'the', 'and', 'naïve', 'café', 'über', '東京', 'x', 'plan', 'planning', 'q3'];
const SEPARATORS = [' ', '\n', ', ', '. ', ' — ', '[[', ']]', '|', '`', '#', '\t', '…', '\u00a0', '/', '_'];

const text = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 40 }).map((parts) => parts.map(([word, separator]) => word + separator).join(''));
const documents = fc.uniqueArray(fc.record({ path: fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `N${i}.md`)), title: text, headings: text, body: text }), {
  selector: (document) => document.path,
  maxLength: 20,
});
const QUERIES = ['garden', 'gard', 'gardem', 'kubernetes budget', 'café', 'gärten', '東京', 'plan', 'q3', 'naive', 'the'];

/** Ids and scores of every query, for comparing two indexes. */
function answers(index: FullTextIndex): [string, number][][] {
  return QUERIES.map((query) => index.query(query, { fuzzy: 0.2, filter: () => true }).map((result) => [result.path, result.score]));
}

function expectSameAnswers(actual: [string, number][][], expected: [string, number][][]): void {
  expect(actual.map((results) => results.map(([id]) => id).sort())).toEqual(expected.map((results) => results.map(([id]) => id).sort()));
  actual.forEach((results, i) => {
    const scores = new Map(expected[i]);
    for (const [id, score] of results) expect(score).toBeCloseTo(scores.get(id) ?? Number.NaN, 9);
  });
}

describe('the full-text index', () => {
  it('splits text into the same terms as a plain Unicode split, lower-cased, without stop words', () => {
    const plain = (value: string): string[] =>
      value
        .toLowerCase()
        .split(/[\n\r\p{Z}\p{P}\p{S}]+/u)
        // Which words are stop words is the index's choice; here only the split is checked.
        .filter((term) => term !== '' && term.length <= 48 && termsOf(term)[0] === term);
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 })), (value) => {
        expect(termsOf(value)).toEqual(plain(value));
      }),
      { numRuns: 500 },
    );
  });

  it('answers exactly as an index built note by note, before and after edits', async () => {
    await fc.assert(
      fc.asyncProperty(documents, fc.array(fc.nat(), { maxLength: 5 }), text, async (docs, removals, replacement) => {
        const bulk = await FullTextIndex.build(docs, new Slicer(5));
        const oneByOne = FullTextIndex.empty();
        for (const document of docs) oneByOne.add(document);
        expectSameAnswers(answers(bulk), answers(oneByOne));

        const current = new Map(docs.map((document) => [document.path, document]));
        for (const pick of removals) {
          const path = docs[pick % Math.max(docs.length, 1)]?.path;
          const document = path === undefined ? undefined : current.get(path);
          if (document === undefined) continue;
          const edited: FullTextDocument = { ...document, body: replacement };
          for (const index of [bulk, oneByOne]) {
            index.remove(document.path);
            index.add(edited);
          }
          current.set(document.path, edited);
        }
        expectSameAnswers(answers(bulk), answers(oneByOne));
        const fresh = await FullTextIndex.build(current.values(), new Slicer(5));
        expectSameAnswers(answers(bulk), answers(fresh));
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('saves and loads, after any edits and in any order of notes, an index that answers as a fresh build', async () => {
    await fc.assert(
      fc.asyncProperty(documents, documents, fc.array(fc.nat(), { maxLength: 6 }), fc.nat(), async (docs, later, removals, rotation) => {
        const index = await FullTextIndex.build(docs, new Slicer(5));
        const current = new Map(docs.map((document) => [document.path, document]));
        for (const pick of removals) {
          const path = docs[pick % Math.max(docs.length, 1)]?.path;
          if (path === undefined || !current.has(path)) continue;
          index.remove(path);
          current.delete(path);
        }
        // Notes changed or added since the build: postings added on top of the snapshot.
        for (const document of later.slice(0, 6)) {
          index.remove(document.path);
          index.add(document);
          current.set(document.path, document);
        }
        const paths = [...current.keys()];
        const order = [...paths.slice(rotation % Math.max(paths.length, 1)), ...paths.slice(0, rotation % Math.max(paths.length, 1))];
        const loaded = await FullTextIndex.load(await index.toSaved(order, new Slicer(5)), new Slicer(5));
        expect(loaded).not.toBeNull();
        const fresh = await FullTextIndex.build(current.values(), new Slicer(5));
        expectSameAnswers(answers(loaded as FullTextIndex), answers(fresh));
        expectSameAnswers(answers(index), answers(fresh));
      }),
      { numRuns: 60, seed: 12 },
    );
  });

  it('finds nothing for stop words and overlong runs, and keeps working when given them', async () => {
    const index = await FullTextIndex.build([{ path: 'A.md', title: 'A', headings: '', body: `the and ${'z'.repeat(60)} garden` }], new Slicer());
    expect(index.query('the', { fuzzy: 0, filter: () => true })).toEqual([]);
    expect(index.query('z'.repeat(60), { fuzzy: 0, filter: () => true })).toEqual([]);
    expect(index.query('garden', { fuzzy: 0, filter: () => true }).map((result) => result.path)).toEqual(['A.md']);
  });
});
