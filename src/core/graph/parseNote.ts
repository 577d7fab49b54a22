import { isMap, isNode, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_DEPTH, nestingDepth, splitFrontmatter } from '../content/frontmatter';
import { utf8Length } from '../text/decodeText';

/** A link from a note, as written; resolving it to a file is the link resolver's job. */
export interface NoteLink {
  /** The link target as written, before resolution: `Page`, `Folder/Page`, `../x.md`, `Page.md`… decoded (markdown links are URL-decoded). */
  target: string;
  /** `Heading` for [[Page#Heading]], `^block` for [[Page#^block]] (keep the caret), else null. */
  subpath: string | null;
  /** The display text ([[Page|alias]] or [text](path)), else null. */
  display: string | null;
  kind: 'wikilink' | 'embed' | 'markdown';
  /** 0-based line of the link. */
  line: number;
}

/** A property: a top-level frontmatter key, or a Dataview/Logseq inline field (`key:: value`). */
export interface NoteProperty {
  /** The key, trimmed, as written. */
  key: string;
  /** The value as text: trimmed for inline fields; lists joined with ', ' and maps as JSON for frontmatter. */
  value: string;
  /** 0-based line of the key. */
  line: number;
  source: 'frontmatter' | 'inline';
}

/** The structure of one note, as Obsidian (and Dataview/Logseq) index it. */
export interface ParsedNote {
  links: NoteLink[];
  /** Tags without '#', as written (case kept), from the body (#tag, #a/b) and frontmatter `tags`/`tag` (list or comma/space-separated string, with or without '#'). */
  tags: { tag: string; line: number }[];
  properties: NoteProperty[];
  /** Frontmatter `aliases`/`alias` (list or comma-separated string). */
  aliases: string[];
  headings: { text: string; level: number; line: number }[];
  /** Where the body starts in the note's text: after the frontmatter block and a byte-order mark. */
  bodyStart: number;
}

/*
 * How the body is read, one line at a time, in linear time:
 * 1. Fenced code blocks are skipped whole.
 * 2. Inline code spans and comments (`<!-- -->`, `%% %%`, both may span lines) are masked: their
 *    characters are replaced by a mask character, so positions still match the original line.
 * 3. Wikilinks are found in the masked line and masked in turn, then markdown links (whole
 *    `[text](dest)`, external or not), so tags and inline fields never match inside a link.
 * 4. Headings, tags and inline fields are read from what is left; text is always sliced from the
 *    original line (without comments), so a value keeps its inline code.
 * Mask characters are not whitespace, so `x`#tag` is no tag, and no key may contain one.
 */
const COMMENT_MASK = '\u0000';
const CODE_MASK = '\u0001';
const LINK_MASK = '\u0002';

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const COLON = 0x3a;

