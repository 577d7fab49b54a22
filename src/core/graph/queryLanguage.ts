import { InvalidArgumentError, throwIfCancelled } from '../errors';
import { compareCodePoints } from '../util/compareCodePoints';
import { Slicer } from '../util/Slicer';

/**
 * The graph query language behind `mem.queryGraph(query)`: a parser to a small AST and an
 * evaluator over any `QuerySource`.
 *
 * A query is terms in parentheses combined with `AND`, `OR` and prefix `NOT` (keywords in any
 * case), with grouping parentheses; `NOT` binds tightest, then `AND`, then `OR`, and chains group
 * to the left. Two terms side by side with no operator are an error.
 *
 * ```text
 * (property key:: value)    notes whose property `key` has `value` (both case-insensitive)
 * (property key)            notes that have the property at all
 * (outgoing-link [[Page]])  notes that link to Page
 * (backlink [[Page]])       notes that Page links to
 * (tag #x)                  notes tagged #x or any tag nested under it (#x/y)
 * (path "folder/")          notes whose path starts with the prefix (case-sensitive)
 * (content "text")          notes whose lines contain the text (case-insensitive)
 * ```
 *
 * A value (after `::`, and the argument of `path` and `content`) runs to the `)` that closes the
 * term and is trimmed; parentheses inside it must balance, and a `)` inside `[[...]]` or a quoted
 * string does not count. A value that is one quoted string is that string unquoted: inside quotes
 * `\"` is a quote and `\\` a backslash (any other backslash is kept as written), and the text keeps
 * its spaces and may hold unmatched parentheses. A property key is a word without spaces or colons,
 * or a quoted string. Link arguments are `[[Page]]`; an `|alias` or `#heading` in them is ignored.
 *
 * @example
 * parseQuery('(property affiliation:: AI Research Institute) AND (outgoing-link [[Symbolic Reasoning]])');
 * // { kind: 'and', left: { kind: 'property', key: 'affiliation', value: 'AI Research Institute' },
 * //   right: { kind: 'outgoing-link', target: 'Symbolic Reasoning' } }
 */

/** A parsed query. Binary operators nest to the left: `a AND b AND c` is `(a AND b) AND c`. */
export type QueryNode =
  | { kind: 'and' | 'or'; left: QueryNode; right: QueryNode }
  | { kind: 'not'; operand: QueryNode }
  | { kind: 'property'; key: string; value: string | null }
  | { kind: 'outgoing-link'; target: string }
  | { kind: 'backlink'; target: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'path'; prefix: string }
  | { kind: 'content'; text: string };

/**
 * What `parseQuery` accepts: the query's length in UTF-16 code units, the number of terms, and how
 * deeply grouping parentheses and `NOT`s may nest inside each other.
 */
export const QUERY_LIMITS = { maxLength: 2_000, maxTerms: 64, maxDepth: 32 } as const;

/** The term names, in the order error messages list them. */
const TERM_KINDS = ['property', 'outgoing-link', 'backlink', 'tag', 'path', 'content'] as const;
type TermKind = (typeof TERM_KINDS)[number];

/** What the query error for a missing term suggests. */
const A_TERM = 'a term like (tag #project)';

/**
 * Parses a query into its AST.
 *
 * @param query the query text, at most 2,000 characters, 64 terms and 32 levels of nesting.
 * @returns the query's AST.
 * @throws InvalidArgumentError (`InvalidArgument`) for argument `query` when the text is not a
 *   query. The message reads `Query error at column N: expected X, found Y`; `data` holds
 *   `column` (1-based, counted in characters), `expected` and `received` (what was found).
 */
export function parseQuery(query: string): QueryNode {
  if (typeof query !== 'string') throw new InvalidArgumentError('query', 'a string', describeNonString(query));
  return new Parser(query).parse();
}

