import { InvalidArgumentError } from '../../errors';
import { TERM_KINDS, type TermKind } from './queryNode';

/**
 * The query text under a read position: whitespace, keywords, term names and quoted strings at
 * `pos`, and the positioned errors the parser throws. The parser extends it.
 */
export class QueryCursor {
  protected pos = 0;

  constructor(protected readonly text: string) {}

  /** A `"..."` string at `pos`, unescaped; leaves `pos` after the closing quote. */
  protected parseQuoted(): string {
    const start = this.pos;
    this.pos++;
    let value = '';
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.failAt(start, 'a closing quote (") for the string that starts here', 'the end of the query');
      if (ch === '"') {
        this.pos++;
        return value;
      }
      const next = this.text[this.pos + 1];
      if (ch === '\\' && (next === '"' || next === '\\')) {
        value += next;
        this.pos += 2;
      } else {
        value += ch;
        this.pos++;
      }
    }
  }

  /** The term name at `pos` when one is there, followed by a space, `)` or the end. */
  protected peekTermKind(): TermKind | null {
    const word = /^[A-Za-z-]+/.exec(this.text.slice(this.pos, this.pos + 16))?.[0];
    if (word === undefined) return null;
    const lower = word.toLowerCase();
    const kind = TERM_KINDS.find((name) => name === lower);
    return kind !== undefined && this.isBoundary(this.pos + word.length) ? kind : null;
  }

  /** Whether `keyword` (any case) is at `pos`, as a whole word. */
  protected peekKeyword(keyword: 'AND' | 'OR' | 'NOT'): boolean {
    return this.text.slice(this.pos, this.pos + keyword.length).toUpperCase() === keyword && this.isBoundary(this.pos + keyword.length);
  }

  protected acceptKeyword(keyword: 'AND' | 'OR'): boolean {
    this.skipSpace();
    if (!this.peekKeyword(keyword)) return false;
    this.pos += keyword.length;
    return true;
  }

  /** A word ends at whitespace, a parenthesis or the end of the query. */
  private isBoundary(index: number): boolean {
    const ch = this.text[index];
    return ch === undefined || ch === '(' || ch === ')' || /\s/.test(ch);
  }

  protected skipSpace(): void {
    while (!this.atEnd() && /\s/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  protected atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  protected fail(expected: string): never {
    return this.failAt(this.pos, expected, this.describe(this.pos));
  }

  protected failAt(index: number, expected: string, found: string): never {
    const column = this.columnOf(index);
    const error = new InvalidArgumentError('query', expected, found);
    error.data.column = column;
    // The constructor's wording ("Argument … must be …") reads badly for syntax; say where instead.
    error.message = `Query error at column ${column}: expected ${expected}, found ${found}`;
    throw error;
  }

  /** What is at `index`, for "found …": the end, a parenthesis, or the next word (shortened). */
  protected describe(index: number): string {
    if (index >= this.text.length) return 'the end of the query';
    const ch = this.text[index] ?? '';
    if (ch === '(' || ch === ')') return `"${ch}"`;
    const word = /^[^\s()]+/.exec(this.text.slice(index, index + 200))?.[0] ?? ch;
    const points = [...word];
    return `"${points.length > 24 ? `${points.slice(0, 24).join('')}…` : word}"`;
  }

  /** 1-based column of a UTF-16 index, counted in code points. */
  protected columnOf(index: number): number {
    return [...this.text.slice(0, index)].length + 1;
  }
}
