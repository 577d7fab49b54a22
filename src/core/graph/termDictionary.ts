import { compareUnits } from '../util/compareCodePoints';
import type { Slicer } from '../util/Slicer';

/**
 * A fixed set of terms, sorted by UTF-16 code units, each known by its position (its term id).
 * Answers the three questions full-text search asks of its vocabulary — this exact term, the terms
 * starting with a prefix, the terms within an edit distance — from one sorted array: a tenth of
 * the memory of a radix tree of `Map`s, and no objects per term beyond the string itself.
 */
export class TermDictionary {
  private constructor(private readonly terms: readonly string[]) {}

  /** `terms` must be distinct; they are sorted here. */
  static of(terms: Iterable<string>): TermDictionary {
    return new TermDictionary([...terms].sort());
  }

  /** Terms already in `compareUnits` order, as `list` gives them; null when they are not (damaged data). */
  static ofSorted(terms: readonly string[]): TermDictionary | null {
    for (let i = 1; i < terms.length; i += 1) if (compareUnits(terms[i - 1] as string, terms[i] as string) >= 0) return null;
    return new TermDictionary(terms);
  }

  /** `ofSorted`, checking the order in slices: a large vault's vocabulary is a hundred thousand terms and more. */
  static async ofSortedInSlices(terms: readonly string[], slicer: Slicer): Promise<TermDictionary | null> {
    for (let i = 1; i < terms.length; i += 1) {
      if (compareUnits(terms[i - 1] as string, terms[i] as string) >= 0) return null;
      if ((i & 0x3fff) === 0) await slicer.maybeYield();
    }
    return new TermDictionary(terms);
  }

  get size(): number {
    return this.terms.length;
  }

  /** The terms in id order. */
  list(): readonly string[] {
    return this.terms;
  }

  term(id: number): string {
    return this.terms[id] as string;
  }

  /** The term's id, or -1. */
  idOf(term: string): number {
    const at = this.lowerBound(term, 0);
    return this.terms[at] === term ? at : -1;
  }

  /** The ids `[from, to)` of the terms starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix, 0);
    let low = from;
    let high = this.terms.length;
    // The terms with the prefix are contiguous from `from`: find where they end.
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.terms[middle] as string).startsWith(prefix)) low = middle + 1;
      else high = middle;
    }
    return [from, low];
  }

  /**
   * Every term within `maxDistance` edits (insertions, deletions, substitutions) of `query`, with
   * its distance. Walks the sorted terms keeping one row of the edit-distance table per character
   * of the current term, so a term reuses the rows of the prefix it shares with the one before, and
   * a prefix that is already too far skips every term that starts with it.
   */
  fuzzy(query: string, maxDistance: number): Map<number, number> {
    const found = new Map<number, number>();
    const terms = this.terms;
    const width = query.length + 1;
    // rows[d] is the table's row after the first d characters of `previous`; rows 0..valid hold.
    let rows = new Uint32Array(width * 16);
    for (let j = 0; j < width; j += 1) rows[j] = j;
    let previous = '';
    let valid = 0;
    let id = 0;
    while (id < terms.length) {
      const term = terms[id] as string;
      let depth = 0;
      const limit = Math.min(valid, term.length);
      while (depth < limit && previous.charCodeAt(depth) === term.charCodeAt(depth)) depth += 1;
      if ((term.length + 1) * width > rows.length) {
        const grown = new Uint32Array((term.length + 1) * width * 2);
        grown.set(rows);
        rows = grown;
      }
      let hopeless = false;
      for (; depth < term.length; depth += 1) {
        const code = term.charCodeAt(depth);
        const above = depth * width;
        const here = above + width;
        rows[here] = depth + 1;
        let rowMin = depth + 1;
        for (let j = 1; j < width; j += 1) {
          const substitute = (rows[above + j - 1] as number) + (query.charCodeAt(j - 1) === code ? 0 : 1);
          const insert = (rows[here + j - 1] as number) + 1;
          const remove = (rows[above + j] as number) + 1;
          const best = substitute < insert ? (substitute < remove ? substitute : remove) : insert < remove ? insert : remove;
          rows[here + j] = best;
          if (best < rowMin) rowMin = best;
        }
        if (rowMin > maxDistance) {
          hopeless = true;
          break;
        }
      }
      previous = term;
      if (hopeless) {
        // Every term starting with this one's first depth + 1 characters is as far or farther.
        valid = depth;
        id = this.endOfShared(id, depth + 1);
        continue;
      }
      valid = term.length;
      const distance = rows[term.length * width + query.length] as number;
      if (distance <= maxDistance) found.set(id, distance);
      id += 1;
    }
    return found;
  }

  /** The first id after `id` whose term does not share the first `length` characters of term `id`: galloping, as such runs are mostly short. */
  private endOfShared(id: number, length: number): number {
    const terms = this.terms;
    const term = terms[id] as string;
    const shares = (other: number): boolean => {
      const candidate = terms[other] as string;
      if (candidate.length < length) return false;
      for (let k = length - 1; k >= 0; k -= 1) if (candidate.charCodeAt(k) !== term.charCodeAt(k)) return false;
      return true;
    };
    let low = id;
    let step = 1;
    let high = id + 1;
    while (high < terms.length && shares(high)) {
      low = high;
      step *= 2;
      high = Math.min(terms.length, high + step);
    }
    // Terms low..(high - 1) may share; `low` does, `high` does not (or is the end).
    while (high - low > 1) {
      const middle = (low + high) >>> 1;
      if (shares(middle)) low = middle;
      else high = middle;
    }
    return high;
  }

  /** The first index at or after `from` whose term is not below `term`. */
  private lowerBound(term: string, from: number): number {
    let low = from;
    let high = this.terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.terms[middle] as string) < term) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