/** Characters a tag is made of: letters, digits, marks, emoji, and `-`, `_`, `/`. */
const TAG_BODY = /(?:[\p{L}\p{N}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}_\-/]|\u200d)+/uy;
const ONLY_DIGITS = /^\p{Nd}+$/u;
const WHITESPACE_CHAR = /\s/u;
/** A URI scheme (`https:`, `mailto:`, `obsidian:`, `file:`…) or a protocol-relative `//host`. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
/** A backslash-escaped ASCII punctuation character in a link destination. */
const ESCAPED_PUNCTUATION = /\\([!-/:-@[-`{-~])/g;
const SPACE_OR_TAB = /[ \t]/g;
const MAY_OPEN_CODE_OR_COMMENT = /[`<%]/;
const NOT_SPACE_OR_TAB = /[^ \t]/g;
const TAG_SEPARATORS = /[\s,]+/u;
/** Brackets are matched by scanning this far directly before a line's bracket table is built. */
const DIRECT_SCAN_LIMIT = 64;

interface Fence {
  char: string;
  length: number;
}

interface Located<T> {
  column: number;
  item: T;
}

/**
 * Extracts a note's links, tags, properties, aliases and headings the way Obsidian reads them;
 * nothing inside fenced or inline code, HTML comments or `%% %%` comments counts. Pure and
 * linear in the length of the note (a dense 1 MB note takes tens of milliseconds); never throws.
 * Frontmatter that is invalid YAML, over `MAX_FRONTMATTER_BYTES` or nested over 64 levels gives
 * no properties, tags, aliases or links; the body is read all the same.
 *
 * Simplifications: an inline code span ends on its line; indented (4-space) code blocks are
 * read as text, since in outlines that indentation is nesting; in frontmatter only quoted
 * wikilinks count (unquoted, `[[x]]` is a YAML list, as Obsidian warns).
 *
 * @param text The whole note.
 * @returns The note's structure; lines are 0-based lines of `text`.
 * @example
 * parseNote('---\ntags: [a]\n---\n# Plan\nSee [[Other#Goals|goals]] #b\nstatus:: open');
 * // links: [{ target: 'Other', subpath: 'Goals', display: 'goals', kind: 'wikilink', line: 4 }]
 * // tags: [{ tag: 'a', line: 1 }, { tag: 'b', line: 4 }], headings: [{ text: 'Plan', level: 1, line: 3 }]
 * // properties: tags ('a', frontmatter) and status ('open', inline)
 */
export function parseNote(text: string): ParsedNote {
  const note: ParsedNote = { links: [], tags: [], properties: [], aliases: [], headings: [], bodyStart: 0 };
  const lines = text.split('\n');
  let bodyStart = 0;
  const frontmatter = splitFrontmatter(text);
  if (frontmatter !== null) {
    bodyStart = frontmatter.bodyStartLine - 1;
    readFrontmatter(frontmatter.yaml, note);
  }
  note.bodyStart = frontmatter === null ? (text.charCodeAt(0) === 0xfeff ? 1 : 0) : Math.min(offsetOfLine(lines, bodyStart), text.length);
  readBody(lines, bodyStart, note);
  return note;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function offsetOfLine(lines: readonly string[], line: number): number {
  let offset = 0;
  for (let i = 0; i < line; i++) offset += (lines[i] as string).length + 1;
  return offset;
}

// ---------------------------------------------------------------------------------------------
// Frontmatter

function readFrontmatter(yaml: string, note: ParsedNote): void {
  if (yaml.length > MAX_FRONTMATTER_BYTES || utf8Length(yaml) > MAX_FRONTMATTER_BYTES) return;
  if (readSimpleFrontmatter(yaml, note)) return;
  if (nestingDepth(yaml) > MAX_FRONTMATTER_DEPTH) return;
  const properties: NoteProperty[] = [];
  const tags: { tag: string; line: number }[] = [];
  const aliases: string[] = [];
  const links: NoteLink[] = [];
  try {
    const doc = parseDocument(yaml, { logLevel: 'silent' });
    if (doc.errors.length > 0 || !isMap(doc.contents)) return;
    const lineOf = lineLocator(yaml);
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key)) continue;
      const key = scalarText(pair.key);
      if (key === '') continue;
      const line = lineOf(pair.key.range?.[0] ?? 0);
      const value = isNode(pair.value) ? pair.value : null;
      properties.push({ key, value: value === null ? '' : nodeText(value, doc), line, source: 'frontmatter' });
      const name = key.toLowerCase();
      if (value !== null && (name === 'tags' || name === 'tag')) tags.push(...frontmatterTags(value, line, lineOf));
      if (value !== null && (name === 'aliases' || name === 'alias')) aliases.push(...frontmatterAliases(value));
      if (value !== null) collectFrontmatterLinks(value, lineOf, links, 0);
    }
  } catch {
    // A pathological document (too deep for the parser, an alias bomb): no frontmatter at all.
    return;
  }
  note.properties.push(...properties);
  note.tags.push(...tags);
  note.aliases.push(...aliases);
  note.links.push(...links);
}