/** What evaluation needs from the graph index, per note. Lines are 0-based. */
export interface QueryableNote {
  /** The note's vault path. */
  path: string;
  /** The note's properties; a list property appears once per item. */
  properties: readonly { key: string; value: string; line: number }[];
  /** Resolved outgoing link targets (vault paths) with the line of each link. */
  outgoing: readonly { target: string; line: number }[];
  /** The note's tags, with or without the leading `#`. */
  tags: readonly { tag: string; line: number }[];
  /** The note's text, for content matches and for reporting matched lines. */
  text: string;
  /**
   * The text of the given lines (ascending line numbers), when the note can give them without its
   * whole text (`text.split('\n')` otherwise).
   */
  lineTexts?(lines: readonly number[]): (string | undefined)[];
  /**
   * Whether the note's text, lower-cased, may contain `lowered` (lower-cased): false only when it
   * certainly does not, so a content term can skip the note without its text.
   */
  mayContain?(lowered: string): boolean;
}

/** The notes a query runs over, and how their links resolve. */
export interface QuerySource {
  /** Every note, once each. */
  notes(): Iterable<QueryableNote>;
  /** Resolves `[[target]]` text to a vault path the way Obsidian would (null when unresolved). */
  resolve(target: string, fromPath: string): string | null;
}

/** One note a query matched. */
export interface QueryMatch {
  /** The note's vault path. */
  filePath: string;
  /**
   * The text of the lines that matched, in line order, each line once. Per term: `property` → the
   * property's lines; `outgoing-link` → the lines of the links to the target; `tag` → the lines of
   * the matching tags; `content` → the lines containing the text; `path` and `backlink` → none.
   * `AND` and `OR` report the lines of every side that matched; `NOT` reports none, so a note
   * matched only through `NOT` has `[]`.
   */
  matches: string[];
}

/** How a query is run: cancelled through `signal`, in slices of `sliceMs` between which it yields. */
export interface EvaluateOptions {
  /** Aborting it stops the evaluation at its next slice, with `Cancelled`. */
  signal?: AbortSignal;
  /** Work between turns for the event loop (and checks of `signal`). Default 20 ms. */
  sliceMs?: number;
}

/**
 * Evaluates a parsed query over every note of `source`.
 *
 * `outgoing-link` resolves its target from each note's folder, as Obsidian resolves that note's
 * links; `backlink` resolves its page from the vault root. An unresolved target falls back to
 * comparing paths case-insensitively, with or without `.md`. A property value matches when it
 * equals the query's value ignoring case, with `[[...]]` links in either read as their page names,
 * or when both are links that resolve to the same note.
 *
 * Cost: walks every note once per term, in slices: the event loop gets a turn every `sliceMs`,
 * and an aborted `signal` ends the evaluation there with a `CancelledError`.
 *
 * @param node a query from `parseQuery`.
 * @param source the notes and link resolution.
 * @returns the matching notes, sorted by path.
 */
export async function evaluateQuery(node: QueryNode, source: QuerySource, options: EvaluateOptions = {}): Promise<QueryMatch[]> {
  const { signal } = options;
  const slicer = new Slicer(options.sliceMs ?? 20, () => {
    throwIfCancelled(signal, 'the graph query');
    return Promise.resolve();
  });
  throwIfCancelled(signal, 'the graph query');
  const evaluator = new Evaluator(source, slicer);
  const outcome = await evaluator.evaluate(node);
  const matches: QueryMatch[] = [];
  for (let i = 0; i < evaluator.notes.length; i++) {
    if ((i & PAUSE_EVERY) === PAUSE_EVERY) await slicer.maybeYield();
    const lines = outcome[i];
    if (lines === null || lines === undefined) continue;
    const note = evaluator.notes[i] as QueryableNote;
    const wanted = [...lines].sort((a, b) => a - b);
    let values: (string | undefined)[] = [];
    if (wanted.length > 0 && note.lineTexts !== undefined) values = note.lineTexts(wanted);
    else if (wanted.length > 0) {
      const noteLines = note.text.split('\n');
      values = wanted.map((line) => noteLines[line]);
    }
    matches.push({ filePath: note.path, matches: values.filter((value) => value !== undefined) });
  }
  return matches.sort((a, b) => compareCodePoints(a.filePath, b.filePath));
}

