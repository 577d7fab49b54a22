import type { Slicer } from '../util/Slicer';
import type { AddedPostings } from './addedPostings';
import { FIELD_COUNT, frequencyAt, SortedPostingsWriter, type PostingsSnapshot } from './postings';
import type { TermDictionary } from './termDictionary';

/**
 * The live postings of `snapshot` and `added` as one new snapshot, each document renumbered to
 * `rank[document]` (documents without a rank, -1, are left out): what a save writes once notes
 * changed since the snapshot. Terms go in dictionary order, pausing through `slicer`.
 */
export async function savedPostings(snapshot: PostingsSnapshot, added: AddedPostings, rank: Int32Array, slicer: Slicer): Promise<PostingsSnapshot> {
  const writer = new SortedPostingsWriter();
  const rankOf = (document: number): number => (document < rank.length ? (rank[document] as number) : -1);
  for (const term of allTerms(snapshot.dictionary, added.termsNotInSnapshot())) {
    const id = snapshot.dictionary.idOf(term);
    const fields: [number, number][][] = [];
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const ranked: [number, number][] = [];
      const end = id < 0 ? 0 : (snapshot.starts[id * FIELD_COUNT + field + 1] as number);
      for (let at = id < 0 ? 0 : (snapshot.starts[id * FIELD_COUNT + field] as number); at < end; at += 1) {
        const number = rankOf(snapshot.documents[at] as number);
        if (number >= 0) ranked.push([number, frequencyAt(snapshot.frequencies, at)]);
      }
      const list = added.list(term, field);
      list?.documents.forEach((document, at) => {
        const number = rankOf(document);
        if (number >= 0) ranked.push([number, list.frequencies[at] as number]);
      });
      fields.push(ranked.sort((a, b) => a[0] - b[0]));
    }
    if (fields.some((postings) => postings.length > 0)) writer.addTerm(term, fields);
    await slicer.maybeYield();
  }
  const postings = await writer.finish(slicer);
  if (postings === null) throw new Error('The full-text index listed its terms out of order.');
  return postings;
}

/** The terms of two dictionaries with no term in common, in code-unit order. */
function* allTerms(first: TermDictionary, second: TermDictionary): Generator<string> {
  const a = first.list();
  const b = second.list();
  let j = 0;
  for (const term of a) {
    while (j < b.length && (b[j] as string) < term) yield b[j++] as string;
    yield term;
  }
  while (j < b.length) yield b[j++] as string;
}
