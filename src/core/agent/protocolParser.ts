/**
 * Reads a model's answer in the agent protocol: `<think>` (a one-line status for the user),
 * `<typescript>` (code to run) and `<reply>` (the final answer).
 *
 * Forgiving by design, because models bend the format: tags in any order and any case, attributes
 * or whitespace inside tags, a block left open at the end of the stream, code wrapped in a Markdown
 * fence, several code blocks, prose around the tags. Unknown tags (`<ts>`, `<thinking>`) are text.
 *
 * Rules:
 * - A block runs to its matching close tag (any case, whitespace allowed: `</think >`) or to the
 *   end of the text.
 * - Inside `<typescript>` everything is code except `</typescript>`: code may contain `<reply>`.
 * - Inside `<think>` and `<reply>`, an opening tag of another kind ends the block, for the model that
 *   forgot `</think>` before `<typescript>`. Other tags there are text.
 * - Outside blocks, a stray close tag (`</think>` with no `<think>`) is dropped and separates prose.
 *
 * One scanner serves the whole-text parse and the streaming one, so both read text the same way.
 */

/** The tags of the protocol. */
export type ProtocolTag = 'think' | 'typescript' | 'reply';

/** What a model's answer says, block by block. */
export interface ParsedResponse {
  /** Think texts in order, trimmed (usually one). Empty ones are left out. */
  thinks: string[];
  /** Code blocks in order, fences removed, trimmed; never empty strings. */
  code: string[];
  /** The reply text trimmed, or null when there is none. Several replies: joined with a blank line. */
  reply: string | null;
  /** Text outside any tag, trimmed ('' when none); separate stretches are joined with a blank line. */
  prose: string;
  /** True when at least one of think/code/reply is present (non-empty). */
  usable: boolean;
  /**
   * Tags that were opened and never closed: the end of the stream closed them, e.g. ['typescript']
   * for an answer cut off in its code. A block ended by another opening tag is not listed.
   */
  unclosed: ProtocolTag[];
}

/**
 * Parses a whole response. Never throws, whatever the input.
 *
 * @example
 * parseResponse('<think>Looking.</think><typescript>```ts\nreturn 1;\n```</typescript>');
 * // { thinks: ['Looking.'], code: ['return 1;'], reply: null, prose: '', usable: true, unclosed: [] }
 */
export function parseResponse(text: string): ParsedResponse {
  const scanner = new Scanner();
  scanner.feed(text, true);
  return scanner.finish();
}

/**
 * Incremental view for streaming: feed chunks as they arrive; after each, `thinkText()` is the
 * text of the think block so far, and `result()` parses everything received so far.
 *
 * A chunk may split a tag anywhere (`<typ` + `escript>`): a trailing `<…` that could still become
 * a tag is held back until the next chunk decides it, so it never flashes in `thinkText()`.
 * `push` and `thinkText` cost the chunk's length, not the text's; `result()` costs the text so far.
 */
export class StreamingParser {
  private readonly scanner = new Scanner();
  private cached: ParsedResponse | null = null;

  /** Adds the next chunk of the answer. */
  push(chunk: string): void {
    this.scanner.feed(chunk, false);
    this.cached = null;
  }

  /**
   * The current (last) think block's text so far, trimmed; '' when none has started. While a new
   * think block is still empty, the previous think's text stays, so a status never blinks out.
   * Each value is a prefix of that block's final text.
   */
  thinkText(): string {
    return this.scanner.thinkText();
  }

  /** Everything received so far, parsed as `parseResponse` would parse it. */
  result(): ParsedResponse {
    this.cached ??= this.scanner.clone().finish();
    return this.cached;
  }
}

/** The short correction sent back to a model whose answer had no usable tag. */
export function correctionMessage(): string {
  return (
    'Your answer had no <think>, <typescript> or <reply> block, so nothing was done. ' +
    'Answer again in the format: <think> with one short status sentence, then <typescript> with code to run, ' +
    'or <reply> with the final answer when the work is done.'
  );
}

const TAG_NAMES: readonly ProtocolTag[] = ['think', 'typescript', 'reply'];

/**
 * The longest text read as one tag, `<` to `>`. It bounds how much a stream holds back while
 * waiting for a `>`, so a stray `<think ` followed by pages of text costs nothing.
 */
const MAX_TAG_LENGTH = 128;

interface Tag {
  name: ProtocolTag;
  closing: boolean;
  length: number;
}

/** `matchTag` result: more text could still make a tag here. */
const PARTIAL = 'partial';

/** The tags that mean something in each state; `null` is outside any block. */
function isActive(mode: ProtocolTag | null, name: ProtocolTag, closing: boolean): boolean {
  if (mode === null) return true;
  if (mode === 'typescript') return closing && name === 'typescript';
  return closing ? name === mode : name !== mode;
}

/** Whitespace allowed inside a tag. */
function isTagSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

/**
 * Reads the tag starting at `text[at] === '<'`, among those active in `mode`. `final` says no more
 * text will come; otherwise a tag cut off by the end of `text` is `PARTIAL`.
 */
function matchTag(text: string, at: number, mode: ProtocolTag | null, final: boolean): Tag | typeof PARTIAL | null {
  const cut = final ? null : PARTIAL;
  let start = at + 1;
  if (start >= text.length) return cut;
  const closing = text.charCodeAt(start) === 0x2f; // '/'
  if (closing) start++;
  let partial = false;
  for (const name of TAG_NAMES) {
    if (!isActive(mode, name, closing)) continue;
    const found = matchNamedTag(text, at, start, name, closing, final);
    if (found === PARTIAL) partial = true;
    else if (found !== null) return found;
  }
  return partial ? PARTIAL : null;
}