/** Notes worked through between looks at the clock (a mask: every 32 notes). */
const PAUSE_EVERY = 0x1f;

// ---------------------------------------------------------------------------------------------
// Parsing

/** The result of scanning a term's value: the trimmed text, unquoted when it was one quoted string. */
interface ScannedValue {
  text: string;
  quoted: boolean;
  /** Where the value starts (after leading whitespace), for error positions. */
  start: number;
}

class Parser {
  private pos = 0;
  private terms = 0;

  constructor(private readonly text: string) {}

  parse(): QueryNode {
    if (this.text.length > QUERY_LIMITS.maxLength) {
      this.failAt(QUERY_LIMITS.maxLength, `a query of at most ${formatCount(QUERY_LIMITS.maxLength)} characters`, `${formatCount(this.text.length)} characters`);
    }
    this.skipSpace();
    const node = this.parseOr(0, null);
    this.skipSpace();
    if (!this.atEnd()) this.fail(this.peekKeyword('NOT') ? 'AND, OR or the end of the query (write "AND NOT" to exclude)' : 'AND, OR or the end of the query');
    return node;
  }

  /** `and ( OR and )*`; `after` names the operator before it, for messages. */
  private parseOr(depth: number, after: string | null): QueryNode {
    let left = this.parseAnd(depth, after);
    while (this.acceptKeyword('OR')) left = { kind: 'or', left, right: this.parseAnd(depth, 'OR') };
    return left;
  }

  /** `unary ( AND unary )*`. */
  private parseAnd(depth: number, after: string | null): QueryNode {
    let left = this.parseUnary(depth, after);
    while (this.acceptKeyword('AND')) left = { kind: 'and', left, right: this.parseUnary(depth, 'AND') };
    return left;
  }

  /** `NOT unary | primary`. */
  private parseUnary(depth: number, after: string | null): QueryNode {
    this.skipSpace();
    if (this.peekKeyword('NOT')) {
      this.checkDepth(depth + 1, this.pos);
      this.pos += 3;
      return { kind: 'not', operand: this.parseUnary(depth + 1, 'NOT') };
    }
    return this.parsePrimary(depth, after);
  }

  /** `( term )` or `( query )`. */
  private parsePrimary(depth: number, after: string | null): QueryNode {
    this.skipSpace();
    if (this.text[this.pos] !== '(') this.fail(after === null ? A_TERM : `${A_TERM} after ${after}`);
    const open = this.pos;
    this.pos++;
    this.skipSpace();
    const kind = this.peekTermKind();
    if (kind !== null) {
      this.terms++;
      if (this.terms > QUERY_LIMITS.maxTerms) this.failAt(open, `at most ${QUERY_LIMITS.maxTerms} terms`, `term ${this.terms}`);
      this.pos += kind.length;
      return this.parseTerm(kind, open);
    }
    if (this.text[this.pos] === '(' || this.peekKeyword('NOT')) {
      this.checkDepth(depth + 1, open);
      const inner = this.parseOr(depth + 1, null);
      this.skipSpace();
      if (this.text[this.pos] !== ')') {
        const expected = `AND, OR or ")" to close the group that opens at column ${this.columnOf(open)}`;
        this.fail(this.peekKeyword('NOT') ? `${expected} (write "AND NOT" to exclude)` : expected);
      }
      this.pos++;
      return inner;
    }
    return this.fail('a term name (property, outgoing-link, backlink, tag, path or content) or "("');
  }

