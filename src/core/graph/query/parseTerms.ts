import type { QueryNode, TermKind } from './queryNode';
import { QueryCursor } from './queryTokens';

/** The result of scanning a term's value: the trimmed text, unquoted when it was one quoted string. */
interface ScannedValue {
  text: string;
  quoted: boolean;
  /** Where the value starts (after leading whitespace), for error positions. */
  start: number;
}

/** The quoted strings met while scanning a value: how many, and where the last stood and what it says. */
interface QuotedStrings {
  count: number;
  last: { from: number; to: number; value: string } | null;
}

/** Reads one term after its name: the term's argument and the `)` that closes it. */
export class TermParser extends QueryCursor {
  protected parseTerm(kind: TermKind, open: number): QueryNode {
    switch (kind) {
      case 'property':
        return this.parseProperty(open);
      case 'outgoing-link':
      case 'backlink': {
        const target = this.parseLinkArgument(kind);
        this.closeTerm(kind, open);
        return { kind, target };
      }
      case 'tag': {
        const tag = this.parseTagArgument();
        this.closeTerm(kind, open);
        return { kind, tag };
      }
      case 'path':
      case 'content':
        return this.parseTextTerm(kind, open);
    }
  }

  /** After `path` or `content`: a value that is not empty, then `)`. */
  private parseTextTerm(kind: 'path' | 'content', open: number): QueryNode {
    this.requireSpaceAfter(kind);
    const value = this.parseValue(kind, open);
    if (value.text === '') {
      const expected = kind === 'path' ? 'a path prefix like "Projects/"' : 'the text to find, like "meeting notes"';
      this.failAt(value.start, expected, value.quoted ? 'an empty string' : this.describe(value.start));
    }
    return kind === 'path' ? { kind, prefix: value.text } : { kind, text: value.text };
  }

  /** After `property`: `key`, then `)` or `:: value )`. */
  private parseProperty(open: number): QueryNode {
    this.requireSpaceAfter('property');
    const keyStart = this.pos;
    let key: string;
    if (this.text[this.pos] === '"') {
      key = this.parseQuoted();
    } else {
      while (!this.atEnd() && !/[\s:()"[\]]/.test(this.text[this.pos] ?? '')) this.pos++;
      key = this.text.slice(keyStart, this.pos);
    }
    if (key.trim() === '') this.failAt(keyStart, 'a property key after "property", like (property status:: done)', this.describe(keyStart));
    this.skipSpace();
    if (this.text.startsWith('::', this.pos)) {
      this.pos += 2;
      const value = this.parseValue('property', open);
      if (value.text === '' && !value.quoted) this.failAt(value.start, `a value after "${key}::" (or leave out "::" to match any value)`, this.describe(value.start));
      return { kind: 'property', key, value: value.text };
    }
    if (this.text[this.pos] === ')') {
      this.pos++;
      return { kind: 'property', key, value: null };
    }
    return this.fail(`"::" after the property key "${key}"`);
  }

  /** `[[target(#heading)(|alias)]]`, returning the trimmed target. */
  private parseLinkArgument(kind: TermKind): string {
    this.requireSpaceAfter(kind);
    const start = this.pos;
    if (!this.text.startsWith('[[', start)) this.fail(`a link like [[Page]] after "${kind}"`);
    const end = this.text.indexOf(']]', start + 2);
    if (end < 0) this.failAt(start, '"]]" to close the link that starts here', 'the end of the query');
    const target = (this.text.slice(start + 2, end).split(/[|#]/)[0] ?? '').trim();
    if (target === '') this.failAt(start + 2, 'a page name inside [[...]]', this.describe(start + 2));
    this.pos = end + 2;
    return target;
  }

  /** `#tag` (the `#` optional), returning the tag without its `#`. */
  private parseTagArgument(): string {
    this.requireSpaceAfter('tag');
    const start = this.pos;
    while (!this.atEnd() && !/[\s()"]/.test(this.text[this.pos] ?? '')) this.pos++;
    const word = this.text.slice(start, this.pos);
    const tag = word.startsWith('#') ? word.slice(1) : word;
    if (tag === '') this.failAt(word === '' ? start : start + 1, 'a tag like #project after "tag"', this.describe(word === '' ? start : start + 1));
    return tag;
  }

  /** Whitespace, then the `)` that closes a term whose argument has been read. */
  private closeTerm(kind: TermKind, open: number): void {
    this.skipSpace();
    if (this.text[this.pos] !== ')') this.fail(`")" to close the "${kind}" term that opens at column ${this.columnOf(open)}`);
    this.pos++;
  }

  /** A term name could run on into other text, as in `(tag#x)`; it must end at a space or `)`. */
  private requireSpaceAfter(kind: TermKind): void {
    const before = this.pos;
    this.skipSpace();
    if (this.pos === before && this.text[this.pos] !== ')' && !this.atEnd()) this.fail(`a space after "${kind}"`);
  }

  /**
   * The value of a term, up to and including the `)` that closes the term. Parentheses must
   * balance; `[[...]]` and quoted strings are skipped whole.
   */
  private parseValue(kind: TermKind, open: number): ScannedValue {
    const start = this.pos;
    const quotes = this.scanToTermClose(kind, open);
    const raw = this.text.slice(start, this.pos);
    this.pos++; // the closing `)`
    const leading = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    const valueStart = start + leading;
    const quoted = quotes.last;
    if (quotes.count === 1 && quoted !== null && quoted.from === valueStart && quoted.to === valueStart + trimmed.length) {
      return { text: quoted.value, quoted: true, start: valueStart };
    }
    return { text: trimmed, quoted: false, start: valueStart };
  }

  /** Moves `pos` to the `)` that closes the term, counting the quoted strings on the way. */
  private scanToTermClose(kind: TermKind, open: number): QuotedStrings {
    let depth = 0;
    let opened = false;
    const quotes: QuotedStrings = { count: 0, last: null };
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) {
        const hint = opened ? ' (put the value in quotes if it has an unmatched "(")' : '';
        this.fail(`")" to close the "${kind}" term that opens at column ${this.columnOf(open)}${hint}`);
      }
      if (ch === ')') {
        if (depth === 0) return quotes;
        depth--;
        this.pos++;
      } else if (ch === '(') {
        depth++;
        opened = true;
        this.pos++;
      } else if (ch === '"') {
        const from = this.pos;
        const value = this.parseQuoted();
        quotes.count++;
        quotes.last = { from, to: this.pos, value };
      } else if (this.text.startsWith('[[', this.pos)) {
        const end = this.text.indexOf(']]', this.pos + 2);
        if (end < 0) this.failAt(this.pos, '"]]" to close the link that starts here', 'the end of the query');
        this.pos = end + 2;
      } else {
        this.pos++;
      }
    }
  }
}