function matchNamedTag(
  text: string,
  at: number,
  start: number,
  name: ProtocolTag,
  closing: boolean,
  final: boolean,
): Tag | typeof PARTIAL | null {
  const cut = final ? null : PARTIAL;
  for (let n = 0; n < name.length; n++) {
    if (start + n >= text.length) return cut;
    // ASCII-only case folding: `toLowerCase` would turn the Kelvin sign into a 'k'.
    let code = text.charCodeAt(start + n);
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    if (code !== name.charCodeAt(n)) return null;
  }
  const limit = at + MAX_TAG_LENGTH;
  let i = start + name.length;
  if (i >= text.length) return cut;
  const first = text.charCodeAt(i);
  if (first !== 0x3e && !isTagSpace(first)) return null; // `<thinking>` is not `<think>`
  if (closing) {
    while (i < text.length && i < limit && isTagSpace(text.charCodeAt(i))) i++;
  } else {
    while (i < text.length && i < limit && text[i] !== '>' && text[i] !== '<') i++;
  }
  if (i >= limit) return null;
  if (i >= text.length) return cut;
  return text[i] === '>' ? { name, closing, length: i + 1 - at } : null;
}

/** Matches `String.prototype.trim`'s notion of whitespace. */
const SPACE = /\s/;

/**
 * A text built from pieces whose trimmed value is always at hand: leading whitespace is dropped
 * and trailing whitespace kept aside until more text follows it.
 */
class TrimmedText {
  text = '';
  private trailing = '';

  append(piece: string): void {
    let start = 0;
    if (this.text === '') while (start < piece.length && SPACE.test(piece.charAt(start))) start++;
    let end = piece.length;
    while (end > start && SPACE.test(piece.charAt(end - 1))) end--;
    if (end === start) {
      if (this.text !== '') this.trailing += piece.slice(start);
      return;
    }
    this.text += this.trailing + piece.slice(start, end);
    this.trailing = piece.slice(end);
  }

  clone(): TrimmedText {
    const copy = new TrimmedText();
    copy.text = this.text;
    copy.trailing = this.trailing;
    return copy;
  }
}

interface Block {
  name: ProtocolTag;
  text: string;
}

/** The state machine behind both parsers. */
class Scanner {
  private mode: ProtocolTag | null = null;
  /** The end of the last chunk when it may be the start of a tag. */
  private pending = '';
  private current = new TrimmedText();
  private blocks: Block[] = [];
  private prose: string[] = [];
  private lastThink = '';

  feed(chunk: string, final: boolean): void {
    const text = this.pending + chunk;
    this.pending = '';
    let pos = 0;
    while (pos < text.length) {
      const lt = text.indexOf('<', pos);
      if (lt === -1) {
        this.current.append(text.slice(pos));
        return;
      }
      if (lt > pos) this.current.append(text.slice(pos, lt));
      const tag = matchTag(text, lt, this.mode, final);
      if (tag === PARTIAL) {
        this.pending = text.slice(lt);
        return;
      }
      if (tag === null) {
        this.current.append('<');
        pos = lt + 1;
        continue;
      }
      this.endStretch();
      this.mode = tag.closing ? null : tag.name;
      pos = lt + tag.length;
    }
  }

  /** Ends the text: what was held back is text, an open block is closed. */
  finish(): ParsedResponse {
    this.feed('', true);
    const unclosed: ProtocolTag[] = this.mode === null ? [] : [this.mode];
    this.endStretch();
    this.mode = null;
    return buildResult(this.blocks, this.prose, unclosed);
  }

  thinkText(): string {
    return this.mode === 'think' && this.current.text !== '' ? this.current.text : this.lastThink;
  }

  clone(): Scanner {
    const copy = new Scanner();
    copy.mode = this.mode;
    copy.pending = this.pending;
    copy.current = this.current.clone();
    copy.blocks = this.blocks.slice();
    copy.prose = this.prose.slice();
    copy.lastThink = this.lastThink;
    return copy;
  }

  /** Files the text read since the last tag under the current block, or as prose. */
  private endStretch(): void {
    const text = this.current.text;
    this.current = new TrimmedText();
    if (text === '') return;
    if (this.mode === null) this.prose.push(text);
    else this.blocks.push({ name: this.mode, text });
    if (this.mode === 'think') this.lastThink = text;
  }
}

function buildResult(blocks: readonly Block[], prose: readonly string[], unclosed: ProtocolTag[]): ParsedResponse {
  const thinks: string[] = [];
  const code: string[] = [];
  const replies: string[] = [];
  for (const block of blocks) {
    if (block.name === 'think') thinks.push(block.text);
    else if (block.name === 'reply') replies.push(block.text);
    else {
      const stripped = stripFences(block.text);
      if (stripped !== '') code.push(stripped);
    }
  }
  const reply = replies.length > 0 ? replies.join('\n\n') : null;
  return {
    thinks,
    code,
    reply,
    prose: prose.join('\n\n'),
    usable: thinks.length > 0 || code.length > 0 || reply !== null,
    unclosed,
  };
}

const OPENING_FENCE = /^`{3,}[^\n`]*(?:\n|$)/;
const CLOSING_FENCE = /(?:^|\n)[ \t]*`{3,}$/;

/** Removes a leading ```lang line and a trailing ``` line from trimmed code, each when present. */
function stripFences(code: string): string {
  return code.replace(OPENING_FENCE, '').replace(CLOSING_FENCE, '').trim();
}
