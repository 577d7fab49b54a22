import { ownedString } from '../util/ownedString';
import type { Slicer } from '../util/Slicer';
import { TermDictionary } from './termDictionary';

/** The fields of a note the full-text index knows, by id: title, headings, body. */
export const FIELD_COUNT = 3;

/** Frequencies are kept in 16 bits: a word more often in one note than this counts as this often. */
const MAX_FREQUENCY = 0xffff;

/**
 * Which documents hold which terms, in typed arrays: 4 bytes a posting (6 past 65,536 documents),
 * where a `Map` entry in a `Map` per term costs ten times that. Grouped by term, then field;
 * documents ascending.
 */
export interface PostingsSnapshot {
  dictionary: TermDictionary;
  /** The postings of term `t` in field `f` are at `starts[t * FIELD_COUNT + f]` up to the next start. */
  starts: Uint32Array;
  /** 16-bit while every document number fits. */
  documents: Uint16Array | Uint32Array;
  frequencies: Uint16Array;
}

export function emptySnapshot(): PostingsSnapshot {
  return { dictionary: TermDictionary.of([]), starts: new Uint32Array(1), documents: new Uint32Array(0), frequencies: new Uint16Array(0) };
}

const CHUNK = 1 << 16;

/** Numbers appended in fixed-size typed chunks (no doubling: a large vault never holds a half-empty copy). */
class ChunkedArray<T extends Uint16Array | Uint32Array> {
  private readonly chunks: T[] = [];
  length = 0;

  constructor(private readonly make: (length: number) => T) {}

  push(value: number): void {
    const at = this.length & (CHUNK - 1);
    if (at === 0) this.chunks.push(this.make(CHUNK));
    (this.chunks[this.chunks.length - 1] as T)[at] = value;
    this.length += 1;
  }

  /** Calls `use` with each chunk and how much of it is filled, letting each chunk go once used. */
  async drain(use: (chunk: T, length: number) => void, slicer: Slicer): Promise<void> {
    for (let i = 0; i < this.chunks.length; i += 1) {
      use(this.chunks[i] as T, Math.min(CHUNK, this.length - i * CHUNK));
      this.chunks[i] = this.make(0);
      await slicer.maybeYield();
    }
    this.chunks.length = 0;
    this.length = 0;
  }

  /** The numbers in one array (and the chunks let go). */
  joined(slicer: Slicer): Promise<T> {
    return this.copyInto(this.make(this.length), slicer);
  }

  /** The numbers copied into `target`, which has room for them (and the chunks let go). */
  async copyInto<J extends Uint16Array | Uint32Array>(target: J, slicer: Slicer): Promise<J> {
    let at = 0;
    await this.drain((chunk, length) => {
      target.set(chunk.subarray(0, length), at);
      at += length;
    }, slicer);
    return target;
  }
}

const uint32 = (length: number): Uint32Array => new Uint32Array(length);
const uint16 = (length: number): Uint16Array => new Uint16Array(length);

/**
 * Collects the postings of documents given one after another (each document's terms together,
 * documents in ascending order) and sorts them into a snapshot. Each posting waits as its term and
 * field (4 bytes) and frequency (2 bytes); its document is known from where each document starts.
 */
export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly keys = new ChunkedArray(uint32);
  private readonly frequencies = new ChunkedArray(uint16);
  /** Document `d`'s postings start at `documentStarts[d]`. */
  private readonly documentStarts: number[] = [];

  add(document: number, field: number, term: string, frequency: number): void {
    if (document < this.documentStarts.length - 1) throw new Error('Documents must be added in ascending order.');
    while (this.documentStarts.length <= document) this.documentStarts.push(this.keys.length);
    let id = this.ids.get(term);
    // The dictionary keeps the term: not a slice of the note it was first seen in.
    if (id === undefined) this.ids.set(ownedString(term), (id = this.ids.size));
    this.keys.push(id * FIELD_COUNT + field);
    this.frequencies.push(Math.min(frequency, MAX_FREQUENCY));
  }

  /** Sorts the postings by term (in dictionary order) and field: a counting sort, which keeps document order. */
  async finish(slicer: Slicer): Promise<PostingsSnapshot> {
    const sorted = await sortedTerms(this.ids.keys(), slicer);
    const rank = new Uint32Array(sorted.length);
    for (let position = 0; position < sorted.length; position += 1) {
      rank[this.ids.get(sorted[position] as string) as number] = position;
      if ((position & 0x3fff) === 0x3fff) await slicer.maybeYield();
    }
    this.ids.clear();
    const dictionary = TermDictionary.ofSorted(sorted) as TermDictionary;
    await slicer.maybeYield();
    const sortKey = (key: number): number => (rank[Math.floor(key / FIELD_COUNT)] as number) * FIELD_COUNT + (key % FIELD_COUNT);
    const count = this.keys.length;
    const keys = await this.keys.joined(slicer);
    const starts = new Uint32Array(dictionary.size * FIELD_COUNT + 1);
    for (let i = 0; i < count; i += 1) {
      const key = (keys[i] = sortKey(keys[i] as number));
      starts[key + 1] = (starts[key + 1] as number) + 1;
      if ((i & 0xffff) === 0xffff) await slicer.maybeYield();
    }
    for (let i = 1; i < starts.length; i += 1) starts[i] = (starts[i] as number) + (starts[i - 1] as number);
    const next = starts.slice(0, starts.length - 1);
    const frequencies = new Uint16Array(count);
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
        frequencies[at] = chunk[i] as number;
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
  private readonly frequencies = new ChunkedArray(uint16);

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
    return { dictionary, starts: Uint32Array.from(this.starts), documents, frequencies: await this.frequencies.joined(slicer) };
  }
}

/** An array for `length` document numbers below `documentCount`: 16-bit when they all fit. */
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
