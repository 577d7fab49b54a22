import { ownedString } from '../util/ownedString';
import type { Slicer } from '../util/Slicer';
import { TermDictionary } from './termDictionary';
import { TermTable, UNSEEN } from './termTable';

/** A word `keep` said is no term. */
const REFUSED = -2;

/** The fields of a note the full-text index knows, by id: title, headings, body. */
export const FIELD_COUNT = 3;

/**
 * Frequencies are kept in 4 bits, two to a byte: a word more often in one field of a note than this
 * counts as this often. BM25's weight of a frequency is all but flat by then (15 weighs 7% less
 * than 255 would), only 20 of the 14 million postings of 50,000 notes are above it, and the half
 * byte a posting saves is 7 MB there.
 */
export const MAX_FREQUENCY = 0xf;

/** The frequency of posting `at`, from a snapshot's `frequencies`. */
export function frequencyAt(frequencies: Uint8Array, at: number): number {
  return ((frequencies[at >>> 1] as number) >>> ((at & 1) << 2)) & 0xf;
}

/** Room for `count` frequencies, 4 bits each (see `frequencyAt`). */
export function frequencyArray(count: number): Uint8Array {
  return new Uint8Array((count + 1) >>> 1);
}

/** Sets frequency `at` (clamped to `MAX_FREQUENCY`) in an array from `frequencyArray`; each once. */
function setFrequency(frequencies: Uint8Array, at: number, frequency: number): void {
  frequencies[at >>> 1] = (frequencies[at >>> 1] as number) | (Math.min(frequency, MAX_FREQUENCY) << ((at & 1) << 2));
}

/**
 * Which documents hold which terms, in typed arrays: 2.5 bytes a posting (4.5 past 65,536
 * documents), where a `Map` entry in a `Map` per term costs ten times that. Grouped by term, then
 * field; documents ascending.
 */
export interface PostingsSnapshot {
  dictionary: TermDictionary;
  /** The postings of term `t` in field `f` are at `starts[t * FIELD_COUNT + f]` up to the next start. */
  starts: Uint32Array;
  /** 16-bit while every document number fits. */
  documents: Uint16Array | Uint32Array;
  /** Posting `i`'s frequency is `frequencyAt(frequencies, i)`. */
  frequencies: Uint8Array;
}

export function emptySnapshot(): PostingsSnapshot {
  return { dictionary: TermDictionary.of([]), starts: new Uint32Array(1), documents: new Uint32Array(0), frequencies: new Uint8Array(0) };
}

const CHUNK = 1 << 16;
/**
 * Numbers used between two looks at the slicer. Placing a chunk's postings writes all over arrays
 * of megabytes, and a whole chunk held a phone's main thread for 40 ms at 10,000 notes.
 */
const PIECE = 1 << 14;

/** Numbers appended in fixed-size typed chunks (no doubling: a large vault never holds a half-empty copy). */
class ChunkedArray<T extends Uint8Array | Uint16Array | Uint32Array> {
  private readonly chunks: T[] = [];
  length = 0;

  constructor(private readonly make: (length: number) => T) {}

  push(value: number): void {
    const at = this.length & (CHUNK - 1);
    if (at === 0) this.chunks.push(this.make(CHUNK));
    (this.chunks[this.chunks.length - 1] as T)[at] = value;
    this.length += 1;
  }

  /**
   * Calls `use` with the numbers in order, a piece at a time (a view, and its length), letting each
   * chunk go once used.
   */
  async drain(use: (piece: T, length: number) => void, slicer: Slicer): Promise<void> {
    for (let i = 0; i < this.chunks.length; i += 1) {
      const chunk = this.chunks[i] as T;
      const filled = Math.min(CHUNK, this.length - i * CHUNK);
      for (let from = 0; from < filled; from += PIECE) {
        const to = Math.min(filled, from + PIECE);
        use(chunk.subarray(from, to) as T, to - from);
        await slicer.maybeYield();
      }
      this.chunks[i] = this.make(0);
    }
    this.chunks.length = 0;
    this.length = 0;
  }

  /** The numbers in one array (and the chunks let go). */
  joined(slicer: Slicer): Promise<T> {
    return this.copyInto(this.make(this.length), slicer);
  }

