const NOT_SPACE_OR_TAB = /[^ \t]/g;

/**
 * `indexOf` for positions that mostly move forward: a search is answered from the previous one
 * for the same needle when it still applies, so repeated failing searches stay linear.
 */
export class Scanner {
  private readonly cache = new Map<string | RegExp, { from: number; result: number }>();

  constructor(private readonly text: string) {}

  next(needle: string | RegExp, from: number): number {
    const hit = this.cache.get(needle);
    if (hit !== undefined && hit.from <= from && (hit.result === -1 || hit.result >= from)) return hit.result;
    let result: number;
    if (typeof needle === 'string') {
      result = this.text.indexOf(needle, from);
    } else {
      needle.lastIndex = from;
      result = needle.exec(this.text)?.index ?? -1;
    }
    this.cache.set(needle, { from, result });
    return result;
  }

  skipSpaces(from: number): number {
    const at = this.next(NOT_SPACE_OR_TAB, from);
    return at === -1 ? this.text.length : at;
  }
}
