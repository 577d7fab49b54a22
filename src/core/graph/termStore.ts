import { FIELD_COUNT, type PostingsSnapshot } from './postings';

/** Document → frequency of a term in one field, as MiniSearch reads it. */
type FieldPostings = Map<number, number>;
/** Field → postings of one term, as MiniSearch reads it. */
export type TermData = Map<number, FieldPostings>;

/** The part of MiniSearch's `SearchableMap` that holds the postings added since the snapshot. */
export interface AddedTerms {
  get(term: string): TermData | undefined;
  fetch(term: string, initial: () => TermData): TermData;
  set(term: string, data: TermData): unknown;
  delete(term: string): void;
  atPrefix(prefix: string): Iterable<[string, TermData]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [TermData, number]>;
  keys(): Iterable<string>;
  readonly size: number;
}

/**
 * MiniSearch's term index (`_index`), answered from a compact snapshot plus the few terms added
 * since. MiniSearch asks it for a term, the terms with a prefix, and the terms within an edit
 * distance, and reads each answer as `Map`s; those are made here, for the terms a query touches
 * only, from the snapshot's typed arrays. Documents that are no longer live (a note removed or
 * changed since: MiniSearch's `discard`) are left out as they are read, so MiniSearch scores
 * exactly as over a freshly built index, and never tries to clean them up itself.
 */
export class TermStore {
  constructor(
    private readonly base: PostingsSnapshot,
    private readonly added: AddedTerms,
    private readonly isLive: (document: number) => boolean,
  ) {}

  get size(): number {
    let size = this.base.dictionary.size;
    for (const term of this.added.keys()) if (this.base.dictionary.idOf(term) < 0) size += 1;
    return size;
  }

  get(term: string): TermData | undefined {
    const id = this.base.dictionary.idOf(term);
    const added = this.added.get(term);
    return id < 0 && added === undefined ? undefined : this.merged(id, added);
  }

  has(term: string): boolean {
    return (this.get(term)?.size ?? 0) > 0;
  }

  /** Where MiniSearch adds a document's postings: always the added terms (the snapshot is never changed). */
  fetch(term: string, initial: () => TermData): TermData {
    return this.added.fetch(term, initial);
  }

  set(term: string, data: TermData): this {
    this.added.set(term, data);
    return this;
  }

  delete(term: string): void {
    this.added.delete(term);
  }

  atPrefix(prefix: string): [string, TermData][] {
    const added = new Map(this.added.atPrefix(prefix));
    const found: [string, TermData][] = [];
    const [from, to] = this.base.dictionary.prefixRange(prefix);
    for (let id = from; id < to; id += 1) {
      const term = this.base.dictionary.term(id);
      this.keep(found, term, this.merged(id, added.get(term)));
      added.delete(term);
    }
    for (const [term, data] of added) this.keep(found, term, this.merged(-1, data));
    return found;
  }

  fuzzyGet(term: string, maxDistance: number): Map<string, [TermData, number]> {
    const found = new Map<string, [TermData, number]>();
    const added = this.added.fuzzyGet(term, maxDistance);
    for (const [id, distance] of this.base.dictionary.fuzzy(term, maxDistance)) {
      const near = this.base.dictionary.term(id);
      const data = this.merged(id, added.get(near)?.[0]);
      added.delete(near);
      if (data.size > 0) found.set(near, [data, distance]);
    }
    for (const [near, [data, distance]] of added) {
      const merged = this.merged(-1, data);
      if (merged.size > 0) found.set(near, [merged, distance]);
    }
    return found;
  }

  /** Every term of the snapshot and every term added since, in dictionary (code unit) order; some may have no live postings. */
  terms(): string[] {
    const base = this.base.dictionary.list();
    // The default sort compares code units, as the dictionary is ordered.
    const added = [...this.added.keys()].filter((term) => this.base.dictionary.idOf(term) < 0).sort();
    if (added.length === 0) return [...base];
    const all: string[] = [];
    let i = 0;
    for (const term of base) {
      while (i < added.length && (added[i] as string) < term) all.push(added[i++] as string);
      all.push(term);
    }
    while (i < added.length) all.push(added[i++] as string);
    return all;
  }

  /** Every term with live postings, in no particular order. */
  *entries(): Generator<[string, TermData]> {
    const dictionary = this.base.dictionary;
    for (let id = 0; id < dictionary.size; id += 1) {
      const term = dictionary.term(id);
      const data = this.merged(id, this.added.get(term));
      if (data.size > 0) yield [term, data];
    }
    for (const term of this.added.keys()) {
      if (dictionary.idOf(term) >= 0) continue;
      const data = this.merged(-1, this.added.get(term));
      if (data.size > 0) yield [term, data];
    }
  }

  [Symbol.iterator](): Generator<[string, TermData]> {
    return this.entries();
  }

  /** The live postings of snapshot term `id` (none when -1) and of `added`, as MiniSearch reads them. */
  private merged(id: number, added: TermData | undefined): TermData {
    const { starts, documents, frequencies } = this.base;
    const data: TermData = new Map();
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      let postings: FieldPostings | undefined;
      if (id >= 0) {
        const end = starts[id * FIELD_COUNT + field + 1] as number;
        for (let at = starts[id * FIELD_COUNT + field] as number; at < end; at += 1) {
          const document = documents[at] as number;
          if (this.isLive(document)) (postings ??= new Map<number, number>()).set(document, frequencies[at] as number);
        }
      }
      for (const [document, frequency] of added?.get(field) ?? []) if (this.isLive(document)) (postings ??= new Map<number, number>()).set(document, frequency);
      if (postings !== undefined) data.set(field, postings);
    }
    return data;
  }

  private keep(found: [string, TermData][], term: string, data: TermData): void {
    if (data.size > 0) found.push([term, data]);
  }
}
