/**
 * One file's patch in the format `git diff` prints (git-diff(1), "Generating patch text with
 * -p"), computed without git: the line alignment comes from jsdiff's Myers diff, the headers,
 * hunks and their `@@` lines follow git's documented format, so `git apply` accepts the result.
 *
 * Lines are compared byte for byte (a line includes its `\n`, so a last line without one differs
 * from the same text with one); the printed text is decoded as UTF-8, invalid bytes becoming
 * U+FFFD.
 */
import { quoteGitPath } from './gitPathQuote';
import { lineChanges, type ChangeBlock } from './lineChanges';

export interface DiffSide {
  /** Path in the vault, `/`-separated, e.g. `Notes/a b.md`. */
  path: string;
  /** The blob id (40 hex digits); null when the file does not exist on this side. */
  oid: string | null;
  /** The git file mode, `100644` or `100755`; not read when `oid` is null. */
  mode: string;
  /** The file's bytes on this side; null when it does not exist. */
  content: Uint8Array | null;
}

/** Options of {@link formatGitDiff}; {@link DEFAULT_GIT_DIFF_OPTIONS} holds the defaults. */
export interface GitDiffOptions {
  /** How many unchanged lines to show before and after each change, like `git diff -U<n>`. Default 3. */
  context?: number;
  /** Length of the blob ids on the `index` line, like `--abbrev=<n>`; kept within 4 to 40. Default 7. */
  abbrev?: number;
}

export const DEFAULT_GIT_DIFF_OPTIONS: Readonly<Required<GitDiffOptions>> = { context: 3, abbrev: 7 };

/** git calls a file binary when one of its first 8000 bytes is NUL. */
const BINARY_PROBE_BYTES = 8000;
/** The function name after `@@` is at most this many bytes of its line. */
const FUNCTION_NAME_BYTES = 80;

/** Decoders keep a leading byte order mark, as git prints it. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const EMPTY = new Uint8Array(0);

/**
 * The patch `git diff` (default configuration, no colour) would print for one file, or '' when
 * nothing differs.
 *
 * Headers are git's: `diff --git`, the `new file mode` / `deleted file mode` / `old mode` +
 * `new mode` lines, `index` with shortened blob ids (and the mode when it is unchanged), `---` /
 * `+++` with `/dev/null` for a missing side and a tab after a name that holds a space, and paths
 * quoted as with `core.quotePath=true`. A side with NUL in its first 8000 bytes gives
 * `Binary files … differ`. Hunks carry `options.context` lines of context, merge when their
 * contexts touch, and name the nearest earlier line of the old text that starts with a letter, `_`
 * or `$` after `@@`, as git's default funcname rule does.
 *
 * The changed lines are a shortest diff from jsdiff, arranged as {@link lineChanges} says; where
 * several shortest diffs exist, git may show another one (same counts, other lines paired). Blob
 * ids are cut to exactly `abbrev` digits (git makes them longer when a prefix is ambiguous), and
 * there is no rename detection: different paths simply show as `a/<old>` and `b/<new>`.
 *
 * Cost: linear in the file sizes plus jsdiff's search, which grows with the square of the number
 * of changed lines; past a bound (see `lineChanges`) the differing middle of the file is printed as
 * one replacement, still a patch `git apply` accepts.
 *
 * @param oldSide the file before, printed as `a/`; `oid: null` when it is being created.
 * @param newSide the file after, printed as `b/`; `oid: null` when it is being deleted.
 * @param options context lines and blob-id length; see {@link DEFAULT_GIT_DIFF_OPTIONS}.
 * @returns the patch, each line ending in `\n`, or '' when both sides have the same blob and mode
 *   (or neither exists).
 * @example
 * formatGitDiff(
 *   { path: 'a.md', oid: null, mode: '100644', content: null },
 *   { path: 'a.md', oid: 'ce013625030ba8dba906f756967f9e9ca394464a', mode: '100644', content: new TextEncoder().encode('hello\n') },
 * );
 * // 'diff --git a/a.md b/a.md\nnew file mode 100644\nindex 0000000..ce01362\n--- /dev/null\n+++ b/a.md\n@@ -0,0 +1 @@\n+hello\n'
 */