  private parseTerm(kind: TermKind, open: number): QueryNode {
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
      case 'content': {
        this.requireSpaceAfter(kind);
        const value = this.parseValue(kind, open);
        if (value.text === '') {
          const expected = kind === 'path' ? 'a path prefix like "Projects/"' : 'the text to find, like "meeting notes"';
          this.failAt(value.start, expected, value.quoted ? 'an empty string' : this.describe(value.start));
        }
        return kind === 'path' ? { kind, prefix: value.text } : { kind, text: value.text };
      }
    }
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
    let depth = 0;
    let opened = false;
    let quotes = 0;
    let quoted: { from: number; to: number; value: string } | null = null;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) {
        const hint = opened ? ' (put the value in quotes if it has an unmatched "(")' : '';
        this.fail(`")" to close the "${kind}" term that opens at column ${this.columnOf(open)}${hint}`);
      }
      if (ch === ')') {
        if (depth === 0) break;
        depth--;
        this.pos++;
      } else if (ch === '(') {
        depth++;
        opened = true;
        this.pos++;
      } else if (ch === '"') {
        const from = this.pos;
        const value = this.parseQuoted();
        quotes++;
        quoted = { from, to: this.pos, value };
      } else if (this.text.startsWith('[[', this.pos)) {
        const end = this.text.indexOf(']]', this.pos + 2);
        if (end < 0) this.failAt(this.pos, '"]]" to close the link that starts here', 'the end of the query');
        this.pos = end + 2;
      } else {
        this.pos++;
      }
    }
    const raw = this.text.slice(start, this.pos);
    this.pos++; // the closing `)`
    const leading = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    const valueStart = start + leading;
    if (quotes === 1 && quoted !== null && quoted.from === valueStart && quoted.to === valueStart + trimmed.length) {
      return { text: quoted.value, quoted: true, start: valueStart };
    }
    return { text: trimmed, quoted: false, start: valueStart };
  }

  /** A `"..."` string at `pos`, unescaped; leaves `pos` after the closing quote. */
  private parseQuoted(): string {
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
  private peekTermKind(): TermKind | null {
    const word = /^[A-Za-z-]+/.exec(this.text.slice(this.pos, this.pos + 16))?.[0];
    if (word === undefined) return null;
    const lower = word.toLowerCase();
    const kind = TERM_KINDS.find((name) => name === lower);
    return kind !== undefined && this.isBoundary(this.pos + word.length) ? kind : null;
  }

  /** Whether `keyword` (any case) is at `pos`, as a whole word. */
  private peekKeyword(keyword: 'AND' | 'OR' | 'NOT'): boolean {
    return this.text.slice(this.pos, this.pos + keyword.length).toUpperCase() === keyword && this.isBoundary(this.pos + keyword.length);
  }

  private acceptKeyword(keyword: 'AND' | 'OR'): boolean {
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

  private checkDepth(depth: number, at: number): void {
    if (depth > QUERY_LIMITS.maxDepth) this.failAt(at, `at most ${QUERY_LIMITS.maxDepth} levels of nested parentheses and NOTs`, `level ${depth}`);
  }

  private skipSpace(): void {
    while (!this.atEnd() && /\s/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  private atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  private fail(expected: string): never {
    return this.failAt(this.pos, expected, this.describe(this.pos));
  }

  private failAt(index: number, expected: string, found: string): never {
    const column = this.columnOf(index);
    const error = new InvalidArgumentError('query', expected, found);
    error.data.column = column;
    // The constructor's wording ("Argument … must be …") reads badly for syntax; say where instead.
    error.message = `Query error at column ${column}: expected ${expected}, found ${found}`;
    throw error;
  }

  /** What is at `index`, for "found …": the end, a parenthesis, or the next word (shortened). */
  private describe(index: number): string {
    if (index >= this.text.length) return 'the end of the query';
    const ch = this.text[index] ?? '';
    if (ch === '(' || ch === ')') return `"${ch}"`;
    const word = /^[^\s()]+/.exec(this.text.slice(index, index + 200))?.[0] ?? ch;
    const points = [...word];
    return `"${points.length > 24 ? `${points.slice(0, 24).join('')}…` : word}"`;
  }

  /** 1-based column of a UTF-16 index, counted in code points. */
  private columnOf(index: number): number {
    return [...this.text.slice(0, index)].length + 1;
  }
}

function describeNonString(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Per note (by index): the matched line numbers, or null when the note does not match. */
type Outcome = (ReadonlySet<number> | null)[];

/** A match with no line of its own (`NOT`, `path`); shared, as outcomes are never changed in place. */
const NO_LINES: ReadonlySet<number> = new Set<number>();

/** `[[target#heading|alias]]` anywhere in a string; group 1 is the target. */
const LINK = /\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]/g;
/** A string that is exactly one link. */
const WHOLE_LINK = /^\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]$/;

class Evaluator {
  readonly notes: QueryableNote[];
  private readonly resolved = new Map<string, string | null>();
  private readonly forms = new Map<(text: string) => unknown, Map<string, unknown>>();

  constructor(
    private readonly source: QuerySource,
    private readonly slicer: Slicer,
  ) {
    this.notes = [...source.notes()];
  }

  async evaluate(node: QueryNode): Promise<Outcome> {
    switch (node.kind) {
      case 'and': {
        const left = await this.evaluate(node.left);
        const right = await this.evaluate(node.right);
        return left.map((lines, i) => {
          const other = right[i];
          return lines && other ? union(lines, other) : null;
        });
      }
      case 'or': {
        const left = await this.evaluate(node.left);
        const right = await this.evaluate(node.right);
        return left.map((lines, i) => {
          const other = right[i] ?? null;
          if (lines && other) return union(lines, other);
          return lines ?? other;
        });
      }
      case 'not':
        return (await this.evaluate(node.operand)).map((lines) => (lines ? null : NO_LINES));
      case 'property':
        return this.byLines(this.propertyLines(node.key, node.value));
      case 'outgoing-link':
        return this.byLines((note) => {
          const target = this.resolveFrom(node.target, note.path);
          return note.outgoing.filter((link) => sameTarget(link.target, target, node.target)).map((link) => link.line);
        });
      case 'backlink':
        return this.backlinks(node.target);
      case 'tag': {
        const wanted = normalizeTag(node.tag);
        const nested = `${wanted}/`;
        return this.byLines((note) => {
          const found: number[] = [];
          for (const { tag, line } of note.tags) {
            const have = this.remembered(tag, normalizeTag);
            if (have === wanted || have.startsWith(nested)) found.push(line);
          }
          return found;
        });
      }
      case 'path':
        return this.notes.map((note) => (note.path.startsWith(node.prefix) ? NO_LINES : null));
      case 'content': {
        const lowered = node.text.toLowerCase();
        return this.byLines((note) => (note.mayContain?.(lowered) === false ? [] : contentLines(note.text, node.text)));
      }
    }
  }

  /**
   * `form(text)`, worked out once per text and query: a vault's notes share a few tags,
   * property keys and values.
   */
  private remembered<T>(text: string, form: (text: string) => T): T {
    let forms = this.forms.get(form) as Map<string, T> | undefined;
    if (forms === undefined) this.forms.set(form, (forms = new Map<string, T>()));
    let value = forms.get(text);
    if (value === undefined && !forms.has(text)) forms.set(text, (value = form(text)));
    return value as T;
  }

  /** A note matches when `lines` finds at least one line. The notes are worked through in slices. */
  private async byLines(lines: (note: QueryableNote) => number[]): Promise<Outcome> {
    const outcome: Outcome = [];
    for (let i = 0; i < this.notes.length; i++) {
      if ((i & PAUSE_EVERY) === PAUSE_EVERY) await this.slicer.maybeYield();
      const found = lines(this.notes[i] as QueryableNote);
      outcome.push(found.length > 0 ? new Set(found) : null);
    }
    return outcome;
  }

  /** The lines of a note's properties with `key` (and `value`, when given). */
  private propertyLines(key: string, value: string | null): (note: QueryableNote) => number[] {
    const wantedKey = key.toLowerCase();
    const wanted = value === null ? [] : valueForms(value);
    return (note) => {
      const found: number[] = [];
      for (const property of note.properties) {
        if (this.remembered(property.key, lowerCase) !== wantedKey) continue;
        if (value === null || this.valueMatches(property.value, value, wanted, note.path)) found.push(property.line);
      }
      return found;
    };
  }

  private valueMatches(have: string, want: string, wantForms: string[], fromPath: string): boolean {
    const haveForms = this.remembered(have, valueForms);
    if (haveForms.some((form) => wantForms.includes(form))) return true;
    const haveLink = WHOLE_LINK.exec(unquote(have.trim()))?.[1]?.trim();
    if (haveLink === undefined || haveLink === '') return false;
    const wantText = unquote(want.trim());
    const wantLink = (WHOLE_LINK.exec(wantText)?.[1] ?? wantText).trim();
    if (wantLink === '') return false;
    const a = this.resolveFrom(haveLink, fromPath);
    return a !== null && a === this.resolveFrom(wantLink, fromPath);
  }

  /** Notes that the page links to; the page resolves from the vault root. */
  private backlinks(page: string): Outcome {
    const pagePath = this.source.resolve(page, '');
    const lower = page.toLowerCase();
    const from = this.notes.find((note) =>
      pagePath !== null ? note.path === pagePath : note.path.toLowerCase() === lower || note.path.toLowerCase() === `${lower}.md`,
    );
    const targets = new Set(from?.outgoing.map((link) => link.target) ?? []);
    return this.notes.map((note) => (targets.has(note.path) ? NO_LINES : null));
  }

  /** Resolves link text as a note in `fromPath`'s folder would; cached per folder. */
  private resolveFrom(target: string, fromPath: string): string | null {
    const folder = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
    const key = `${folder}\0${target}`;
    if (!this.resolved.has(key)) this.resolved.set(key, this.source.resolve(target, fromPath));
    return this.resolved.get(key) ?? null;
  }
}

function union(a: ReadonlySet<number>, b: ReadonlySet<number>): ReadonlySet<number> {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  const out = new Set(a);
  for (const line of b) out.add(line);
  return out;
}

/** A link's target matches the resolved path, or (unresolved) the link text with or without `.md`. */
function sameTarget(target: string, resolved: string | null, text: string): boolean {
  if (resolved !== null) return target === resolved;
  const have = target.toLowerCase();
  const want = text.toLowerCase();
  return have === want || have === `${want}.md`;
}

function lowerCase(text: string): string {
  return text.toLowerCase();
}

function normalizeTag(tag: string): string {
  return tag.trim().replace(/^#/, '').toLowerCase();
}

/** Strips one pair of surrounding quotes, as YAML writes `"[[Page]]"`. */
function unquote(value: string): string {
  return value.length >= 2 && /^(["']).*\1$/s.test(value) ? value.slice(1, -1) : value;
}

/** The forms a property value is compared in: as written, and with each link read as its page name. */
function valueForms(value: string): string[] {
  const plain = unquote(value.trim()).toLowerCase();
  const unlinked = plain.replace(LINK, (_match, target: string) => target.trim());
  return unlinked === plain ? [plain] : [plain, unlinked];
}

/** The lines containing `text`, ignoring case; text with line breaks matches across lines. */
function contentLines(noteText: string, text: string): number[] {
  const wanted = text.toLowerCase();
  const whole = noteText.toLowerCase();
  // Most notes do not contain the text: one search of the whole note rules them out.
  if (!whole.includes(wanted)) return [];
  const lowered = whole.split('\n');
  if (!wanted.includes('\n')) {
    const found: number[] = [];
    lowered.forEach((line, i) => {
      if (line.includes(wanted)) found.push(i);
    });
    return found;
  }
  const starts: number[] = [];
  let offset = 0;
  for (const line of lowered) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const body = lowered.join('\n');
  const lineAt = (index: number): number => {
    let line = 0;
    while (line + 1 < starts.length && (starts[line + 1] ?? Infinity) <= index) line++;
    return line;
  };
  const found = new Set<number>();
  for (let at = body.indexOf(wanted); at >= 0; at = body.indexOf(wanted, at + 1)) {
    for (let line = lineAt(at); line <= lineAt(at + wanted.length - 1); line++) found.add(line);
  }
  return [...found];
}
