import { CHAR_CODES } from './characters';

const { BACKTICK } = CHAR_CODES;

/** The maximal backtick runs of a line by length, for finding a code span's closing run in linear time. */
export class BacktickRuns {
  private byLength: Map<number, { starts: number[]; next: number }> | null = null;

  constructor(private readonly line: string) {}

  /** The start of the first run of exactly `length` backticks at or after `from`, or -1. */
  next(length: number, from: number): number {
    this.byLength ??= this.index();
    const runs = this.byLength.get(length);
    if (runs === undefined) return -1;
    while (runs.next < runs.starts.length && (runs.starts[runs.next] ?? 0) < from) runs.next += 1;
    return runs.starts[runs.next] ?? -1;
  }

  private index(): Map<number, { starts: number[]; next: number }> {
    const byLength = new Map<number, { starts: number[]; next: number }>();
    for (let at = this.line.indexOf('`'); at !== -1; ) {
      let end = at;
      while (this.line.charCodeAt(end) === BACKTICK) end += 1;
      const runs = byLength.get(end - at) ?? { starts: [], next: 0 };
      runs.starts.push(at);
      byLength.set(end - at, runs);
      at = this.line.indexOf('`', end);
    }
    return byLength;
  }
}
