import type { Slicer } from '../util/Slicer';
import { AddedPostings } from './addedPostings';
import { DocumentTable } from './documentTable';
import { countTerms, keepTerm, scanWords, termsOf, type WordSink } from './fullTextTerms';
import { emptySnapshot, FIELD_COUNT, frequencyArray, PostingsBuilder, type PostingsSnapshot } from './postings';
import { RankedQuery, type FullTextResult } from './rankedQuery';
import { savedPostings } from './savedPostings';

export { termsOf } from './fullTextTerms';
export type { FullTextResult } from './rankedQuery';

/** What the full-text index holds of a note: its title, headings and body, as terms. */
export interface FullTextDocument {
  path: string;
  title: string;
  headings: string;
  body: string;
}

const FIELDS = ['title', 'headings', 'body'] as const;

export interface FullTextQuery {
  /** Typo tolerance: the share of a query term's length that may be edits (0 for none). */
  fuzzy: number;
  filter: (path: string) => boolean;
  /** Most results. Default: all. */
  limit?: number;
}

/** A full-text index as saved: its documents in order, their field lengths, and the postings. */
export interface SavedFullText {
  /** Document `i` of the postings is the note at `paths[i]`. */
  paths: readonly string[];
  /** Each document's number of distinct terms per field, `FIELD_COUNT` numbers per document. */
  fieldLengths: Uint32Array;
  postings: PostingsSnapshot;
}

/**
 * Full-text search over notes: prefix and typo-tolerant, ranked by BM25+ with titles and headings
 * weighted above bodies (`RankedQuery`). A vault is indexed in bulk into a compact snapshot
 * (`postings`: typed arrays); later edits go into a small `AddedPostings` on top of it, and a
 * removed or replaced note's snapshot postings are skipped as they are read, so a query scores
 * exactly as over a freshly built index.
 */
export class FullTextIndex {
  private readonly added: AddedPostings;

  private constructor(
    private readonly saved: SavedFullText,
    private readonly documents: DocumentTable,
  ) {
    this.added = new AddedPostings(saved.postings.dictionary);
  }

  static empty(): FullTextIndex {
    return new FullTextIndex({ paths: [], fieldLengths: new Uint32Array(0), postings: emptySnapshot() }, DocumentTable.empty());
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

  /** An index over postings known to hold together: built here, not read back from a file (see `load`). */
  static async of(saved: SavedFullText, slicer: Slicer): Promise<FullTextIndex> {
    return new FullTextIndex(saved, await DocumentTable.of(saved.paths, saved.fieldLengths, slicer));
  }

  /** Indexes a note (in place of the one at its path, if any). */
  add(document: FullTextDocument): void {
    this.remove(document.path);
    const fields = FIELDS.map((field) => countTerms(termsOf(document[field])));
    const number = this.documents.add(
      document.path,
      fields.map((counts) => counts.size),
    );
    fields.forEach((counts, field) => this.added.add(number, field, counts));
  }

  /** Takes the note out: its snapshot postings are skipped from now on, its added ones dropped. */
  remove(path: string): void {
    const number = this.documents.remove(path);
    if (number !== undefined) this.added.remove(number);
  }

  has(path: string): boolean {
    return this.documents.numberOf(path) !== undefined;
  }

  /** The notes matching any of the query's terms, best first (see `RankedQuery`). */
  query(text: string, options: FullTextQuery): FullTextResult[] {
    const query = this.startQuery(options);
    for (const term of new Set(termsOf(text))) query.addTerm(term);
    return query.results(options.filter, options.limit ?? Infinity);
  }

  /**
   * `query`, with the same results, looked up one query term at a time with `pause()` before each
   * (a turn for the event loop; it may throw to stop the search): a long typo-tolerant query over a
   * large vault can take a while.
   */
  async queryInSlices(text: string, options: FullTextQuery, pause: () => Promise<unknown>): Promise<FullTextResult[]> {
    const query = this.startQuery(options);
    for (const term of new Set(termsOf(text))) {
      await pause();
      query.addTerm(term);
    }
    return query.results(options.filter, options.limit ?? Infinity);
  }

  private startQuery(options: FullTextQuery): RankedQuery {
    return new RankedQuery({ snapshot: this.saved.postings, documents: this.documents, added: this.added }, options.fuzzy);
  }

  /**
   * The index to save, with its documents in the order of `paths` (which must be exactly the
   * indexed notes, as `has` sees them now). Unchanged since the build or load, that is the
   * snapshot as it is; otherwise the live postings are gathered into a new one.
   */
  async toSaved(paths: readonly string[], slicer: Slicer): Promise<SavedFullText> {
    const base = this.saved;
    if (this.documents.unchanged && paths.length === base.paths.length && paths.every((path, i) => base.paths[i] === path)) return base;
    // Taken now, before any pause: edits during the save change what is live, not this numbering.
    const documents = this.documents;
    const rank = new Int32Array(documents.size).fill(-1);
    const fieldLengths = new Uint32Array(paths.length * FIELD_COUNT);
    paths.forEach((path, i) => {
      const number = documents.numberOf(path);
      if (number === undefined) throw new Error(`The full-text index does not hold ${path}.`);
      rank[number] = i;
      for (let field = 0; field < FIELD_COUNT; field += 1) fieldLengths[i * FIELD_COUNT + field] = documents.fieldLength(number, field);
    });
    const postings = await savedPostings(base.postings, this.added, rank, slicer);
    return { paths: [...paths], fieldLengths, postings };
  }
}

/**
 * Builds a full-text index from documents given one at a time (`FullTextIndex.build` gives them
 * all at once): so a vault's notes can be indexed as they are read, and their texts let go.
 */
export class FullTextBuilder {
  private readonly postings = new PostingsBuilder(keepTerm);
  private readonly paths: string[] = [];
  private readonly lengths: number[] = [];
  private readonly words: WordSink = {
    asciiWord: (lower, start, end, hash) => this.postings.countWord(lower, start, end, hash),
    word: (word) => this.postings.countWord(word, 0, word.length),
  };

  add(document: FullTextDocument): void {
    const id = this.paths.length;
    this.paths.push(document.path);
    FIELDS.forEach((field, fieldId) => {
      this.postings.startField(id, fieldId);
      scanWords(document[field], this.words);
      this.lengths.push(this.postings.endField());
    });
  }

  async finish(slicer: Slicer): Promise<FullTextIndex> {
    const postings = await this.postings.finish(slicer);
    return FullTextIndex.of({ paths: this.paths, fieldLengths: Uint32Array.from(this.lengths), postings }, slicer);
  }
}

/** Whether saved postings can be trusted to index (sizes agree, every posting names a document). */
async function holdsTogether({ paths, fieldLengths, postings }: SavedFullText, slicer: Slicer): Promise<boolean> {
  const { dictionary, starts, documents, frequencies } = postings;
  if (fieldLengths.length !== paths.length * FIELD_COUNT || new Set(paths).size !== paths.length) return false;
  if (starts.length !== dictionary.size * FIELD_COUNT + 1 || starts[0] !== 0 || starts[starts.length - 1] !== documents.length) return false;
  if (frequencies.length !== frequencyArray(documents.length).length) return false;
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