  /** The numbers copied into `target`, which has room for them (and the chunks let go). */
  async copyInto<J extends Uint8Array | Uint16Array | Uint32Array>(target: J, slicer: Slicer): Promise<J> {
    let at = 0;
    await this.drain((chunk, length) => {
      target.set(chunk.subarray(0, length), at);
      at += length;
    }, slicer);
    return target;
  }
}

const uint32 = (length: number): Uint32Array => new Uint32Array(length);
const uint8 = (length: number): Uint8Array => new Uint8Array(length);

/**
 * Collects the postings of documents given one after another (each document's terms together,
 * documents in ascending order) and sorts them into a snapshot. Each posting waits as its term and
 * field (4 bytes) and frequency (2 bytes); its document is known from where each document starts.
 */
export class PostingsBuilder {
  /** Each word's term number; words `keep` refused are there too, as `REFUSED`, so they are judged once. */
  private readonly terms = new TermTable();
  private termCount = 0;
  private readonly keys = new ChunkedArray(uint32);
  private readonly frequencies = new ChunkedArray(uint8);
  private readonly documentStarts: number[] = [];
  /** The field being counted (`startField`): each term's count in it, and which terms it has. */
  private field = 0;
  private counts = new Uint32Array(1024);
  private readonly touched: number[] = [];

  /** @param keep which words are terms (the rest are never indexed); all of them by default. */
  constructor(private readonly keep: (word: string) => boolean = () => true) {}

  /** Adds one posting: `term` is in `field` of `document` `frequency` times. Documents come in ascending order. */
  add(document: number, field: number, term: string, frequency: number): void {
    this.startDocument(document);
    const id = this.termOf(term, 0, term.length);
    if (id !== REFUSED) this.push(id, field, frequency);
  }

  /**
   * Starts counting the words of one field of a document (`countWord`, then `endField`): one
   * look-up per word, no string made for a word seen before, and no map per document — the bulk
   * path of a vault's build.
   */
  startField(document: number, field: number): void {
    this.startDocument(document);
    this.field = field;
  }

  /** Counts the word `source` holds from `start` to `end` (whose `wordHash` is `hash`, if known) in the field started. */
  countWord(source: string, start: number, end: number, hash?: number): void {
    const id = this.termOf(source, start, end, hash);
    if (id === REFUSED) return;
    if (id >= this.counts.length) this.counts = grown(this.counts, id + 1);
    if ((this.counts[id] = (this.counts[id] as number) + 1) === 1) this.touched.push(id);
  }

  /** Adds the field's postings; gives its number of distinct terms. */
  endField(): number {
    const touched = this.touched;
    for (const id of touched) {
      this.push(id, this.field, this.counts[id] as number);
      this.counts[id] = 0;
    }
    const distinct = touched.length;
    touched.length = 0;
    return distinct;
  }

  private startDocument(document: number): void {
    if (document < this.documentStarts.length - 1) throw new Error('Documents must be added in ascending order.');
    while (this.documentStarts.length <= document) this.documentStarts.push(this.keys.length);
  }

  /** The term number of a word, given on first sight (or `REFUSED`). */
  private termOf(source: string, start: number, end: number, hash?: number): number {
    const known = this.terms.numberOf(source, start, end, hash);
    if (known !== UNSEEN) return known;
    // The dictionary keeps the term: not a slice of the note it was first seen in.
    const word = ownedString(source.slice(start, end));
    const id = this.keep(word) ? this.termCount++ : REFUSED;
    this.terms.set(word, id);
    return id;
  }

  private push(id: number, field: number, frequency: number): void {
    this.keys.push(id * FIELD_COUNT + field);
    this.frequencies.push(Math.min(frequency, MAX_FREQUENCY));
  }

