/**
 * The text `git diff` prints for one file, byte for byte, without running git: a port of the parts
 * of git's xdiff (line classes, the prefix/suffix trim and "discard lines that cannot match"
 * pre-pass, Myers with its cost heuristics, group sliding with the indent heuristic, hunk grouping,
 * the default function-name rule) and of diff.c (headers, path quoting, binary detection) that the
 * default configuration uses. Ported rather than reinvented because another line-diff algorithm
 * picks other, equally short alignments, and the point is that our diffs read exactly like git's.
 *
 * Internally every text is a "byte string": one UTF-16 code unit per byte (0–255), so records can
 * be compared, hashed and sliced as strings while staying byte-exact; the result is decoded as
 * UTF-8 only at the end.
 */

export interface DiffSide {
  /** Vault-relative path, e.g. `Notes/a b.md`. */
  path: string;
  /** 40-hex blob id, or null when the file is absent on this side (created / deleted). */
  oid: string | null;
  /** Git mode string, normally '100644' ('100755' possible). Ignored when oid is null. */
  mode: string;
  /** The bytes of the file on this side, or null when absent. */
  content: Uint8Array | null;
}

/** How {@link formatGitDiff} renders a diff. */
export interface GitDiffOptions {
  /** Unchanged lines shown around each change (`git diff -U<n>`). Default 3. */
  context?: number;
  /** Hex digits of each blob id on the `index` line (`--abbrev=<n>`), 4 to 40. Default 7. */
  abbrev?: number;
}

export const DEFAULT_GIT_DIFF_OPTIONS: Readonly<Required<GitDiffOptions>> = { context: 3, abbrev: 7 };

/**
 * The text `git diff` (no color, default config) prints for one file; '' when both sides are equal.
 *
 * Matches git byte for byte: the `diff --git` header with its mode and `index` lines, C-quoted
 * paths (`core.quotePath=true`), `Binary files … differ` for contents with a NUL in their first
 * 8000 bytes, and hunks with git's line alignment, merging and `@@` function names.
 *
 * Two things git derives from the repository are taken as given instead: blob ids are shortened to
 * exactly `abbrev` digits (git lengthens them in large repositories or when a prefix is
 * ambiguous), and no rename detection is done (when the paths differ, `a/` shows the old one and
 * `b/` the new one). Bytes that are not valid UTF-8 come back as U+FFFD, as when git's output is
 * read as UTF-8.
 *
 * @param oldSide the file before (`a/`); `oid: null` when it did not exist.
 * @param newSide the file after (`b/`); `oid: null` when it was deleted.
 * @param options context lines and id length; see {@link DEFAULT_GIT_DIFF_OPTIONS}.
 * @returns the diff, ending in a newline, or '' when both sides have the same blob and mode.
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
  const oldPresent = oldSide.oid !== null;
  const newPresent = newSide.oid !== null;
  if (!oldPresent && !newPresent) return '';
  if (oldSide.oid === newSide.oid && oldSide.mode === newSide.mode) return '';

  // As in git's diff pair, an absent side carries the present side's name.
  const nameA = oldPresent ? oldSide.path : newSide.path;
  const nameB = newPresent ? newSide.path : nameA;
  const a = quoteTwo('a/', nameA);
  const b = quoteTwo('b/', nameB);
  const labelA = oldPresent ? a : '/dev/null';
  const labelB = newPresent ? b : '/dev/null';

  let header = `diff --git ${a} ${b}\n`;
  let mustShowHeader = true;
  if (!oldPresent) header += `new file mode ${newSide.mode}\n`;
  else if (!newPresent) header += `deleted file mode ${oldSide.mode}\n`;
  else if (oldSide.mode !== newSide.mode) header += `old mode ${oldSide.mode}\nnew mode ${newSide.mode}\n`;
  else mustShowHeader = false;
  if (oldSide.oid !== newSide.oid) {
    const sameMode = oldPresent && newPresent && oldSide.mode === newSide.mode;
    header += `index ${abbreviate(oldSide.oid, abbrev)}..${abbreviate(newSide.oid, abbrev)}${sameMode ? ` ${oldSide.mode}` : ''}\n`;
  }

  const oldBytes = (oldPresent ? oldSide.content : null) ?? EMPTY;
  const newBytes = (newPresent ? newSide.content : null) ?? EMPTY;
  let out: string;
  if (isBinary(oldBytes) || isBinary(newBytes)) {
    if (bytesEqual(oldBytes, newBytes)) out = mustShowHeader ? header : '';
    else out = `${header}Binary files ${labelA} and ${labelB} differ\n`;
  } else {
    const hunks = oldSide.oid === newSide.oid ? '' : diffHunks(oldBytes, newBytes, context);
    if (hunks === '') out = mustShowHeader ? header : '';
    else out = `${header}--- ${labelA}${tabIfSpace(labelA)}\n+++ ${labelB}${tabIfSpace(labelB)}\n${hunks}`;
  }
  return UTF8_DECODER.decode(fromByteString(out));
}

const EMPTY = new Uint8Array(0);
const UTF8_DECODER = new TextDecoder('utf-8', { ignoreBOM: true });
const UTF8_ENCODER = new TextEncoder();

/** git's `buffer_is_binary`: a NUL among the first 8000 bytes (FIRST_FEW_BYTES). */
function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function abbreviate(oid: string | null, length: number): string {
  return oid === null ? '0'.repeat(length) : oid.slice(0, length);
}

