import { ownedString } from '../util/ownedString';
import { FIELD_COUNT, MAX_FREQUENCY } from './postings';
import { TermDictionary } from './termDictionary';

/** One term's postings in one field: documents ascending, each with its frequency. */
export interface PostingList {
  readonly documents: readonly number[];
  readonly frequencies: readonly number[];
}

interface GrowingList {
  documents: number[];
  frequencies: number[];
}

/**
 * The postings of documents added since the snapshot (a note edited or created), kept until the
 * next save gathers everything into a new snapshot. Documents come with ascending numbers
 * (`DocumentTable` issues them so), so appending keeps each list sorted. A removed document's
 * postings are taken out at once: what is here is always live.
 */
export class AddedPostings {
  /** Term → its list in each field (a hole where the term is not in that field). */
  private readonly lists = new Map<string, (GrowingList | undefined)[]>();
  /** Document → the terms it added, so a removal finds its postings. */
  private readonly termsByDocument = new Map<number, string[]>();
  /** The terms here that the snapshot does not have, sorted; null when they changed since. */
  private newTerms: TermDictionary | null = null;

  constructor(private readonly snapshotTerms: TermDictionary) {}

  /** Whether no document is here. */
  get empty(): boolean {
    return this.termsByDocument.size === 0;
  }

  /** Adds a document's terms in one field (`counts`: term → frequency); a document's fields may come in any order. */
  add(document: number, field: number, counts: ReadonlyMap<string, number>): void {
    let terms = this.termsByDocument.get(document);
    if (terms === undefined) this.termsByDocument.set(document, (terms = []));
    for (const [term, frequency] of counts) {
      let fields = this.lists.get(term);
      if (fields === undefined) {
        this.lists.set(ownedString(term), (fields = new Array<GrowingList | undefined>(FIELD_COUNT)));
        if (this.snapshotTerms.idOf(term) < 0) this.newTerms = null;
      }
      const list = (fields[field] ??= { documents: [], frequencies: [] });
      if (list.documents.length === 0 || list.documents[list.documents.length - 1] !== document) terms.push(term);
      list.documents.push(document);
      list.frequencies.push(Math.min(frequency, MAX_FREQUENCY));
    }
  }

  /** Takes a document's postings out. */
  remove(document: number): void {
    const terms = this.termsByDocument.get(document);
    if (terms === undefined) return;
    this.termsByDocument.delete(document);
    for (const term of new Set(terms)) {
      const fields = this.lists.get(term) as (GrowingList | undefined)[];
      for (const list of fields) if (list !== undefined) removeFrom(list, document);
      if (fields.every((list) => list === undefined || list.documents.length === 0)) {
        this.lists.delete(term);
        if (this.snapshotTerms.idOf(term) < 0) this.newTerms = null;
      }
    }
  }

  /** The term's list in `field`, if it has postings there. */
  list(term: string, field: number): PostingList | undefined {
    const list = this.lists.get(term)?.[field];
    return list === undefined || list.documents.length === 0 ? undefined : list;
  }

  /** The terms here that the snapshot lacks, as a dictionary (for prefix and typo lookups). */
  termsNotInSnapshot(): TermDictionary {
    this.newTerms ??= TermDictionary.of([...this.lists.keys()].filter((term) => this.snapshotTerms.idOf(term) < 0));
    return this.newTerms;
  }
}

/** Removes `document` from a list (documents ascending). */
function removeFrom(list: GrowingList, document: number): void {
  const at = lowerBound(list.documents, document);
  if (list.documents[at] !== document) return;
  list.documents.splice(at, 1);
  list.frequencies.splice(at, 1);
}

/** The first position in `sorted` whose number is not below `value`. */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0, to = sorted.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