export function formatGitDiff(oldSide: DiffSide, newSide: DiffSide, options?: GitDiffOptions): string {
  const context = Math.max(0, Math.floor(options?.context ?? DEFAULT_GIT_DIFF_OPTIONS.context));
  const abbrev = Math.min(40, Math.max(4, Math.floor(options?.abbrev ?? DEFAULT_GIT_DIFF_OPTIONS.abbrev)));
  const created = oldSide.oid === null;
  const deleted = newSide.oid === null;
  if (created && deleted) return '';
  if (oldSide.oid === newSide.oid && oldSide.mode === newSide.mode) return '';

  const oldName = quoteGitPath(`a/${oldSide.path}`);
  const newName = quoteGitPath(`b/${newSide.path}`);
  const header = [`diff --git ${oldName} ${newName}`];
  if (created) header.push(`new file mode ${newSide.mode}`);
  else if (deleted) header.push(`deleted file mode ${oldSide.mode}`);
  else if (oldSide.mode !== newSide.mode) header.push(`old mode ${oldSide.mode}`, `new mode ${newSide.mode}`);
  if (oldSide.oid === newSide.oid) return joinLines(header);

  const shortId = (oid: string | null): string => (oid === null ? '0'.repeat(abbrev) : oid.slice(0, abbrev));
  const sameMode = !created && !deleted && oldSide.mode === newSide.mode;
  header.push(`index ${shortId(oldSide.oid)}..${shortId(newSide.oid)}${sameMode ? ` ${newSide.mode}` : ''}`);

  const before = created ? EMPTY : (oldSide.content ?? EMPTY);
  const after = deleted ? EMPTY : (newSide.content ?? EMPTY);
  const oldLabel = created ? '/dev/null' : oldName;
  const newLabel = deleted ? '/dev/null' : newName;
  if (looksBinary(before) || looksBinary(after)) {
    header.push(`Binary files ${oldLabel} and ${newLabel} differ`);
    return joinLines(header);
  }

  const hunks = formatHunks(splitLines(before), splitLines(after), context);
  if (hunks === '') return joinLines(header);
  // A tab after a name with a space tells patch tools where the name ends.
  const tabIfSpaced = (path: string): string => (path.includes(' ') ? '\t' : '');
  header.push(`--- ${oldLabel}${created ? '' : tabIfSpaced(oldSide.path)}`);
  header.push(`+++ ${newLabel}${deleted ? '' : tabIfSpaced(newSide.path)}`);
  return joinLines(header) + hunks;
}

function joinLines(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/** A text cut into lines at `\n`. */
interface TextLines {
  bytes: Uint8Array;
  /** Where each line starts, then the text's length: line `i` is `starts[i]` to `starts[i + 1]`, its `\n` included. */
  starts: number[];
  /** Each line decoded, without its `\n`; null when the bytes are not valid UTF-8 (see {@link lineText}). */
  texts: string[] | null;
}

function splitLines(bytes: Uint8Array): TextLines {
  const starts = [0];
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) starts.push(at + 1);
  if (starts[starts.length - 1] !== bytes.length) starts.push(bytes.length);
  let texts: string[] | null;
  try {
    // Valid UTF-8 decodes one-to-one, so decoded lines compare like their bytes. `\n` is never
    // inside a multi-byte character, so the text splits where the bytes do.
    texts = bytes.length === 0 ? [] : strictUtf8.decode(bytes).split('\n');
    if (texts.length > starts.length - 1) texts.pop();
  } catch {
    texts = null;
  }
  return { bytes, starts, texts };
}

function lineCount(text: TextLines): number {
  return text.starts.length - 1;
}

/** The line's bytes, its `\n` included when it has one. */
function lineBytes(text: TextLines, line: number): Uint8Array {
  return text.bytes.subarray(text.starts[line], text.starts[line + 1]);
}

function endsWithNewline(text: TextLines, line: number): boolean {
  return text.bytes[(text.starts[line + 1] as number) - 1] === 0x0a;
}

/** The line decoded without its `\n`; invalid UTF-8 becomes U+FFFD. */
function lineText(text: TextLines, line: number): string {
  if (text.texts !== null) return text.texts[line] as string;
  const bytes = lineBytes(text, line);
  return lossyUtf8.decode(endsWithNewline(text, line) ? bytes.subarray(0, -1) : bytes);
}

/** The line as printed after its `+`, `-` or space: its text, and the marker git adds when it has no `\n`. */
function printedLine(text: TextLines, line: number): string {
  return endsWithNewline(text, line) ? `${lineText(text, line)}\n` : `${lineText(text, line)}\n\\ No newline at end of file\n`;
}

/**
 * Numbers every line of both texts so that two lines get the same number exactly when their bytes
 * are equal (a last line without `\n` differs from the same text with one), which makes jsdiff's
 * comparisons plain `===` on numbers.
 */
