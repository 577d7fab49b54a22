import MiniSearch, { type AsPlainObject, type Options as MiniSearchOptions, type SearchResult } from 'minisearch';
import type { Slicer } from '../util/Slicer';

/** What the full-text index holds of a note: its title, headings and body, as terms. */
export interface FullTextDocument {
  path: string;
  title: string;
  headings: string;
  body: string;
  /** The body's terms as `encodeTermCounts` gave them, when saved earlier: spares splitting the body again. */
  bodyTerms?: string;
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
};

export interface FullTextQuery {
  fuzzy: number;
  filter: (path: string) => boolean;
}

/**
 * Full-text search over notes with MiniSearch: prefix and typo-tolerant, titles and headings
 * weighted above bodies. A whole vault is indexed in bulk (`build`): terms are counted per note
 * with plain maps and each term enters MiniSearch's term tree once, instead of once per word as
 * `add` does — several times faster than adding notes one by one. Later edits add and remove
 * single notes.
 */
export class FullTextIndex {
  private constructor(private readonly search: MiniSearch<TermDocument>) {}

  static empty(): FullTextIndex {
    return new FullTextIndex(new MiniSearch<TermDocument>(SEARCH_OPTIONS));
  }

  /** Indexes `documents` in one go, pausing through `slicer` so the app stays responsive. */
  static async build(documents: Iterable<FullTextDocument>, slicer: Slicer): Promise<FullTextIndex> {
    const postings = new Map<string, number[]>();
    const documentIds: Record<number, string> = {};
    const fieldLength: Record<number, number[]> = {};
    const lengthSums = FIELDS.map(() => 0);
    let count = 0;
    for (const document of documents) {
      const shortId = count++;
      documentIds[shortId] = document.path;
      const lengths = FIELDS.map((field, fieldId) => {
        const add = (term: string, frequency: number): boolean => {
          const list = postings.get(term);
          if (list === undefined) postings.set(term, [fieldId, shortId, frequency]);
          // A note's terms arrive together, so a repeat shows at the end of the list (only a damaged save repeats one).
          else if (list[list.length - 2] === shortId && list[list.length - 3] === fieldId) return false;
          else list.push(fieldId, shortId, frequency);
          return true;
        };
        if (field === 'body' && document.bodyTerms !== undefined) return forEachTermCount(document.bodyTerms, add);
        const counts = countTerms(termsOf(document[field]));
        counts.forEach((frequency, term) => void add(term, frequency));
        return counts.size;
      });
      fieldLength[shortId] = lengths;
      lengths.forEach((length, fieldId) => (lengthSums[fieldId] = (lengthSums[fieldId] ?? 0) + length));
      await slicer.maybeYield();
    }
    const plain: AsPlainObject = {
      documentCount: count,
      nextId: count,
      documentIds,
      fieldIds: Object.fromEntries(FIELDS.map((field, fieldId) => [field, fieldId])),
      fieldLength,
      averageFieldLength: lengthSums.map((sum) => (count === 0 ? 0 : sum / count)),
      storedFields: {},
      dirtCount: 0,
      index: [],
      serializationVersion: 2,
    };
    const search = MiniSearch.loadJS<TermDocument>(plain, SEARCH_OPTIONS);
    const terms = termTree(search);
    if (terms === null) {
      // Not the MiniSearch this was written for: the public, all-at-once way.
      plain.index = [...entriesOf(postings)];
      return new FullTextIndex(MiniSearch.loadJS<TermDocument>(plain, SEARCH_OPTIONS));
    }
    // `loadJSAsync` would pause with a timer every thousand postings (thousands of pauses, each a
    // millisecond or more); filling the term tree directly pauses only when a slice is used up.
    for (const [term, list] of postings) {
      postings.delete(term);
      const fields = new Map<number, Map<number, number>>();
      for (let at = 0; at < list.length; at += 3) {
        const fieldId = list[at] as number;
        let notes = fields.get(fieldId);
        if (notes === undefined) fields.set(fieldId, (notes = new Map<number, number>()));
        notes.set(list[at + 1] as number, list[at + 2] as number);
      }
      terms.set(term, fields);
      await slicer.maybeYield();
    }
    return new FullTextIndex(search);
  }

  add(document: FullTextDocument): void {
    this.search.add(termDocument(document));
  }

  /** Takes out a note as it was indexed: `document` must be the one given to `add` or `build`. */
  remove(document: FullTextDocument): void {
    if (this.search.has(document.path)) this.search.remove(termDocument(document));
  }

  query(text: string, options: FullTextQuery): SearchResult[] {
    return this.search.search(text, { fuzzy: options.fuzzy, filter: (result) => options.filter(result.id as string) });
  }
}

function termDocument(document: FullTextDocument): TermDocument {
  return { id: document.path, title: termsOf(document.title), headings: termsOf(document.headings), body: termsOf(document.body) };
}

/** The terms of `text` with their counts, as one compact string (`term term:3 …`) for saving. */
export function encodeTermCounts(text: string): string {
  const parts: string[] = [];
  for (const [term, count] of countTerms(termsOf(text))) parts.push(count === 1 ? term : `${term}:${count}`);
  return parts.join(' ');
}

/**
 * Calls `use` with each term of an `encodeTermCounts` string and its count; `use` says whether it
 * took the term (not a repeat). Returns how many it took.
 */
function forEachTermCount(encoded: string, use: (term: string, count: number) => boolean): number {
  if (encoded === '') return 0;
  let taken = 0;
  // Terms never hold spaces or colons: both split words.
  for (const part of encoded.split(' ')) {
    const colon = part.indexOf(':');
    const term = colon < 0 ? part : part.slice(0, colon);
    if (term !== '' && use(term, colon < 0 ? 1 : Math.max(1, Math.trunc(Number(part.slice(colon + 1))) || 1))) taken += 1;
  }
  return taken;
}

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/**
 * MiniSearch's term tree (term → field → document → frequency), which `loadJS` fills from the
 * serialized entries; null if this MiniSearch keeps it differently. A test checks that an index
 * built this way serializes exactly like one built with `add`.
 */
function termTree(search: MiniSearch<TermDocument>): { set(term: string, data: Map<number, Map<number, number>>): unknown } | null {
  const tree = (search as unknown as { _index?: { set?: unknown } })._index;
  return tree !== undefined && typeof tree.set === 'function' ? (tree as { set(term: string, data: Map<number, Map<number, number>>): unknown }) : null;
}

/** The postings as MiniSearch's serialized index entries: `[term, {fieldId: {shortId: frequency}}]`. */
function* entriesOf(postings: Map<string, number[]>): Generator<[string, Record<string, Record<string, number>>]> {
  for (const [term, list] of postings) {
    const entry: Record<string, Record<string, number>> = {};
    for (let at = 0; at < list.length; at += 3) (entry[String(list[at])] ??= {})[String(list[at + 1])] = list[at + 2] as number;
    yield [term, entry];
  }
}
