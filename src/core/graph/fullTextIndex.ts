import MiniSearch, { type Options as MiniSearchOptions, type SearchResult } from 'minisearch';
import type { Slicer } from '../util/Slicer';
import { emptySnapshot, FIELD_COUNT, PostingsBuilder, SortedPostingsWriter, type PostingsSnapshot } from './postings';
import { TermStore, type AddedTerms } from './termStore';

export type { SearchResult };

/** What the full-text index holds of a note: its title, headings and body, as terms. */
export interface FullTextDocument {
  path: string;
  title: string;
  headings: string;
  body: string;
}

/** A document as MiniSearch receives it: every field already split into terms. */
interface TermDocument {
  id: string;
  title: string[];
  headings: string[];
  body: string[];
}

const FIELDS = ['title', 'headings', 'body'] as const;

/** Words split at spaces, punctuation and symbols: `[[Page|alias]]` and `` `code` `` must yield their words. */
const WORD_BREAK = /[\n\r\p{Z}\p{P}\p{S}]+/u;
/** The ASCII part of `WORD_BREAK` (space, punctuation, symbols): much faster to split by. */
const ASCII_WORD_BREAK = /[\n\r\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+/;
const NON_ASCII = /[\u0080-\uffff]/;

/** Longer "words" are hashes, base64 or URLs run together: nobody searches for them, and they cost memory. */
const MAX_TERM_LENGTH = 48;

/**
 * English function words: in most notes, and too common to rank anything. Leaving them out of the
 * index saves about a fifth of its postings; a query made only of them finds nothing.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have he her hers him his ' +
    'i if in into is it its me my of on or our ours she so than that the their them then there these they this ' +
    'those to us was we were what when where which while who whom why will with would you your'
  ).split(' '),
);

function keepTerm(term: string): boolean {
  return term !== '' && term.length <= MAX_TERM_LENGTH && !STOP_WORDS.has(term);
}

/** The terms of `text`, lower-cased, in order, without stop words. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  // Split at ASCII breaks first; only the few pieces with other characters need the Unicode split.
  for (const piece of text.toLowerCase().split(ASCII_WORD_BREAK)) {
    if (!NON_ASCII.test(piece)) {
      if (keepTerm(piece)) terms.push(piece);
      continue;
    }
    for (const term of piece.split(WORD_BREAK)) if (keepTerm(term)) terms.push(term);
  }
  return terms;
}

const SEARCH_OPTIONS: MiniSearchOptions<TermDocument> = {
  fields: [...FIELDS],
  // Documents arrive as term arrays (split once, by `termsOf`); queries arrive as text.
  extractField: (document, field) => document[field as keyof TermDocument],
  stringifyField: (value: unknown) => value as string,
  tokenize: (value: unknown) => (typeof value === 'string' ? termsOf(value) : (value as string[])),
  processTerm: (term) => (keepTerm(term) ? term : null),
  searchOptions: { boost: { title: 3, headings: 2 }, prefix: true, fuzzy: 0.2 },
  // Removed notes are left out as the postings are read (see `TermStore`): nothing to clean up.
  autoVacuum: false,
};

export interface FullTextQuery {
  fuzzy: number;
  filter: (path: string) => boolean;
}

/** A full-text index as saved: its documents in order, their field lengths, and the postings. */
export interface SavedFullText {
  /** Document `i` of the postings is the note at `paths[i]`. */
  paths: readonly string[];
  /** Each document's number of distinct terms per field, `FIELD_COUNT` numbers per document. */
  fieldLengths: Uint32Array;
  postings: PostingsSnapshot;
}

/** One query term's matches by document, as MiniSearch's `executeQuery` gives them before ranking. */
interface RawResult {
  score: number;
  terms: string[];
  match: SearchResult['match'];
}

/** MiniSearch's own lookup of a query, which `search` ranks and filters. */
interface QueryEngine {
  executeQuery(query: string, options: { fuzzy: number }): Map<number, RawResult>;
}

/**
 * What of MiniSearch's inside this reaches into: its term index and its document tables. They are
 * private, so `package.json` pins MiniSearch to the exact version these tests were run against.
 */
interface MiniSearchInternals {
  _index: AddedTerms;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _nextId: number;
}

/**
 * Full-text search over notes with MiniSearch: prefix and typo-tolerant, titles and headings
 * weighted above bodies. MiniSearch ranks; the postings it reads live in typed arrays
 * (`TermStore`): a vault is indexed in bulk into a compact snapshot, and later edits go through
 * MiniSearch's own `add` and `discard`, on top of it.
 */
export class FullTextIndex {
  private constructor(
    private readonly search: MiniSearch<TermDocument>,
    private readonly internals: MiniSearchInternals,
    private readonly store: TermStore,
    private readonly saved: SavedFullText,
  ) {}

  static empty(): FullTextIndex {
    return FullTextIndex.over(new MiniSearch<TermDocument>(SEARCH_OPTIONS), { paths: [], fieldLengths: new Uint32Array(0), postings: emptySnapshot() });
  }

  /** Indexes `documents` in one go, pausing through `slicer` so the app stays responsive. */
  static async build(documents: Iterable<FullTextDocument>, slicer: Slicer): Promise<FullTextIndex> {
    const builder = new FullTextBuilder();
    for (const document of documents) {
      builder.add(document);
      await slicer.maybeYield();
    }
    return builder.finish(slicer);
  }

  /** The index `toSaved` gave (read back from a file), or null when it does not hold together (a damaged cache). */
  static async load(saved: SavedFullText, slicer: Slicer): Promise<FullTextIndex | null> {
    return (await holdsTogether(saved, slicer)) ? FullTextIndex.of(saved, slicer) : null;
  }

  /**
   * An index over postings known to hold together: built here, not read back from a file (see
   * `load`). MiniSearch's document tables are filled in slices, as a vault's worth of them in one
   * go (`MiniSearch.loadJS`) would hold up the app.
   */
  static async of(saved: SavedFullText, slicer: Slicer): Promise<FullTextIndex> {
    const search = new MiniSearch<TermDocument>(SEARCH_OPTIONS);
    const internals = internalsOf(search);
    const { paths, fieldLengths } = saved;
    const count = paths.length;
    const sums = new Array<number>(FIELD_COUNT).fill(0);
    for (let id = 0; id < count; id += 1) {
      const path = paths[id] as string;
      const lengths = Array.from(fieldLengths.subarray(id * FIELD_COUNT, (id + 1) * FIELD_COUNT));
      internals._documentIds.set(id, path);
      internals._idToShortId.set(path, id);
      internals._fieldLength.set(id, lengths);
      lengths.forEach((length, field) => (sums[field] = (sums[field] as number) + length));
      if ((id & 0x3ff) === 0x3ff) await slicer.maybeYield();
    }
    internals._documentCount = count;
    internals._nextId = count;
    internals._avgFieldLength = sums.map((sum) => (count === 0 ? 0 : sum / count));
    return FullTextIndex.over(search, saved);
  }

  /** `search`, with `saved` (which its document tables match) as its postings. */
  private static over(search: MiniSearch<TermDocument>, saved: SavedFullText): FullTextIndex {
    const internals = internalsOf(search);
    const store = new TermStore(saved.postings, internals._index, (document) => internals._documentIds.has(document));
    (internals as unknown as { _index: TermStore })._index = store;
    return new FullTextIndex(search, internals, store, saved);
  }

  add(document: FullTextDocument): void {
    this.search.add(termDocument(document));
  }

  /** Takes the note out; its postings are skipped from now on (see `TermStore`). */
  remove(path: string): void {
    if (this.search.has(path)) this.search.discard(path);
  }

  query(text: string, options: FullTextQuery): SearchResult[] {
    return this.search.search(text, { fuzzy: options.fuzzy, filter: (result) => options.filter(result.id as string) });
  }

  /**
   * `query`, with the same results, looked up one query term at a time with `pause()` before each
   * (a turn for the event loop; it may throw to stop the search): a long typo-tolerant query over a
   * large vault takes seconds. The terms' results are combined as MiniSearch combines them (`OR`).
   */
  async queryInSlices(text: string, options: FullTextQuery, pause: () => Promise<unknown>): Promise<SearchResult[]> {
    const engine = this.search as unknown as QueryEngine;
    const combined = new Map<number, RawResult>();
    for (const term of termsOf(text)) {
      await pause();
      for (const [id, result] of engine.executeQuery(term, { fuzzy: options.fuzzy })) {
        const existing = combined.get(id);
        if (existing === undefined) {
          combined.set(id, result);
          continue;
        }
        existing.score += result.score;
        existing.match = Object.assign(existing.match, result.match);
        for (const queryTerm of result.terms) if (!existing.terms.includes(queryTerm)) existing.terms.push(queryTerm);
      }
    }
    const results: SearchResult[] = [];
    for (const [id, { score, terms, match }] of combined) {
      const path = this.internals._documentIds.get(id) as string;
      // As MiniSearch ranks: a document matching more of the query's terms is worth more.
      const result: SearchResult = { id: path, score: score * (terms.length || 1), terms: Object.keys(match), queryTerms: terms, match };
      if (options.filter(path)) results.push(result);
    }
    return results.sort((a, b) => b.score - a.score);
  }

  /**
   * The index to save, with its documents in the order of `paths` (which must be exactly the
   * indexed notes, as `has` sees them now). Unchanged since the build or load, that is the
   * snapshot as it is; otherwise the live postings are gathered into a new one.
   */
  async toSaved(paths: readonly string[], slicer: Slicer): Promise<SavedFullText> {
    const { _documentIds: documentIds, _idToShortId: shortIds, _fieldLength: fieldLength } = this.internals;
    const base = this.saved;
    const unchanged = this.internals._nextId === base.paths.length && documentIds.size === base.paths.length && paths.every((path, i) => base.paths[i] === path);
    if (unchanged) return base;
    // Taken now, before any pause: edits during the save change what is live, not this numbering.
    const rank = new Map<number, number>();
    const fieldLengths = new Uint32Array(paths.length * FIELD_COUNT);
    paths.forEach((path, i) => {
      const shortId = shortIds.get(path);
      if (shortId === undefined) throw new Error(`The full-text index does not hold ${path}.`);
      rank.set(shortId, i);
      fieldLengths.set(fieldLength.get(shortId) ?? [], i * FIELD_COUNT);
    });
    const writer = new SortedPostingsWriter();
    for (const term of this.store.terms()) {
      const fields = [...(this.store.get(term) ?? [])].reduce<[number, number][][]>((byField, [field, postings]) => {
        const ranked: [number, number][] = [];
        for (const [shortId, frequency] of postings) {
          const id = rank.get(shortId);
          if (id !== undefined) ranked.push([id, frequency]);
        }
        byField[field] = ranked.sort((a, b) => a[0] - b[0]);
        return byField;
      }, []);
      if (fields.some((postings) => postings.length > 0)) writer.addTerm(term, fields);
      await slicer.maybeYield();
    }
    const postings = await writer.finish(slicer);
    if (postings === null) throw new Error('The full-text index listed its terms out of order.');
    return { paths: [...paths], fieldLengths, postings };
  }

  has(path: string): boolean {
    return this.search.has(path);
  }
}

/**
 * Builds a full-text index from documents given one at a time (`FullTextIndex.build` gives them
 * all at once): so a vault's notes can be indexed as they are read, and their texts let go.
 */
export class FullTextBuilder {
  private readonly postings = new PostingsBuilder();
  private readonly paths: string[] = [];
  private readonly lengths: number[] = [];

  add(document: FullTextDocument): void {
    const id = this.paths.length;
    this.paths.push(document.path);
    FIELDS.forEach((field, fieldId) => {
      const counts = countTerms(termsOf(document[field]));
      counts.forEach((frequency, term) => this.postings.add(id, fieldId, term, frequency));
      this.lengths.push(counts.size);
    });
  }

  async finish(slicer: Slicer): Promise<FullTextIndex> {
    const postings = await this.postings.finish(slicer);
    return FullTextIndex.of({ paths: this.paths, fieldLengths: Uint32Array.from(this.lengths), postings }, slicer);
  }
}

function internalsOf(search: MiniSearch<TermDocument>): MiniSearchInternals {
  const internals = search as unknown as Partial<MiniSearchInternals>;
  const index = internals._index as Partial<AddedTerms> | undefined;
  if (
    typeof index?.fetch !== 'function' ||
    typeof index.fuzzyGet !== 'function' ||
    typeof index.atPrefix !== 'function' ||
    !(internals._documentIds instanceof Map) ||
    !(internals._idToShortId instanceof Map) ||
    !(internals._fieldLength instanceof Map) ||
    !Array.isArray(internals._avgFieldLength) ||
    typeof internals._documentCount !== 'number' ||
    typeof internals._nextId !== 'number' ||
    typeof (search as unknown as Partial<QueryEngine>).executeQuery !== 'function'
  ) {
    throw new Error('This MiniSearch keeps its index differently from the version the full-text index was written for.');
  }
  return internals as MiniSearchInternals;
}

/** Whether saved postings can be trusted to index (sizes agree, every posting names a document). */
async function holdsTogether({ paths, fieldLengths, postings }: SavedFullText, slicer: Slicer): Promise<boolean> {
  const { dictionary, starts, documents, frequencies } = postings;
  if (fieldLengths.length !== paths.length * FIELD_COUNT || new Set(paths).size !== paths.length) return false;
  if (starts.length !== dictionary.size * FIELD_COUNT + 1 || starts[0] !== 0 || starts[starts.length - 1] !== documents.length) return false;
  if (frequencies.length !== documents.length) return false;
  for (let i = 1; i < starts.length; i += 1) {
    if ((starts[i] as number) < (starts[i - 1] as number)) return false;
    if ((i & 0xfffff) === 0) await slicer.maybeYield();
  }
  await slicer.maybeYield();
  for (let at = 0; at < documents.length; at += 1) {
    if ((documents[at] as number) >= paths.length) return false;
    if ((at & 0xfffff) === 0xfffff) await slicer.maybeYield();
  }
  return true;
}

function termDocument(document: FullTextDocument): TermDocument {
  return { id: document.path, title: termsOf(document.title), headings: termsOf(document.headings), body: termsOf(document.body) };
}

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