function lineIds(before: TextLines, after: TextLines): [number[], number[]] {
  const exact = before.texts !== null && after.texts !== null;
  const ids = new Map<string, number>();
  const numberLines = (text: TextLines): number[] => {
    const out: number[] = [];
    for (let line = 0; line < lineCount(text); line++) {
      // A decoded line never holds `\n`, so the prefix keeps a line without one apart.
      let key = exact ? lineText(text, line) : byteKey(lineBytes(text, line));
      if (exact && !endsWithNewline(text, line)) key = `\n${key}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
      }
      out.push(id);
    }
    return out;
  };
  return [numberLines(before), numberLines(after)];
}

/** The bytes as a string of char codes 0–255: an exact key for text that is not valid UTF-8. */
function byteKey(bytes: Uint8Array): string {
  let key = '';
  for (let at = 0; at < bytes.length; at += 8192) key += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return key;
}

/** The hunks of a text diff with `context` lines around each change, or '' when the texts are equal. */
function formatHunks(before: TextLines, after: TextLines, context: number): string {
  const [oldIds, newIds] = lineIds(before, after);
  const blocks = lineChanges(
    { ids: oldIds, indent: (line) => indentOf(lineBytes(before, line)) },
    { ids: newIds, indent: (line) => indentOf(lineBytes(after, line)) },
  );
  const names = new FunctionNames(before);
  let out = '';
  for (let first = 0; first < blocks.length; ) {
    // Changes whose contexts would touch or overlap share a hunk.
    let last = first;
    while (last + 1 < blocks.length && (blocks[last + 1] as ChangeBlock).oldStart - (blocks[last] as ChangeBlock).oldEnd <= 2 * context) last++;
    const head = blocks[first] as ChangeBlock;
    const end = blocks[last] as ChangeBlock;
    const lead = Math.min(context, head.oldStart, head.newStart);
    const trail = Math.min(context, oldIds.length - end.oldEnd, newIds.length - end.newEnd);
    const oldFrom = head.oldStart - lead;
    const newFrom = head.newStart - lead;
    const oldCount = end.oldEnd + trail - oldFrom;
    const newCount = end.newEnd + trail - newFrom;
    const name = names.before(oldFrom);
    out += `@@ -${range(oldFrom, oldCount)} +${range(newFrom, newCount)} @@${name === '' ? '' : ` ${name}`}\n`;

    let oldAt = oldFrom;
    for (let k = first; k <= last; k++) {
      const block = blocks[k] as ChangeBlock;
      for (; oldAt < block.oldStart; oldAt++) out += ` ${printedLine(before, oldAt)}`;
      for (let line = block.oldStart; line < block.oldEnd; line++) out += `-${printedLine(before, line)}`;
      for (let line = block.newStart; line < block.newEnd; line++) out += `+${printedLine(after, line)}`;
      oldAt = block.oldEnd;
    }
    for (; oldAt < end.oldEnd + trail; oldAt++) out += ` ${printedLine(before, oldAt)}`;
    first = last + 1;
  }
  return out;
}

/** Columns of leading whitespace (a tab reaching the next multiple of 8); `Infinity` for a blank line. */
function indentOf(line: Uint8Array): number {
  let width = 0;
  for (const byte of line) {
    if (byte === 0x20) width++;
    else if (byte === 0x09) width += 8 - (width % 8);
    else if (byte === 0x0a || byte === 0x0d) continue;
    else return width;
  }
  return Infinity;
}

/**
 * One side of an `@@` line, unified-diff style: `start,count` with a 1-based start, `start` alone
 * when the count is 1, and for no lines the number of the line before them with `,0` (so `0,0`
 * for an empty file).
 */
function range(linesBefore: number, count: number): string {
  if (count === 0) return `${linesBefore},0`;
  if (count === 1) return `${linesBefore + 1}`;
  return `${linesBefore + 1},${count}`;
}

/**
 * The text after a hunk's `@@`: the nearest line of the old text above the hunk that starts with
 * an ASCII letter, `_` or `$` (gitattributes(5), the default when no `diff` driver is set). Hunks
 * are asked in order, so each search stops where the previous one started and reuses its answer.
 */
class FunctionNames {
  private searchedUpTo = 0;
  private found = '';

  constructor(private readonly text: TextLines) {}

  /** The name for a hunk whose first old line is `line` (0-based); '' when there is none. */
  before(line: number): string {
    for (let candidate = line - 1; candidate >= this.searchedUpTo; candidate--) {
      const bytes = lineBytes(this.text, candidate);
      if (bytes.length > 0 && startsName(bytes[0] as number)) {
        this.found = functionName(bytes);
        break;
      }
    }
    this.searchedUpTo = Math.max(this.searchedUpTo, line);
    return this.found;
  }
}

function startsName(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x5f || byte === 0x24;
}

/**
 * A line as git shows it after `@@`: its first 80 bytes, without trailing spaces, tabs, CR or LF,
 * and without a UTF-8 character the cut left incomplete (behaviour observed with `git diff`).
 */
function functionName(line: Uint8Array): string {
  let end = Math.min(line.length, FUNCTION_NAME_BYTES);
  while (end > 0 && [0x20, 0x09, 0x0d, 0x0a].includes(line[end - 1] as number)) end--;
  end = withoutCutCharacter(line, end);
  return lossyUtf8.decode(line.subarray(0, end));
}

/** `end`, moved back to the start of the last UTF-8 sequence in `line[0..end)` when that sequence is cut short. */
function withoutCutCharacter(line: Uint8Array, end: number): number {
  let start = end;
  // Continuation bytes are 10xxxxxx; a sequence has at most three of them.
  while (start > 0 && end - start < 3 && ((line[start - 1] as number) & 0xc0) === 0x80) start--;
  if (start === 0) return end;
  const lead = line[start - 1] as number;
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return length > end - start + 1 ? start - 1 : end;
}