/** git appends a TAB to `---`/`+++` names containing a space, so patch tools see where they end. */
function tabIfSpace(label: string): string {
  return label.includes(' ') ? '\t' : '';
}

// ------------------------------------------------------------------------------------------------
// Byte strings and path quoting

function toByteString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x2000) out += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  return out;
}

function fromByteString(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** quote.c's escapes by letter; every other byte that must be quoted becomes `\ooo`. */
const QUOTE_LETTERS: ReadonlyMap<number, string> = new Map([
  [0x07, 'a'], [0x08, 'b'], [0x09, 't'], [0x0a, 'n'], [0x0b, 'v'], [0x0c, 'f'], [0x0d, 'r'], [0x22, '"'], [0x5c, '\\'],
]);

/** With `core.quotePath=true`: control characters, DEL, `"`, `\` and every non-ASCII byte. */
function mustQuote(byte: number): boolean {
  return byte < 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x5c;
}

/** diff.c's `quote_two`: `prefix + name`, C-quoted as a whole when the name needs it. */
function quoteTwo(prefix: string, name: string): string {
  const bytes = UTF8_ENCODER.encode(name);
  if (!bytes.some(mustQuote)) return prefix + toByteString(bytes);
  let out = `"${prefix}`;
  for (const byte of bytes) {
    if (!mustQuote(byte)) out += String.fromCharCode(byte);
    else out += `\\${QUOTE_LETTERS.get(byte) ?? byte.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}

// ------------------------------------------------------------------------------------------------
// xdiff: records, classes, the Myers pass (xprepare.c, xdiffi.c)

/** One side of the diff, as xdiff's `xdfile_t`. */
interface XdFile {
  /** Records (lines) as byte strings, each with its `\n`; the last may lack one. */
  recs: string[];
  /** Class per record: equal bytes ⇔ equal class. */
  ha: Int32Array;
  /** Record i is changed when `rchg[i + 1]` is 1; the zero at each end spares bounds checks. */
  rchg: Uint8Array;
}

/** One change of the edit script: `chg1` records at `i1` replaced by `chg2` records at `i2`. */
interface Change {
  i1: number;
  i2: number;
  chg1: number;
  chg2: number;
}

const MAX_COST_MIN = 256;
const HEUR_MIN_COST = 256;
const LINE_MAX = 0x7fffffff;
const SNAKE_CNT = 20;
const K_HEUR = 4;
const MAX_EQLIMIT = 1024;
const SIMSCAN_WINDOW = 100;
const KPDIS_RUN = 4;

/** xdiff's integer square-root approximation. */
function bogosqrt(n: number): number {
  let i = 1;
  for (; n > 0; n = Math.floor(n / 4)) i *= 2;
  return i;
}

function splitRecords(text: string): string[] {
  const recs: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    recs.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) recs.push(text.slice(start));
  return recs;
}

/** xdiff-interface.c's `trim_common_tail`, which git applies only without context lines. */
function trimCommonTail(a: Uint8Array, b: Uint8Array): [Uint8Array, Uint8Array] {
  const block = 1024;
  const smaller = Math.min(a.length, b.length);
  let trimmed = 0;
  while (block + trimmed <= smaller && bytesEqual(
    a.subarray(a.length - trimmed - block, a.length - trimmed),
    b.subarray(b.length - trimmed - block, b.length - trimmed),
  )) trimmed += block;
  let recovered = 0;
  while (recovered < trimmed) if (a[a.length - trimmed + recovered++] === 0x0a) break;
  const cut = trimmed - recovered;
  return [a.subarray(0, a.length - cut), b.subarray(0, b.length - cut)];
}

function isChanged(xdf: XdFile, i: number): boolean {
  return xdf.rchg[i + 1] === 1;
}

function setChanged(xdf: XdFile, i: number, changed: boolean): void {
  xdf.rchg[i + 1] = changed ? 1 : 0;
}

/** Splits both texts into classified records and marks the changed ones (`xdl_do_diff`). */
function doDiff(text1: string, text2: string): [XdFile, XdFile] {
  const recs1 = splitRecords(text1);
  const recs2 = splitRecords(text2);
  const classes = new Map<string, number>();
  const count1: number[] = [];
  const count2: number[] = [];
  const classify = (recs: string[], counts: number[]): Int32Array => {
    const ha = new Int32Array(recs.length);
    recs.forEach((rec, i) => {
      let cls = classes.get(rec);
      if (cls === undefined) {
        cls = classes.size;
        classes.set(rec, cls);
        count1.push(0);
        count2.push(0);
      }
      counts[cls] = (counts[cls] ?? 0) + 1;
      ha[i] = cls;
    });
    return ha;
  };
  const xdf1: XdFile = { recs: recs1, ha: classify(recs1, count1), rchg: new Uint8Array(recs1.length + 2) };
  const xdf2: XdFile = { recs: recs2, ha: classify(recs2, count2), rchg: new Uint8Array(recs2.length + 2) };
  const n1 = recs1.length;
  const n2 = recs2.length;

  // xdl_trim_ends
  let lim = Math.min(n1, n2);
  let dstart = 0;
  while (dstart < lim && xdf1.ha[dstart] === xdf2.ha[dstart]) dstart++;
  lim -= dstart;
  let tail = 0;
  while (tail < lim && xdf1.ha[n1 - 1 - tail] === xdf2.ha[n2 - 1 - tail]) tail++;

  // xdl_cleanup_records
  const [rindex1, rha1] = keepMatchable(xdf1, dstart, n1 - tail - 1, count2);
  const [rindex2, rha2] = keepMatchable(xdf2, dstart, n2 - tail - 1, count1);

  recsCompare(xdf1, rindex1, rha1, xdf2, rindex2, rha2);
  return [xdf1, xdf2];
}

/**
 * `xdl_cleanup_records` for one side: records with no match in the other file, and frequent ones
 * amid those, are marked changed up front; the rest (their indices and classes) go to Myers.
 */
function keepMatchable(xdf: XdFile, dstart: number, dend: number, otherCounts: number[]): [Int32Array, Int32Array] {
  const mlim = Math.min(bogosqrt(xdf.recs.length), MAX_EQLIMIT);
  const dis = new Uint8Array(xdf.recs.length + 1);
  for (let i = dstart; i <= dend; i++) {
    const nm = Math.min(otherCounts[xdf.ha[i] as number] ?? 0, mlim);
    dis[i] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
  }
  const rindex: number[] = [];
  const rha: number[] = [];
  for (let i = dstart; i <= dend; i++) {
    if (dis[i] === 1 || (dis[i] === 2 && !cleanMultimatch(dis, i, dstart, dend))) {
      rindex.push(i);
      rha.push(xdf.ha[i] as number);
    } else {
      setChanged(xdf, i, true);
    }
  }
  return [Int32Array.from(rindex), Int32Array.from(rha)];
}

/** `xdl_clean_mmatch`: discard a multi-match line only inside a run dominated by unmatched lines. */
function cleanMultimatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > SIMSCAN_WINDOW) s = i - SIMSCAN_WINDOW;
  if (e - i > SIMSCAN_WINDOW) e = i + SIMSCAN_WINDOW;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (let r = 1; i - r >= s; r++) {
    const d = dis[i - r];
    if (d === 0) rdis0++;
    else if (d === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (let r = 1; i + r <= e; r++) {
    const d = dis[i + r];
    if (d === 0) rdis1++;
    else if (d === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * KPDIS_RUN < rpdis1 + rdis1;
}

interface SplitPoint {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

interface MyersEnv {
  ha1: Int32Array;
  ha2: Int32Array;
  /** Forward and backward furthest-reaching paths, indexed by diagonal + `base`. */
  kvdf: Int32Array;
  kvdb: Int32Array;
  base: number;
  mxcost: number;
}

/**
 * `xdl_recs_cmp` over the reduced records: divide and conquer on the middle snake. A stack stands
 * in for the recursion; the order of the halves does not matter, they touch disjoint records.
 */
function recsCompare(xdf1: XdFile, rindex1: Int32Array, ha1: Int32Array, xdf2: XdFile, rindex2: Int32Array, ha2: Int32Array): void {
  const ndiags = ha1.length + ha2.length + 3;
  const env: MyersEnv = {
    ha1,
    ha2,
    kvdf: new Int32Array(ndiags),
    kvdb: new Int32Array(ndiags),
    base: ha2.length + 1,
    mxcost: Math.max(bogosqrt(ndiags), MAX_COST_MIN),
  };
  const stack: [number, number, number, number, boolean][] = [[0, ha1.length, 0, ha2.length, false]];
  for (let box = stack.pop(); box; box = stack.pop()) {
    let [off1, lim1, off2, lim2] = box;
    while (off1 < lim1 && off2 < lim2 && ha1[off1] === ha2[off2]) {
      off1++;
      off2++;
    }
    while (off1 < lim1 && off2 < lim2 && ha1[lim1 - 1] === ha2[lim2 - 1]) {
      lim1--;
      lim2--;
    }
    if (off1 === lim1) {
      for (; off2 < lim2; off2++) setChanged(xdf2, rindex2[off2] as number, true);
    } else if (off2 === lim2) {
      for (; off1 < lim1; off1++) setChanged(xdf1, rindex1[off1] as number, true);
    } else {
      const spl = split(env, off1, lim1, off2, lim2, box[4]);
      stack.push([spl.i1, lim1, spl.i2, lim2, spl.minHi], [off1, spl.i1, off2, spl.i2, spl.minLo]);
    }
  }
}

/**
 * `xdl_split`: Myers' bidirectional search for the middle snake of the box, cut short by xdiff's
 * heuristics (a long enough snake far enough along, or `mxcost` exceeded) as git does.
 */
function split(env: MyersEnv, off1: number, lim1: number, off2: number, lim2: number, needMin: boolean): SplitPoint {
  const { ha1, ha2, kvdf, kvdb, base, mxcost } = env;
  const h1 = (i: number): number => ha1[i] as number;
  const h2 = (i: number): number => ha2[i] as number;
  const kf = (d: number): number => kvdf[d + base] as number;
  const kb = (d: number): number => kvdb[d + base] as number;
  const dmin = off1 - lim2;
  const dmax = lim1 - off2;
  const fmid = off1 - off2;
  const bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  kvdf[fmid + base] = off1;
  kvdb[bmid + base] = lim1;

  for (let ec = 1; ; ec++) {
    let gotSnake = false;

    if (fmin > dmin) kvdf[--fmin - 1 + base] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[++fmax + 1 + base] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      let i1 = kf(d - 1) >= kf(d + 1) ? kf(d - 1) + 1 : kf(d + 1);
      const prev1 = i1;
      let i2 = i1 - d;
      for (; i1 < lim1 && i2 < lim2 && h1(i1) === h2(i2); i1++, i2++);
      if (i1 - prev1 > SNAKE_CNT) gotSnake = true;
      kvdf[d + base] = i1;
      if (odd && bmin <= d && d <= bmax && kb(d) <= i1) return { i1, i2, minLo: true, minHi: true };
    }

    if (bmin > dmin) kvdb[--bmin - 1 + base] = LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[++bmax + 1 + base] = LINE_MAX;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      let i1 = kb(d - 1) < kb(d + 1) ? kb(d - 1) : kb(d + 1) - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      for (; i1 > off1 && i2 > off2 && h1(i1 - 1) === h2(i2 - 1); i1--, i2--);
      if (prev1 - i1 > SNAKE_CNT) gotSnake = true;
      kvdb[d + base] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kf(d)) return { i1, i2, minLo: true, minHi: true };
    }

    if (needMin) continue;

    // A diagonal that got far, with a snake of SNAKE_CNT matches behind it, is good enough.
    if (gotSnake && ec > HEUR_MIN_COST) {
      let best = 0;
      let found: SplitPoint | null = null;
      for (let d = fmax; d >= fmin; d -= 2) {
        const dd = d > fmid ? d - fmid : fmid - d;
        const i1 = kf(d);
        const i2 = i1 - d;
        const v = i1 - off1 + (i2 - off2) - dd;
        if (v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2) {
          for (let k = 1; h1(i1 - k) === h2(i2 - k); k++) {
            if (k === SNAKE_CNT) {
              best = v;
              found = { i1, i2, minLo: true, minHi: false };
              break;
            }
          }
        }
      }
      if (found) return found;

      best = 0;
      for (let d = bmax; d >= bmin; d -= 2) {
        const dd = d > bmid ? d - bmid : bmid - d;
        const i1 = kb(d);
        const i2 = i1 - d;
        const v = lim1 - i1 + (lim2 - i2) - dd;
        if (v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT) {
          for (let k = 0; h1(i1 + k) === h2(i2 + k); k++) {
            if (k === SNAKE_CNT - 1) {
              best = v;
              found = { i1, i2, minLo: false, minHi: true };
              break;
            }
          }
        }
      }
      if (found) return found;
    }

    // Too expensive: take the furthest-reaching path found so far.
    if (ec >= mxcost) {
      let fbest = -1;
      let fbest1 = -1;
      for (let d = fmax; d >= fmin; d -= 2) {
        let i1 = Math.min(kf(d), lim1);
        let i2 = i1 - d;
        if (lim2 < i2) {
          i1 = lim2 + d;
          i2 = lim2;
        }
        if (fbest < i1 + i2) {
          fbest = i1 + i2;
          fbest1 = i1;
        }
      }
      let bbest = LINE_MAX;
      let bbest1 = LINE_MAX;
      for (let d = bmax; d >= bmin; d -= 2) {
        let i1 = Math.max(off1, kb(d));
        let i2 = i1 - d;
        if (i2 < off2) {
          i1 = off2 + d;
          i2 = off2;
        }
        if (i1 + i2 < bbest) {
          bbest = i1 + i2;
          bbest1 = i1;
        }
      }
      if (lim1 + lim2 - bbest < fbest - (off1 + off2)) return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
      return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
    }
  }
}

// ------------------------------------------------------------------------------------------------
// xdiff: sliding change groups (xdl_change_compact and the indent heuristic)

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

/** git's `isspace` (sane_ctype): only TAB, LF, CR and space. */
function isGitSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Columns of indentation (TAB = to the next multiple of 8), or -1 for a blank line. */
function getIndent(rec: string): number {
  let ret = 0;
  for (let i = 0; i < rec.length; i++) {
    const c = rec.charCodeAt(i);
    if (!isGitSpace(c)) return ret;
    if (c === 0x20) ret += 1;
    else if (c === 0x09) ret += 8 - (ret % 8);
    if (ret >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface SplitScore {
  effectiveIndent: number;
  penalty: number;
}

/** `measure_split` and `score_add_split`: the badness of splitting the file above record `split`. */
function scoreSplit(xdf: XdFile, split: number, score: SplitScore): void {
  const nrec = xdf.recs.length;
  const rec = (i: number): string => xdf.recs[i] as string;
  const endOfFile = split >= nrec;
  const indentHere = endOfFile ? -1 : getIndent(rec(split));
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = getIndent(rec(i));
    if (preIndent !== -1) break;
    preBlank += 1;
    if (preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlankAfter = 0;
  let postIndent = -1;
  for (let i = split + 1; i < nrec; i++) {
    postIndent = getIndent(rec(i));
    if (postIndent !== -1) break;
    postBlankAfter += 1;
    if (postBlankAfter === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }

  if (preIndent === -1 && preBlank === 0) score.penalty += START_OF_FILE_PENALTY;
  if (endOfFile) score.penalty += END_OF_FILE_PENALTY;
  const postBlank = indentHere === -1 ? 1 + postBlankAfter : 0;
  const totalBlank = preBlank + postBlank;
  score.penalty += TOTAL_BLANK_WEIGHT * totalBlank;
  score.penalty += POST_BLANK_WEIGHT * postBlank;
  const indent = indentHere !== -1 ? indentHere : postIndent;
  const anyBlanks = totalBlank !== 0;
  score.effectiveIndent += indent;
  if (indent === -1 || preIndent === -1) {
    // no adjustment
  } else if (indent > preIndent) {
    score.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  } else if (indent === preIndent) {
    // no adjustment
  } else if (postIndent !== -1 && postIndent > indent) {
    score.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  } else {
    score.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
  }
}

function scoreCompare(s1: SplitScore, s2: SplitScore): number {
  const cmpIndents = Number(s1.effectiveIndent > s2.effectiveIndent) - Number(s1.effectiveIndent < s2.effectiveIndent);
  return INDENT_WEIGHT * cmpIndents + (s1.penalty - s2.penalty);
}

/** A run of changed records `[start, end)`; empty groups sit above the unchanged record `start`. */
interface Group {
  start: number;
  end: number;
}

function groupInit(xdf: XdFile): Group {
  const g = { start: 0, end: 0 };
  while (isChanged(xdf, g.end)) g.end++;
  return g;
}

function groupNext(xdf: XdFile, g: Group): boolean {
  if (g.end === xdf.recs.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; isChanged(xdf, g.end); g.end++);
  return true;
}

function groupPrevious(xdf: XdFile, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; isChanged(xdf, g.start - 1); g.start--);
  return true;
}

function groupSlideDown(xdf: XdFile, g: Group): boolean {
  if (g.end < xdf.recs.length && xdf.ha[g.start] === xdf.ha[g.end]) {
    setChanged(xdf, g.start++, false);
    setChanged(xdf, g.end++, true);
    while (isChanged(xdf, g.end)) g.end++;
    return true;
  }
  return false;
}

function groupSlideUp(xdf: XdFile, g: Group): boolean {
  if (g.start > 0 && xdf.ha[g.start - 1] === xdf.ha[g.end - 1]) {
    setChanged(xdf, --g.start, true);
    setChanged(xdf, --g.end, false);
    while (isChanged(xdf, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

function groupSyncBroken(): never {
  throw new Error('unifiedDiff: change groups out of sync');
}

/**
 * `xdl_change_compact`: slides each group of changed records in `xdf` as far as it can go, merging
 * groups that meet, then settles it next to a change in `xdfo` if possible, else where the indent
 * heuristic scores best. Keeps `xdfo`'s group cursor in step.
 */
function changeCompact(xdf: XdFile, xdfo: XdFile): void {
  const g = groupInit(xdf);
  const go = groupInit(xdfo);
  for (;;) {
    if (g.end !== g.start) {
      let groupSize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupSize = g.end - g.start;
        endMatchingOther = -1;
        while (groupSlideUp(xdf, g)) if (!groupPrevious(xdfo, go)) groupSyncBroken();
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (groupSlideDown(xdf, g)) {
          if (!groupNext(xdfo, go)) groupSyncBroken();
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupSize !== g.end - g.start);

      if (g.end === earliestEnd) {
        // cannot slide
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          if (!groupSlideUp(xdf, g) || !groupPrevious(xdfo, go)) groupSyncBroken();
        }
      } else {
        let shift = Math.max(earliestEnd, g.end - groupSize - 1, g.end - INDENT_HEURISTIC_MAX_SLIDING);
        let bestShift = -1;
        let bestScore: SplitScore = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score: SplitScore = { effectiveIndent: 0, penalty: 0 };
          scoreSplit(xdf, shift, score);
          scoreSplit(xdf, shift - groupSize, score);
          if (bestShift === -1 || scoreCompare(score, bestScore) <= 0) {
            bestScore = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          if (!groupSlideUp(xdf, g) || !groupPrevious(xdfo, go)) groupSyncBroken();
        }
      }
    }
    if (!groupNext(xdf, g)) break;
    if (!groupNext(xdfo, go)) groupSyncBroken();
  }
  if (groupNext(xdfo, go)) groupSyncBroken();
}

/** `xdl_build_script`: the changed runs of both sides, paired up, in file order. */
function buildScript(xdf1: XdFile, xdf2: XdFile): Change[] {
  const script: Change[] = [];
  for (let i1 = xdf1.recs.length, i2 = xdf2.recs.length; i1 >= 0 || i2 >= 0; i1--, i2--) {
    if (isChanged(xdf1, i1 - 1) || isChanged(xdf2, i2 - 1)) {
      const l1 = i1;
      const l2 = i2;
      while (isChanged(xdf1, i1 - 1)) i1--;
      while (isChanged(xdf2, i2 - 1)) i2--;
      script.push({ i1, i2, chg1: l1 - i1, chg2: l2 - i2 });
    }
  }
  return script.reverse();
}

// ------------------------------------------------------------------------------------------------
// Hunks (xemit.c, xutils.c, and diff.c's handling of hunk header lines)

const FUNCNAME_BUFFER = 80;
const HUNK_HEADER_BUFFER = 128;
const NO_NEWLINE = '\n\\ No newline at end of file\n';

/** xemit.c's `def_ff`: a line starting with a letter, `_` or `$`, cut to 80 bytes, right-trimmed. */
function defaultFuncname(rec: string): string | null {
  const c = rec.charCodeAt(0);
  const isAlpha = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (!(isAlpha || c === 0x5f || c === 0x24)) return null;
  let len = Math.min(rec.length, FUNCNAME_BUFFER);
  while (len > 0 && isGitSpace(rec.charCodeAt(len - 1))) len--;
  return rec.slice(0, len);
}

/** How many leading bytes decode as UTF-8 by git's `pick_one_utf8_char` (which rejects U+FFFE/F). */
function utf8ValidPrefix(s: string): number {
  const at = (i: number): number => s.charCodeAt(i);
  const cont = (i: number): boolean => (at(i) & 0xc0) === 0x80;
  let i = 0;
  while (i < s.length) {
    const c = at(i);
    const left = s.length - i;
    if (c < 0x80) {
      i += 1;
    } else if ((c & 0xe0) === 0xc0) {
      if (left < 2 || !cont(i + 1) || (c & 0xfe) === 0xc0) break;
      i += 2;
    } else if ((c & 0xf0) === 0xe0) {
      if (left < 3 || !cont(i + 1) || !cont(i + 2)) break;
      if (c === 0xe0 && (at(i + 1) & 0xe0) === 0x80) break;
      if (c === 0xed && (at(i + 1) & 0xe0) === 0xa0) break;
      if (c === 0xef && at(i + 1) === 0xbf && (at(i + 2) & 0xfe) === 0xbe) break;
      i += 3;
    } else if ((c & 0xf8) === 0xf0) {
      if (left < 4 || !cont(i + 1) || !cont(i + 2) || !cont(i + 3)) break;
      if ((c === 0xf0 && (at(i + 1) & 0xf0) === 0x80) || (c === 0xf4 && at(i + 1) > 0x8f) || c > 0xf4) break;
      i += 4;
    } else {
      break;
    }
  }
  return i;
}

/**
 * `xdl_emit_hunk_hdr`, then diff.c's `sane_truncate_line`: a header whose function name was cut
 * inside a UTF-8 character (or is not UTF-8) ends where the valid text ends.
 */
function hunkHeader(s1: number, c1: number, s2: number, c2: number, funcname: string): string {
  let line = `@@ -${c1 ? s1 + 1 : s1}${c1 !== 1 ? `,${c1}` : ''} +${c2 ? s2 + 1 : s2}${c2 !== 1 ? `,${c2}` : ''} @@`;
  if (funcname) line += ` ${funcname.slice(0, HUNK_HEADER_BUFFER - line.length - 2)}`;
  line += '\n';
  const valid = utf8ValidPrefix(line);
  return valid === line.length ? line : `${line.slice(0, valid)}\n`;
}

function emitRecord(prefix: string, rec: string): string {
  return rec.endsWith('\n') ? prefix + rec : prefix + rec + NO_NEWLINE;
}

/** The hunks of `git diff -U<context>` between two texts, as a byte string ('' when equal). */
function diffHunks(oldBytes: Uint8Array, newBytes: Uint8Array, context: number): string {
  if (context === 0) [oldBytes, newBytes] = trimCommonTail(oldBytes, newBytes);
  const [xdf1, xdf2] = doDiff(toByteString(oldBytes), toByteString(newBytes));
  changeCompact(xdf1, xdf2);
  changeCompact(xdf2, xdf1);
  const script = buildScript(xdf1, xdf2);
  const n1 = xdf1.recs.length;
  const n2 = xdf2.recs.length;
  const rec1 = (i: number): string => xdf1.recs[i] as string;
  const rec2 = (i: number): string => xdf2.recs[i] as string;
  const maxCommon = 2 * context;
  let out = '';
  let funcname = '';
  let funclinePrev = -1;

  for (let first = 0; first < script.length; ) {
    let last = first;
    for (; last + 1 < script.length; last++) {
      const prev = script[last] as Change;
      if ((script[last + 1] as Change).i1 - (prev.i1 + prev.chg1) > maxCommon) break;
    }
    const xch = script[first] as Change;
    const xche = script[last] as Change;
    const s1 = Math.max(xch.i1 - context, 0);
    const s2 = Math.max(xch.i2 - context, 0);
    const lctx = Math.min(context, n1 - (xche.i1 + xche.chg1), n2 - (xche.i2 + xche.chg2));
    const e1 = xche.i1 + xche.chg1 + lctx;
    const e2 = xche.i2 + xche.chg2 + lctx;

    // git searches only back to where the previous hunk's search started and otherwise keeps that
    // hunk's name: the same as the nearest match at or before s1 - 1.
    for (let l = s1 - 1; l > funclinePrev && l >= 0; l--) {
      const found = defaultFuncname(rec1(l));
      if (found !== null) {
        funcname = found;
        break;
      }
    }
    funclinePrev = s1 - 1;
    out += hunkHeader(s1, e1 - s1, s2, e2 - s2, funcname);

    for (let i = s2; i < xch.i2; i++) out += emitRecord(' ', rec2(i));
    let p1 = xch.i1;
    let p2 = xch.i2;
    for (let k = first; k <= last; k++) {
      const c = script[k] as Change;
      for (; p1 < c.i1 && p2 < c.i2; p1++, p2++) out += emitRecord(' ', rec2(p2));
      for (let i = c.i1; i < c.i1 + c.chg1; i++) out += emitRecord('-', rec1(i));
      for (let i = c.i2; i < c.i2 + c.chg2; i++) out += emitRecord('+', rec2(i));
      p1 = c.i1 + c.chg1;
      p2 = c.i2 + c.chg2;
    }
    for (let i = xche.i2 + xche.chg2; i < e2; i++) out += emitRecord(' ', rec2(i));
    first = last + 1;
  }
  return out;
}
