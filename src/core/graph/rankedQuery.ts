import { compareCodePoints } from '../util/compareCodePoints';
import { lowerBound, type AddedPostings, type PostingList } from './addedPostings';
import { inverseDocumentFrequency, termFrequencyWeight } from './bm25Plus';
import type { DocumentTable } from './documentTable';
import { FIELD_COUNT, frequencyAt, type PostingsSnapshot } from './postings';
import { termMatches, type TermMatch } from './termMatches';
import { TopRanked } from './topRanked';

/** A note a full-text query found. */
export interface FullTextResult {
  path: string;
  /** Higher is better; rounded to thousandths, so scores summed in another order (a loaded index, say) tie. */
  score: number;
  /** The index terms it matched (the query's words, or the words they begin or are typos of), for snippets. */
  terms: string[];
}

/** What a query reads: the snapshot's postings, the documents, and the postings added since. */
export interface IndexParts {
  snapshot: PostingsSnapshot;
  documents: DocumentTable;
  added: AddedPostings;
}

/** How much a match counts in each field: title, headings, body. */
const FIELD_BOOSTS = [3, 2, 1] as const;

interface Candidate {
  document: number;
  path: string;
  score: number;
}

const ranksAbove = (a: Candidate, b: Candidate): boolean => a.score > b.score || (a.score === b.score && compareCodePoints(a.path, b.path) < 0);

/**
 * One full-text query, scored a query term at a time (`addTerm`) straight from the postings into
 * one number per document: BM25+ (`bm25Plus`) summed over the index terms each query term
 * matches (`termMatches`, weighted) and the fields they are in (boosted), then multiplied by how
 * many of the query's terms the document matched, so matching more of them ranks higher.
 */
export class RankedQuery {
  private readonly scores: Float64Array;
  /** How many of the query's terms each document matched. */
  private readonly matchedTerms: Uint16Array;
  /** The last query term (1, 2, …) that credited each document. */
  private readonly lastTerm: Uint16Array;
  private readonly matches: TermMatch[] = [];
  private termCount = 0;

  constructor(
    private readonly parts: IndexParts,
    private readonly fuzziness: number,
  ) {
    const size = parts.documents.size;
    this.scores = new Float64Array(size);
    this.matchedTerms = new Uint16Array(size);
    this.lastTerm = new Uint16Array(size);
  }

  /** Scores one query term (each distinct term once). */
  addTerm(queryTerm: string): void {
    const { snapshot, added } = this.parts;
    this.termCount = Math.min(this.termCount + 1, 0xffff);
    for (const match of termMatches(queryTerm, this.fuzziness, [snapshot.dictionary, added.termsNotInSnapshot()])) {
      const id = snapshot.dictionary.idOf(match.term);
      for (let field = 0; field < FIELD_COUNT; field += 1) this.scoreField(match, id, field);
      this.matches.push(match);
    }
  }

  /** The best `limit` documents `filter` accepts, best first; equal scores in path order. */
  results(filter: (path: string) => boolean, limit: number): FullTextResult[] {
    const { documents } = this.parts;
    const top = new TopRanked<Candidate>(limit, ranksAbove);
    for (let document = 0; document < this.scores.length; document += 1) {
      const sum = this.scores[document] as number;
      if (sum === 0) continue;
      const candidate = { document, path: documents.pathOf(document), score: Math.round(sum * (this.matchedTerms[document] as number) * 1000) / 1000 };
      if (top.wouldKeep(candidate) && filter(candidate.path)) top.offer(candidate);
    }
    return top.sorted().map(({ document, path, score }) => ({ path, score, terms: this.termsOf(document) }));
  }

  /** Credits every live document holding `match` (snapshot term `id`, -1 for none) in `field`. */
  private scoreField(match: TermMatch, id: number, field: number): void {
    const { snapshot, documents, added } = this.parts;
    const from = id < 0 ? 0 : (snapshot.starts[id * FIELD_COUNT + field] as number);
    const to = id < 0 ? 0 : (snapshot.starts[id * FIELD_COUNT + field + 1] as number);
    const list = added.list(match.term, field);
    const matching = this.liveBetween(from, to) + (list?.documents.length ?? 0);
    if (matching === 0) return;
    const factor = match.weight * (FIELD_BOOSTS[field] as number) * inverseDocumentFrequency(documents.count, matching);
    const average = documents.averageLength(field);
    const whole = documents.snapshotWhole;
    for (let at = from; at < to; at += 1) {
      const document = snapshot.documents[at] as number;
      if (!whole && !documents.isLive(document)) continue;
      this.credit(document, factor * termFrequencyWeight(frequencyAt(snapshot.frequencies, at), documents.fieldLength(document, field), average));
    }
    if (list === undefined) return;
    for (let at = 0; at < list.documents.length; at += 1) {
      const document = list.documents[at] as number;
      this.credit(document, factor * termFrequencyWeight(list.frequencies[at] as number, documents.fieldLength(document, field), average));
    }
  }

  private credit(document: number, amount: number): void {
    this.scores[document] = (this.scores[document] as number) + amount;
    if (this.lastTerm[document] === this.termCount) return;
    this.lastTerm[document] = this.termCount;
    this.matchedTerms[document] = (this.matchedTerms[document] as number) + 1;
  }

  /** The live documents among snapshot postings `[from, to)`. */
  private liveBetween(from: number, to: number): number {
    const { snapshot, documents } = this.parts;
    if (documents.snapshotWhole) return to - from;
    let live = 0;
    for (let at = from; at < to; at += 1) if (documents.isLive(snapshot.documents[at] as number)) live += 1;
    return live;
  }

  /** The matched index terms `document` holds, each once, in the order the query found them. */
  private termsOf(document: number): string[] {
    const terms: string[] = [];
    for (const { term } of this.matches) if (!terms.includes(term) && this.holds(document, term)) terms.push(term);
    return terms;
  }

  private holds(document: number, term: string): boolean {
    const { snapshot, added } = this.parts;
    const id = snapshot.dictionary.idOf(term);
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      if (id >= 0) {
        const to = snapshot.starts[id * FIELD_COUNT + field + 1] as number;
        const at = lowerBound(snapshot.documents, document, snapshot.starts[id * FIELD_COUNT + field], to);
        if (at < to && snapshot.documents[at] === document) return true;
      }
      const list: PostingList | undefined = added.list(term, field);
      if (list !== undefined && list.documents[lowerBound(list.documents, document)] === document) return true;
    }
    return false;
  }
}
