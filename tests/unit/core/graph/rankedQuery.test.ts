import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FullTextIndex, type FullTextDocument, type FullTextQuery } from '../../../../src/core/graph/fullTextIndex';
import { Slicer } from '../../../../src/core/util/Slicer';

const ALL: FullTextQuery = { fuzzy: 0.2, filter: () => true };

/** A note with one word in each field (so every field is one term long, and only `word`'s field matters). */
function note(path: string, fields: Partial<Omit<FullTextDocument, 'path'>>): FullTextDocument {
  return { path, title: fields.title ?? `t${path.charCodeAt(0)}`, headings: fields.headings ?? `h${path.charCodeAt(0)}`, body: fields.body ?? `b${path.charCodeAt(0)}` };
}

const build = (documents: FullTextDocument[]): Promise<FullTextIndex> => FullTextIndex.build(documents, new Slicer());
const paths = (index: FullTextIndex, text: string, options: FullTextQuery = ALL): string[] => index.query(text, options).map((result) => result.path);

describe('the full-text ranking', () => {
  it('scores a match by BM25+: idf times the saturated term frequency plus its lower bound', async () => {
    const index = await build([note('A', { body: 'garden garden' }), note('B', { body: 'budget' })]);
    // Two documents, one holds the term: idf = ln(1 + 1.5 / 1.5). Body length 1, average 1:
    // tf weight = 2 × 2.2 / (2 + 1.2) + 1.
    const expected = Math.log(2) * ((2 * 2.2) / (2 + 1.2) + 1);
    const [result] = index.query('garden', { ...ALL, fuzzy: 0 });
    expect(result?.path).toBe('A');
    expect(result?.score).toBeCloseTo(expected, 3);
  });

  it('boosts a match in the title three times, in headings twice, over one in the body', async () => {
    const index = await build([note('T', { title: 'garden' }), note('H', { headings: 'garden' }), note('B', { body: 'garden' })]);
    const results = index.query('garden', { ...ALL, fuzzy: 0 });
    expect(results.map((result) => result.path)).toEqual(['T', 'H', 'B']);
    const score = new Map(results.map((result) => [result.path, result.score]));
    expect((score.get('T') as number) / (score.get('B') as number)).toBeCloseTo(3, 2);
    expect((score.get('H') as number) / (score.get('B') as number)).toBeCloseTo(2, 2);
  });

  it('ranks the exact word above words it begins and above typos of it', async () => {
    const index = await build([note('prefix', { body: 'gardening' }), note('typo', { body: 'garten' }), note('exact', { body: 'garden' })]);
    const results = index.query('garden', ALL);
    expect(results[0]?.path).toBe('exact');
    expect(results.map((result) => result.path).sort()).toEqual(['exact', 'prefix', 'typo']);
    for (const other of results.slice(1)) expect(other.score).toBeLessThan((results[0] as { score: number }).score);
    expect(index.query('garden', { ...ALL, fuzzy: 0 }).map((result) => result.path).sort()).toEqual(['exact', 'prefix']);
  });

  it('gives the index terms each result matched, for its snippet', async () => {
    const index = await build([note('A', { body: 'garden budget' })]);
    expect(index.query('gardem budg', ALL)[0]?.terms).toEqual(['garden', 'budget']);
  });

  it('ranks a note matching more of the query terms higher', async () => {
    const index = await build([note('one', { body: 'garden garden garden' }), note('both', { body: 'garden budget' }), note('other', { body: 'review' })]);
    expect(paths(index, 'garden budget')).toEqual(['both', 'one']);
  });

  it('never returns a removed note, whether it was in the snapshot or added since', async () => {
    const index = await build([note('A', { body: 'garden' }), note('B', { body: 'garden' })]);
    index.add(note('C', { body: 'garden' }));
    index.remove('A');
    index.remove('C');
    for (const query of ['garden', 'gard', 'gardem']) expect(paths(index, query)).toEqual(['B']);
    index.add(note('B', { body: 'budget' }));
    expect(paths(index, 'garden')).toEqual([]);
    expect(index.has('A')).toBe(false);
    expect(index.has('B')).toBe(true);
  });

  it('finds notes added after the snapshot, by the word, a prefix and a typo', async () => {
    const index = await build([note('A', { body: 'garden' })]);
    index.add(note('K', { body: 'kubernetes' }));
    for (const query of ['kubernetes', 'kube', 'kubernets']) expect(paths(index, query)).toEqual(['K']);
  });

  it('scores after edits, and after a save and load, exactly as a fresh build of the same notes', async () => {
    const notes = [note('A', { title: 'garden plan', body: 'garden budget review' }), note('B', { body: 'budget budget plan' }), note('C', { headings: 'review', body: 'gardening' })];
    const index = await build(notes);
    const edited = note('B', { body: 'garden plans' });
    index.add(edited);
    index.add(note('D', { title: 'budget', body: 'garten' }));
    index.remove('C');
    const current = [notes[0] as FullTextDocument, edited, note('D', { title: 'budget', body: 'garten' })];
    const fresh = await build(current);
    const loaded = await FullTextIndex.load(await index.toSaved(['D', 'A', 'B'], new Slicer()), new Slicer());
    expect(loaded).not.toBeNull();
    for (const query of ['garden', 'plan', 'budget review', 'gard', 'gardem plam']) {
      const expected = fresh.query(query, ALL);
      expect(expected.length).toBeGreaterThan(0);
      expect(index.query(query, ALL), query).toEqual(expected);
      expect((loaded as FullTextIndex).query(query, ALL), query).toEqual(expected);
    }
  });

  it('gives the first `limit` of the full ranking, equal scores in path order', async () => {
    const words = ['garden', 'gardens', 'budget', 'plan', 'review'];
    const corpus = fc.uniqueArray(
      fc.record({ path: fc.constantFrom(...Array.from({ length: 40 }, (_, i) => `N${i}.md`)), body: fc.array(fc.constantFrom(...words), { maxLength: 6 }).map((parts) => parts.join(' ')) }),
      { selector: (document) => document.path, maxLength: 30 },
    );
    await fc.assert(
      fc.asyncProperty(corpus, fc.integer({ min: 1, max: 12 }), async (documents, limit) => {
        const index = await build(documents.map(({ path, body }) => ({ path, title: 'x', headings: '', body })));
        const filter = (path: string): boolean => !path.endsWith('3.md');
        const all = index.query('garden plan', { ...ALL, filter });
        for (let i = 1; i < all.length; i += 1) {
          const [before, after] = [all[i - 1], all[i]] as [{ score: number; path: string }, { score: number; path: string }];
          expect(before.score > after.score || (before.score === after.score && before.path < after.path)).toBe(true);
        }
        expect(index.query('garden plan', { ...ALL, filter, limit })).toEqual(all.slice(0, limit));
        expect(all.every((result) => filter(result.path))).toBe(true);
      }),
      { numRuns: 100, seed: 7 },
    );
  });
});
