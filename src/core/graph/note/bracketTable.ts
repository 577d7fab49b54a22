import { CHAR_CODES } from './characters';

const { BACKSLASH } = CHAR_CODES;

/** Brackets are matched by scanning this far directly before a line's bracket table is built. */
const DIRECT_SCAN_LIMIT = 64;

/**
 * Finds the closer of a `[`/`(` opened just before a position: where the bracket depth first
 * drops below its depth there (backslash escapes skipped). Short spans are scanned directly; past
 * that, a table for the whole line is built once, in linear time, so no input is quadratic.
 */
export class BracketTable {
  private depths: Int32Array | null = null;
  private closers: Int32Array | null = null;
  /** The depth at the end of the last direct scan, relative to its start. */
  private scannedDepth = 0;

  constructor(
    private readonly text: string,
    private readonly open: number,
    private readonly close: number,
  ) {}

  /** The index of the first unmatched closer in `from`…`until` (exclusive), or -1. */
  closer(from: number, until: number = this.text.length): number {
    if (this.closers === null) {
      const direct = this.scan(from, Math.min(until, from + DIRECT_SCAN_LIMIT));
      if (direct !== -1 || until - from <= DIRECT_SCAN_LIMIT) return direct;
    }
    const closer = this.table()[from] ?? -1;
    return closer < until ? closer : -1;
  }

  /** Whether the brackets between `from` and `to` balance (and never close more than they open). */
  balanced(from: number, to: number): boolean {
    if (this.closers === null && to - from <= DIRECT_SCAN_LIMIT) return this.scan(from, to) === -1 && this.scannedDepth === 0;
    return this.closer(from, to) === -1 && this.depths?.[from] === this.depths?.[to];
  }

  private scan(from: number, until: number): number {
    let depth = 0;
    for (let at = from; at < until; at += 1) {
      const c = this.text.charCodeAt(at);
      if (c === BACKSLASH) {
        at += 1;
      } else if (c === this.open) {
        depth += 1;
      } else if (c === this.close) {
        if (depth === 0) return at;
        depth -= 1;
      }
    }
    this.scannedDepth = depth;
    return -1;
  }

  private table(): Int32Array {
    this.build();
    return this.closers ?? new Int32Array(0);
  }

  private build(): void {
    if (this.closers !== null) return;
    const n = this.text.length;
    const depths = new Int32Array(n + 1);
    const isCloser = new Uint8Array(n);
    let depth = 0;
    let lowest = 0;
    let highest = 0;
    for (let at = 0; at < n; at += 1) {
      depths[at] = depth;
      const c = this.text.charCodeAt(at);
      if (c === BACKSLASH && at + 1 < n) {
        depths[at + 1] = depth;
        at += 1;
      } else if (c === this.open) {
        depth += 1;
        if (depth > highest) highest = depth;
      } else if (c === this.close) {
        isCloser[at] = 1;
        depth -= 1;
        if (depth < lowest) lowest = depth;
      }
    }
    depths[n] = depth;
    const closers = new Int32Array(n + 1).fill(-1);
    // nearest[d - lowest]: the nearest closer to the right whose depth before it is d.
    const nearest = new Int32Array(highest - lowest + 1).fill(-1);
    for (let at = n - 1; at >= 0; at -= 1) {
      const here = (depths[at] ?? 0) - lowest;
      if (isCloser[at] === 1) nearest[here] = at;
      closers[at] = nearest[here] ?? -1;
    }
    this.depths = depths;
    this.closers = closers;
  }
}