  async finish(slicer: Slicer): Promise<PostingsSnapshot> {
    const sorted = await sortedTerms(keptTermsOf(this.terms), slicer);
    const rank = new Uint32Array(sorted.length);
    for (let position = 0; position < sorted.length; position += 1) {
      const term = sorted[position] as string;
      rank[this.terms.numberOf(term, 0, term.length)] = position;
      if ((position & 0x3fff) === 0x3fff) await slicer.maybeYield();
    }
    const dictionary = TermDictionary.ofSorted(sorted) as TermDictionary;
    await slicer.maybeYield();
    const sortKey = (key: number): number => (rank[Math.floor(key / FIELD_COUNT)] as number) * FIELD_COUNT + (key % FIELD_COUNT);
    const count = this.keys.length;
    const keys = await this.keys.joined(slicer);
    const starts = new Uint32Array(dictionary.size * FIELD_COUNT + 1);
    for (let i = 0; i < count; i += 1) {
      const key = (keys[i] = sortKey(keys[i] as number));
      starts[key + 1] = (starts[key + 1] as number) + 1;
      if ((i & (PIECE - 1)) === PIECE - 1) await slicer.maybeYield();
    }
    for (let i = 1; i < starts.length; i += 1) starts[i] = (starts[i] as number) + (starts[i - 1] as number);
    const next = starts.slice(0, starts.length - 1);
    const frequencies = frequencyArray(count);
    const documentStarts = this.documentStarts;
    documentStarts.push(count);
    const documents = documentArray(count, documentStarts.length - 1);
    let document = 0;
    let posting = 0;
    await this.frequencies.drain((chunk, length) => {
      for (let i = 0; i < length; i += 1, posting += 1) {
        while ((documentStarts[document + 1] as number) <= posting) document += 1;
        const key = keys[posting] as number;
        const at = next[key] as number;
        next[key] = at + 1;
        documents[at] = document;
        setFrequency(frequencies, at, chunk[i] as number);
      }
    }, slicer);
    documentStarts.length = 0;
    return { dictionary, starts, documents, frequencies };
  }
}

/** Writes a snapshot's postings in their final order: terms in dictionary order, then fields, documents ascending. */
export class SortedPostingsWriter {
  private readonly terms: string[] = [];
  private readonly starts: number[] = [0];
  private readonly documents = new ChunkedArray(uint32);
  private documentCount = 0;
  private readonly frequencies = new ChunkedArray(uint8);

  /** `fields[f]` holds the term's postings in field `f` as [document, frequency], documents ascending. */
  addTerm(term: string, fields: readonly (readonly (readonly [number, number])[])[]): void {
    this.terms.push(term);
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      for (const [document, frequency] of fields[field] ?? []) {
        this.documents.push(document);
        if (document >= this.documentCount) this.documentCount = document + 1;
        this.frequencies.push(Math.min(frequency, MAX_FREQUENCY));
      }
      this.starts.push(this.documents.length);
    }
  }

  async finish(slicer: Slicer): Promise<PostingsSnapshot | null> {
    const dictionary = TermDictionary.ofSorted(this.terms);
    if (dictionary === null) return null;
    const documents = await this.documents.copyInto(documentArray(this.documents.length, this.documentCount), slicer);
    const frequencies = frequencyArray(this.frequencies.length);
    let at = 0;
    await this.frequencies.drain((chunk, length) => {
      for (let i = 0; i < length; i += 1) setFrequency(frequencies, at++, chunk[i] as number);
    }, slicer);
    return { dictionary, starts: Uint32Array.from(this.starts), documents, frequencies };
  }
}

/** An array for `length` document numbers below `documentCount`: 16-bit when they all fit. */
function* keptTermsOf(table: TermTable): Generator<string> {
  for (const [word, id] of table.entries()) if (id !== REFUSED) yield word;
}

function grown(array: Uint32Array, atLeast: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(Math.max(atLeast, array.length * 2));
  bigger.set(array);
  return bigger;
}

function documentArray(length: number, documentCount: number): Uint16Array | Uint32Array {
  return documentCount <= 0x10000 ? new Uint16Array(length) : new Uint32Array(length);
}

/**
 * `terms` (none empty) in UTF-16 code-unit order, sorted a first character at a time with pauses
 * between: a large vault's vocabulary sorted in one go would hold up the app. Each group goes
 * through the default sort, which compares code units, natively.
 */
async function sortedTerms(terms: Iterable<string>, slicer: Slicer): Promise<string[]> {
  const byFirst = new Map<number, string[]>();
  for (const term of terms) {
    const first = term.charCodeAt(0);
    const group = byFirst.get(first);
    if (group === undefined) byFirst.set(first, [term]);
    else group.push(term);
  }
  const sorted: string[] = [];
  for (const first of [...byFirst.keys()].sort((a, b) => a - b)) {
    for (const term of (byFirst.get(first) as string[]).sort()) sorted.push(term);
    await slicer.maybeYield();
  }
  return sorted;
}
