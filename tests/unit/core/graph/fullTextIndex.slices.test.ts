import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../../../src/core/errors';
import { FullTextIndex, type FullTextDocument } from '../../../../src/core/graph/fullTextIndex';
import { Slicer } from '../../../../src/core/util/Slicer';

const WORDS = ['garden', 'gardens', 'gardening', 'budget', 'budgets', 'review', 'reviewer', 'plan', 'planning', 'café', 'über', 'q3', 'kubernetes', 'notes', 'noted'];

function documents(): FullTextDocument[] {
  return Array.from({ length: 60 }, (_, i) => ({
    path: `F${i % 4}/N${i}.md`,
    title: `${WORDS[i % WORDS.length] as string} ${i}`,
    headings: WORDS[(i * 3) % WORDS.length] as string,
    body: Array.from({ length: 30 }, (_, k) => WORDS[(i * 7 + k * 5) % WORDS.length]).join(' '),
  }));
}

describe('full-text search a query term at a time', () => {
  it('gives exactly what the one-step search gives: the same notes, scores, terms and order', async () => {
    const index = await FullTextIndex.build(documents(), new Slicer());
    // A note changed after the build, so the added postings take part too.
    index.remove('F1/N5.md');
    index.add({ path: 'F1/N5.md', title: 'gardening budget', headings: '', body: 'review the plan, then the budget' });
    const queries = ['garden', 'gardem budgett', 'plan review café q3', 'nothing-here', 'the', 'gardening planning reviewer kubernetes notes', 'über garden garden'];
    for (const fuzzy of [0, 0.2, 0.5]) {
      for (const query of queries) {
        const filter = (path: string): boolean => !path.startsWith('F2/');
        const sliced = await index.queryInSlices(query, { fuzzy, filter }, () => Promise.resolve());
        expect(sliced, `${query} (fuzzy ${fuzzy})`).toEqual(index.query(query, { fuzzy, filter }));
      }
    }
  });

  it('stops when the pause between terms throws, before looking up the next term', async () => {
    const index = await FullTextIndex.build(documents(), new Slicer());
    let pauses = 0;
    const search = index.queryInSlices('garden budget review plan', { fuzzy: 0.2, filter: () => true }, () => {
      pauses++;
      if (pauses === 3) throw new CancelledError('the search');
      return Promise.resolve();
    });
    await expect(search).rejects.toBeInstanceOf(CancelledError);
    expect(pauses).toBe(3);
  });
});