/** A key the YAML parser reads as the same plain string, never as a number, boolean or null. */
const SIMPLE_KEY = /^[\p{L}_](?:[\p{L}\p{N}_ .\-/()]*[\p{L}\p{N}_.\-/()])?$/u;
const NOT_A_STRING_KEY = /^(?:true|false|null|y|n|yes|no|on|off)$/i;
/** A plain scalar the YAML parser keeps as written: no indicator first, no comment, no nested key, no link. */
const SIMPLE_VALUE = /^(?:[\p{L}\p{N}_(.+~/]|-\p{N})(?:(?!: |:$| #|\[\[)[^\t])*$/u;
const NULL_VALUE = /^(?:~|null|Null|NULL)$/;
const LIST_ITEM = /^( *)- +(.*)$/;
const NESTED_FIELD = /^( +)([^\s:#][^:]*):(?:( .*))?$/;
const UNSURE = Symbol('unsure');
const INTEGER = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/**
 * A plain scalar typed as YAML 1.2's core schema types it (what the parser's `toJS` gives), or
 * `UNSURE` where JavaScript might round differently (integers past 15 digits).
 */
function coreScalar(text: string): unknown {
  if (text === '' || NULL_VALUE.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^0o[0-7]+$/.test(text)) return text.length > 17 ? UNSURE : parseInt(text.slice(2), 8);
  if (INTEGER.test(text)) return text.replace(/^[-+]?0*/, '').length > 15 ? UNSURE : Number(text);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return text.length > 14 ? UNSURE : parseInt(text.slice(2), 16);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(?:nan|NaN|NAN)$/.test(text)) return NaN;
  if (FLOAT.test(text)) return parseFloat(text);
  return text;
}
const LEADING_SPACES = /^ +/;
const TRAILING_SPACES = / +$/;

/**
 * Frontmatter that is only `key: value` lines and simple lists (most of it, in real vaults) is
 * read directly, the way the YAML parser would read it: the parser costs as much as the rest of
 * indexing a note. Returns false, having read nothing, for anything else.
 */
function readSimpleFrontmatter(yaml: string, note: ParsedNote): boolean {
  for (let at = 0; at < yaml.length; at += 1) {
    const c = yaml.charCodeAt(at);
    // Tabs, carriage returns, control characters and surrogates: the parser's rules there are subtle.
    if ((c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff) || c >= 0xfeff) return false;
  }
  const entries: { key: string; line: number; values: { text: string; line: number }[]; list: boolean; map?: { indent: number; fields: Map<string, unknown> } }[] = [];
  const keys = new Set<string>();
  let listIndent = -1;
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] as string).replace(TRAILING_SPACES, '');
    if (line === '') continue;
    const current = entries[entries.length - 1];
    const item = LIST_ITEM.exec(line);
    if (item !== null) {
      const indent = (item[1] as string).length;
      const value = (item[2] as string).replace(TRAILING_SPACES, '');
      if (current === undefined || current.map !== undefined || (current.values.length > 0 && !current.list) || (listIndent >= 0 && indent !== listIndent) || !SIMPLE_VALUE.test(value)) return false;
      listIndent = indent;
      current.list = true;
      current.values.push({ text: NULL_VALUE.test(value) ? '' : value, line: 1 + i });
      continue;
    }
    const field = NESTED_FIELD.exec(line);
    if (field !== null) {
      // One level of `key: value` under a key with no value of its own (`source:` then `  run: x`).
      const indent = (field[1] as string).length;
      const name = field[2] as string;
      const text = (field[3] ?? '').replace(LEADING_SPACES, '');
      if (current === undefined || current.list || current.values.length > 0 || (current.map !== undefined && current.map.indent !== indent)) return false;
      if (!SIMPLE_KEY.test(name) || NOT_A_STRING_KEY.test(name) || (text !== '' && !SIMPLE_VALUE.test(text))) return false;
      current.map ??= { indent, fields: new Map() };
      const typed = coreScalar(text);
      if (current.map.fields.has(name) || typed === UNSURE) return false;
      current.map.fields.set(name, typed);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) return false;
    const key = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (!SIMPLE_KEY.test(key) || NOT_A_STRING_KEY.test(key) || keys.has(key)) return false;
    const text = value.replace(LEADING_SPACES, '');
    if (value !== '' && (value.charAt(0) !== ' ' || !SIMPLE_VALUE.test(text))) return false;
    keys.add(key);
    listIndent = -1;
    entries.push({ key, line: 1 + i, values: text === '' ? [] : [{ text: NULL_VALUE.test(text) ? '' : text, line: 1 + i }], list: false });
  }
  for (const entry of entries) {
    const value = entry.map === undefined ? entry.values.map((part) => part.text).join(', ') : JSON.stringify(Object.fromEntries(entry.map.fields));
    note.properties.push({ key: entry.key, value, line: entry.line, source: 'frontmatter' });
    const name = entry.key.toLowerCase();
    if (name === 'tags' || name === 'tag') {
      for (const part of entry.values) note.tags.push(...splitTags(part.text, part.line));
    }
    if (name === 'aliases' || name === 'alias') {
      const parts = entry.list ? entry.values.map((part) => part.text) : entry.values.flatMap((part) => part.text.split(','));
      note.aliases.push(...parts.map((part) => part.trim()).filter((part) => part !== ''));
    }
  }
  return true;
}

function splitTags(text: string, line: number): { tag: string; line: number }[] {
  const tags: { tag: string; line: number }[] = [];
  for (const part of text.split(TAG_SEPARATORS)) {
    const tag = part.replace(/^#+/, '');
    if (tag !== '' && !ONLY_DIGITS.test(tag)) tags.push({ tag, line });
  }
  return tags;
}

/** Maps an offset in the YAML to a 0-based line of the note (the YAML starts on line 1). */
function lineLocator(yaml: string): (offset: number) => number {
  const starts = [0];
  for (let at = yaml.indexOf('\n'); at !== -1; at = yaml.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return 1 + low;
  };
}

function nodeLine(node: Node, lineOf: (offset: number) => number, fallback: number): number {
  const start = node.range?.[0];
  return start === undefined ? fallback : lineOf(start);
}

/** A scalar as written where that differs from its value (`1.10`, `0x1F`); null as ''. */
function scalarText(node: Node): string {
  if (!isScalar(node)) return '';
  const value = node.value;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return node.source ?? value.toISOString();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return node.source ?? String(value);
  return JSON.stringify(value) ?? '';
}

function nodeText(node: Node, doc: Document): string {
  if (isScalar(node)) return scalarText(node);
  if (isSeq(node)) return node.items.map((item) => (isNode(item) ? nodeText(item, doc) : '')).join(', ');
  const value: unknown = node.toJS(doc, { maxAliasCount: 100 });
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

function frontmatterTags(value: Node, keyLine: number, lineOf: (offset: number) => number): { tag: string; line: number }[] {
  const items = isSeq(value) ? value.items.filter(isNode) : [value];
  const tags: { tag: string; line: number }[] = [];
  for (const item of items) {
    if (!isScalar(item)) continue;
    tags.push(...splitTags(scalarText(item), nodeLine(item, lineOf, keyLine)));
  }
  return tags;
}

function frontmatterAliases(value: Node): string[] {
  const parts = isSeq(value)
    ? value.items.filter(isNode).map((item) => (isScalar(item) ? scalarText(item) : ''))
    : isScalar(value) ? scalarText(value).split(',') : [];
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** Obsidian indexes wikilinks written in frontmatter strings (`related: "[[Other]]"`). */
function collectFrontmatterLinks(node: Node, lineOf: (offset: number) => number, links: NoteLink[], depth: number): void {
  if (depth > MAX_FRONTMATTER_DEPTH) return;
  if (isScalar(node)) {
    if (typeof node.value !== 'string' || !node.value.includes('[[')) return;
    const line = nodeLine(node, lineOf, 1);
    for (const part of node.value.split('\n')) {
      for (const found of findWikilinks(part, part, line)) links.push(found.item);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) if (isNode(item)) collectFrontmatterLinks(item, lineOf, links, depth + 1);
  } else if (isMap(node)) {
    for (const pair of node.items) if (isNode(pair.value)) collectFrontmatterLinks(pair.value, lineOf, links, depth + 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Body

function readBody(lines: readonly string[], bodyStart: number, note: ParsedNote): void {
  let fence: Fence | null = null;
  const comment: { open: 'html' | 'percent' | null } = { open: null };
  for (let lineNo = bodyStart; lineNo < lines.length; lineNo += 1) {
    let line = lines[lineNo] ?? '';
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (lineNo === 0) line = stripBom(line);

    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (comment.open === null) {
      fence = fenceOpener(line);
      if (fence !== null) continue;
    }

    const masked = maskCodeAndComments(line, comment);
    readLine(line, masked, lineNo, note);
  }
}

/** Skips indentation, blockquote markers and (when `listItem`) one list marker and task box. */
function skipLinePrefix(line: string, listItem: boolean): number {
  let at = skipSpaces(line, 0);
  while (line.charCodeAt(at) === 0x3e /* > */) at = skipSpaces(line, at + 1);
  if (!listItem) return at;
  const afterMarker = listMarkerEnd(line, at);
  if (afterMarker === at) return at;
  at = afterMarker;
  if (line.charCodeAt(at) === OPEN_BRACKET && line.charCodeAt(at + 2) === CLOSE_BRACKET && isSpaceOrTab(line.charCodeAt(at + 3))) {
    at = skipSpaces(line, at + 3);
  }
  return at;
}

/** The position after `- `, `* `, `+ `, `1. ` or `1) ` (and its spaces) at `at`, else `at`. */
function listMarkerEnd(line: string, at: number): number {
  const c = line.charCodeAt(at);
  if ((c === 0x2d || c === 0x2a || c === 0x2b) && isSpaceOrTab(line.charCodeAt(at + 1))) return skipSpaces(line, at + 1);
  let digits = at;
  while (digits - at < 9 && isDigit(line.charCodeAt(digits))) digits += 1;
  if (digits === at) return at;
  const d = line.charCodeAt(digits);
  if ((d === 0x2e || d === CLOSE_PAREN) && isSpaceOrTab(line.charCodeAt(digits + 1))) return skipSpaces(line, digits + 1);
  return at;
}

function skipSpaces(line: string, at: number): number {
  let position = at;
  while (isSpaceOrTab(line.charCodeAt(position))) position += 1;
  return position;
}

function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A fence opener (three or more backticks or tildes), also inside a list item or blockquote. */
function fenceOpener(line: string): Fence | null {
  const at = skipLinePrefix(line, true);
  const char = line.charAt(at);
  if (char !== '`' && char !== '~') return null;
  let end = at;
  while (line.charAt(end) === char) end += 1;
  if (end - at < 3) return null;
  // ```a``` on one line is inline code, not a fence: a backtick info string holds no backtick.
  if (char === '`' && line.includes('`', end)) return null;
  return { char, length: end - at };
}

/** A closing fence: the same character, at least as many, then only whitespace. */
function closesFence(line: string, fence: Fence): boolean {
  const at = skipLinePrefix(line, false);
  let end = at;
  while (line.charAt(end) === fence.char) end += 1;
  return end - at >= fence.length && line.slice(end).trim() === '';
}

/**
 * Masks inline code spans (a run of N backticks up to the next run of exactly N on the line) and
 * comments, carrying an unclosed comment over to the next line in `comment`.
 */
function maskCodeAndComments(line: string, comment: { open: 'html' | 'percent' | null }): string {
  if (comment.open === null && !MAY_OPEN_CODE_OR_COMMENT.test(line)) return line;
  const ranges: [number, number, string][] = [];
  let runs: BacktickRuns | null = null;
  let at = 0;
  let commentStart = 0;
  while (at < line.length) {
    if (comment.open !== null) {
      const closer = comment.open === 'html' ? '-->' : '%%';
      const end = line.indexOf(closer, at);
      if (end === -1) {
        ranges.push([commentStart, line.length, COMMENT_MASK]);
        return applyMask(line, ranges);
      }
      ranges.push([commentStart, end + closer.length, COMMENT_MASK]);
      comment.open = null;
      at = end + closer.length;
      continue;
    }
    const c = line.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 2;
    } else if (c === BACKTICK) {
      let end = at;
      while (line.charCodeAt(end) === BACKTICK) end += 1;
      runs ??= new BacktickRuns(line);
      const closing = runs.next(end - at, end);
      if (closing === -1) {
        at = end;
      } else {
        ranges.push([at, closing + (end - at), CODE_MASK]);
        at = closing + (end - at);
      }
    } else if (c === 0x3c /* < */ && line.startsWith('<!--', at)) {
      comment.open = 'html';
      commentStart = at;
      at += 4;
    } else if (c === 0x25 /* % */ && line.charCodeAt(at + 1) === 0x25) {
      comment.open = 'percent';
      commentStart = at;
      at += 2;
    } else {
      at += 1;
    }
  }
  if (comment.open !== null) ranges.push([commentStart, line.length, COMMENT_MASK]);
  return applyMask(line, ranges);
}

/** The maximal backtick runs of a line by length, for finding a code span's closing run in linear time. */
class BacktickRuns {
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

function applyMask(line: string, ranges: readonly (readonly [number, number, string])[]): string {
  if (ranges.length === 0) return line;
  let out = '';
  let last = 0;
  for (const [start, end, mask] of ranges) {
    out += line.slice(last, start) + mask.repeat(end - start);
    last = end;
  }
  return out + line.slice(last);
}

/** The original text from `from` to `to` without the parts inside comments. */
function visibleText(line: string, masked: string, from: number, to: number): string {
  let at = masked.indexOf(COMMENT_MASK, from);
  if (at === -1 || at >= to) return line.slice(from, to);
  let out = line.slice(from, at);
  while (at < to) {
    while (at < to && masked.charAt(at) === COMMENT_MASK) at += 1;
    const next = masked.indexOf(COMMENT_MASK, at);
    const end = next === -1 || next > to ? to : next;
    out += line.slice(at, end);
    at = end;
  }
  return out;
}

function readLine(line: string, masked: string, lineNo: number, note: ParsedNote): void {
  const heading = readHeading(line, masked, lineNo);
  if (heading !== null) note.headings.push(heading);

  const wikilinks = findWikilinks(masked, line, lineNo);
  const linkMasked = applyMask(masked, wikilinks.map((found) => [found.column, found.end, LINK_MASK] as const));
  const markdown = findMarkdownLinks(linkMasked, line, lineNo);
  const rest = applyMask(linkMasked, markdown.ranges.map(([start, end]) => [start, end, LINK_MASK] as const));
  const links: Located<NoteLink>[] = [...wikilinks, ...markdown.links].sort((a, b) => a.column - b.column);
  for (const found of links) note.links.push(found.item);

  readTags(rest, lineNo, note);
  if (heading === null && readLineProperty(line, masked, rest, lineNo, note)) return;
  readBracketFields(line, masked, rest, lineNo, note);
}

function readHeading(line: string, masked: string, lineNo: number): ParsedNote['headings'][number] | null {
  let at = 0;
  while (at < 3 && masked.charCodeAt(at) === 0x20) at += 1;
  let end = at;
  while (masked.charCodeAt(end) === 0x23 /* # */) end += 1;
  const level = end - at;
  if (level < 1 || level > 6 || !isSpaceOrTab(masked.charCodeAt(end))) return null;
  const text = withoutClosingHashes(visibleText(line, masked, end, line.length).trim());
  return text === '' ? null : { text, level, line: lineNo };
}

/** `# Title ##` → `Title`; `# C#` keeps its `#` (the closing run must follow a space). */
function withoutClosingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x23) end -= 1;
  if (end === text.length) return text;
  if (end === 0) return '';
  return isSpaceOrTab(text.charCodeAt(end - 1)) ? text.slice(0, end).trimEnd() : text;
}

/**
 * Wikilinks and embeds in `scan` (a line, masked or not); the parts are read from `source`. A
 * link ends at the first `]]`; of several `[[` before it, the last one opens it.
 */
function findWikilinks(scan: string, source: string, lineNo: number): (Located<NoteLink> & { end: number })[] {
  const found: (Located<NoteLink> & { end: number })[] = [];
  let from = 0;
  for (;;) {
    const first = scan.indexOf('[[', from);
    if (first === -1) break;
    const close = scan.indexOf(']]', first + 2);
    if (close === -1) break;
    const open = scan.lastIndexOf('[[', close - 2);
    const embed = open > 0 && scan.charCodeAt(open - 1) === 0x21; /* ! */
    const link = wikilink(source.slice(open + 2, close), embed, lineNo);
    const start = embed ? open - 1 : open;
    if (link !== null) found.push({ column: start, end: close + 2, item: link });
    from = close + 2;
  }
  return found;
}

/** `Page#Heading|alias` → its parts; `\|` (a pipe escaped inside a table) separates the alias too. */
function wikilink(content: string, embed: boolean, lineNo: number): NoteLink | null {
  let targetPart = content;
  let display: string | null = null;
  const bar = content.indexOf('|');
  if (bar !== -1) {
    targetPart = content.slice(0, bar);
    if (targetPart.endsWith('\\')) targetPart = targetPart.slice(0, -1);
    display = content.slice(bar + 1).trim() || null;
  }
  const hash = targetPart.indexOf('#');
  const target = (hash === -1 ? targetPart : targetPart.slice(0, hash)).trim();
  const subpath = hash === -1 ? null : targetPart.slice(hash + 1).trim() || null;
  if (target === '' && subpath === null) return null;
  return { target, subpath, display, kind: embed ? 'embed' : 'wikilink', line: lineNo };
}

/**
 * Markdown links `[text](dest)` and images `![alt](dest)`, CommonMark style: the destination is
 * `<…>` or a run without spaces whose parentheses balance, optionally followed by a title. Every
 * link is returned in `ranges` (for masking); external ones are left out of `links`.
 */
function findMarkdownLinks(masked: string, line: string, lineNo: number): { links: Located<NoteLink>[]; ranges: [number, number][] } {
  const result: { links: Located<NoteLink>[]; ranges: [number, number][] } = { links: [], ranges: [] };
  if (!masked.includes('](')) return result;
  const scanner = new Scanner(masked);
  const parens = new BracketTable(masked, OPEN_PAREN, CLOSE_PAREN);
  const openers: number[] = [];
  for (let at = 0; at < masked.length; at += 1) {
    const c = masked.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 1;
      continue;
    }
    if (c === OPEN_BRACKET) openers.push(at);
    if (c !== CLOSE_BRACKET) continue;
    const opener = openers.pop();
    if (opener === undefined || masked.charCodeAt(at + 1) !== OPEN_PAREN) continue;
    const destination = readDestination(masked, line, at + 2, scanner, parens);
    if (destination === null) continue;
    const start = opener > 0 && masked.charCodeAt(opener - 1) === 0x21 ? opener - 1 : opener;
    result.ranges.push([start, destination.end]);
    const link = markdownLink(destination.raw, line.slice(opener + 1, at).trim(), lineNo);
    if (link !== null) result.links.push({ column: start, item: link });
    // A link cannot contain another link, so brackets opened before this one no longer open links.
    openers.length = 0;
    at = destination.end - 1;
  }
  return result;
}

function readDestination(masked: string, line: string, from: number, scanner: Scanner, parens: BracketTable): { raw: string; end: number } | null {
  let at = scanner.skipSpaces(from);
  let raw: string;
  if (masked.charCodeAt(at) === 0x3c /* < */) {
    const close = scanner.next('>', at + 1);
    if (close === -1) return null;
    raw = line.slice(at + 1, close);
    at = close + 1;
  } else if (masked.charCodeAt(at) === CLOSE_PAREN) {
    return { raw: '', end: at + 1 };
  } else {
    const space = scanner.next(SPACE_OR_TAB, at);
    const close = parens.closer(at, space === -1 ? masked.length : space);
    let end: number;
    if (close !== -1) end = close;
    else if (space !== -1 && parens.balanced(at, space)) end = space;
    else return null;
    raw = line.slice(at, end);
    at = end;
  }
  at = scanner.skipSpaces(at);
  if (masked.charCodeAt(at) === CLOSE_PAREN) return { raw, end: at + 1 };
  const quote = masked.charAt(at);
  const closer = quote === '"' || quote === "'" ? quote : quote === '(' ? ')' : null;
  if (closer === null) return null;
  const titleEnd = scanner.next(closer, at + 1);
  if (titleEnd === -1) return null;
  at = scanner.skipSpaces(titleEnd + 1);
  return masked.charCodeAt(at) === CLOSE_PAREN ? { raw, end: at + 1 } : null;
}

function markdownLink(raw: string, text: string, lineNo: number): NoteLink | null {
  const destination = raw.trim().replace(ESCAPED_PUNCTUATION, '$1');
  if (destination === '' || EXTERNAL.test(destination)) return null;
  const hash = destination.indexOf('#');
  const target = decode(hash === -1 ? destination : destination.slice(0, hash)).trim();
  const subpath = hash === -1 ? null : decode(destination.slice(hash + 1)).trim() || null;
  if (target === '' && subpath === null) return null;
  return { target, subpath, display: text === '' ? null : text, kind: 'markdown', line: lineNo };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `indexOf` for positions that mostly move forward: a search is answered from the previous one
 * for the same needle when it still applies, so repeated failing searches stay linear.
 */
class Scanner {
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

/**
 * Finds the closer of a `[`/`(` opened just before a position: where the bracket depth first
 * drops below its depth there (backslash escapes skipped). Short spans are scanned directly; past
 * that, a table for the whole line is built once, in linear time, so no input is quadratic.
 */
class BracketTable {
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

/** `#tag` after whitespace or at the start of the line, not only digits. */
function readTags(rest: string, lineNo: number, note: ParsedNote): void {
  for (let at = rest.indexOf('#'); at !== -1; at = rest.indexOf('#', at + 1)) {
    if (at > 0 && !WHITESPACE_CHAR.test(rest.charAt(at - 1))) continue;
    TAG_BODY.lastIndex = at + 1;
    const match = TAG_BODY.exec(rest);
    if (match === null) continue;
    const tag = match[0];
    if (!ONLY_DIGITS.test(tag)) note.tags.push({ tag, line: lineNo });
    at += tag.length;
  }
}

/** A Dataview/Logseq field filling the line: `key:: value`, also as `- key:: value`. */
function readLineProperty(line: string, masked: string, rest: string, lineNo: number, note: ParsedNote): boolean {
  const start = skipLinePrefix(rest, true);
  const separator = rest.indexOf('::', start);
  if (separator === -1) return false;
  const key = rest.slice(start, separator).trim();
  if (!isFieldKey(key)) return false;
  note.properties.push({ key, value: visibleText(line, masked, separator + 2, line.length).trim(), line: lineNo, source: 'inline' });
  return true;
}

function isFieldKey(key: string): boolean {
  if (key === '') return false;
  for (let at = 0; at < key.length; at += 1) {
    const c = key.charCodeAt(at);
    if (c <= 0x02 || c === OPEN_BRACKET || c === CLOSE_BRACKET || c === OPEN_PAREN || c === CLOSE_PAREN) return false;
  }
  return true;
}

/** Dataview's bracketed inline fields, anywhere in a line: `[key:: value]` and `(key:: value)`. */
function readBracketFields(line: string, masked: string, rest: string, lineNo: number, note: ParsedNote): void {
  if (!rest.includes('::')) return;
  const square = new BracketTable(rest, OPEN_BRACKET, CLOSE_BRACKET);
  const round = new BracketTable(rest, OPEN_PAREN, CLOSE_PAREN);
  for (let at = 0; at < rest.length; at += 1) {
    const c = rest.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 1;
      continue;
    }
    if (c !== OPEN_BRACKET && c !== OPEN_PAREN) continue;
    let keyEnd = at + 1;
    while (keyEnd < rest.length) {
      const k = rest.charCodeAt(keyEnd);
      if (k === OPEN_BRACKET || k === CLOSE_BRACKET || k === OPEN_PAREN || k === CLOSE_PAREN || k <= 0x02) break;
      if (k === COLON && rest.charCodeAt(keyEnd + 1) === COLON) break;
      keyEnd += 1;
    }
    if (rest.charCodeAt(keyEnd) !== COLON) continue;
    const key = rest.slice(at + 1, keyEnd).trim();
    if (key === '') continue;
    const close = (c === OPEN_BRACKET ? square : round).closer(keyEnd + 2);
    if (close === -1) continue;
    note.properties.push({ key, value: visibleText(line, masked, keyEnd + 2, close).trim(), line: lineNo, source: 'inline' });
    at = close;
  }
}
