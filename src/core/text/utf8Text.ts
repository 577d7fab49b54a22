import type { Slicer } from '../util/Slicer';

const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/**
 * Writes `text` as UTF-8 into `out` at `at` (room for it assumed: at most three bytes per UTF-16
 * code unit); gives where it ends. ASCII, which names in a vault nearly always are, is copied a
 * code unit at a time, with no call into the encoder.
 */
export function writeUtf8(out: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) return at + encoder.encodeInto(text, out.subarray(at)).written;
    out[at + i] = unit;
  }
  return at + text.length;
}

// Exactly the text: a leading byte-order mark stays.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Lines `wanted` (ascending line numbers) of a UTF-8 text, decoding those lines alone; `undefined`
 * for a line past the end. A newline byte is never part of another character in UTF-8, so the
 * lines are exactly those of `text.split('\n')`.
 */
export function utf8Lines(bytes: Uint8Array, wanted: readonly number[]): (string | undefined)[] {
  const found: (string | undefined)[] = [];
  let next = 0;
  let line = 0;
  let start = 0;
  while (next < wanted.length) {
    // The engine's own byte search finds line ends far quicker than a loop over the bytes.
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    while (next < wanted.length && wanted[next] === line) {
      found.push(decoder.decode(bytes.subarray(start, end)));
      next += 1;
    }
    if (newline < 0) break;
    line += 1;
    start = newline + 1;
  }
  while (next < wanted.length) {
    found.push(undefined);
    next += 1;
  }
  return found;
}

/** ASCII letters from the most to the least common in English text: the rarest of a query's is searched for. */
const LETTERS_BY_FREQUENCY = 'etaoinsrhdlcumwfgypbvkjxqz';

/**
 * Whether a UTF-8 text may contain `lowered` (an ASCII text, lower-cased) once the text itself is
 * lower-cased: false only when it certainly does not. Reads the bytes without decoding them,
 * finding the query's rarest letter (either case) with the engine's own byte search and comparing
 * around it. Only two characters outside ASCII lower-case into ASCII letters (İ to "i̇" and the
 * Kelvin sign to "k"): for a query with an "i" or a "k", a text with either is always a "may".
 * Undecided (true) for a `lowered` that is not ASCII.
 */
export function mayContainLowered(bytes: Uint8Array, lowered: string): boolean {
  const length = lowered.length;
  if (length === 0) return true;
  for (let i = 0; i < length; i += 1) if (lowered.charCodeAt(i) >= 0x80) return true;
  // Each looked for by its rarest byte: C4 leads few characters in English text, E2 leads every dash and curly quote.
  if (lowered.includes('i') && hasSequence(bytes, [0xc4, 0xb0], 0)) return true;
  if (lowered.includes('k') && hasSequence(bytes, [0xe2, 0x84, 0xaa], 1)) return true;
  const anchor = anchorOf(lowered);
  const lower = lowered.charCodeAt(anchor);
  const upper = lower >= 0x61 && lower <= 0x7a ? lower - 0x20 : lower;
  const first = anchor;
  const last = bytes.length - length + anchor;
  let lowerAt = bytes.indexOf(lower, first);
  let upperAt = upper === lower ? -1 : bytes.indexOf(upper, first);
  while (lowerAt >= 0 || upperAt >= 0) {
    const at = lowerAt < 0 ? upperAt : upperAt < 0 ? lowerAt : Math.min(lowerAt, upperAt);
    if (at > last) return false;
    const start = at - anchor;
    let matched = 0;
    while (matched < length && foldAscii(bytes[start + matched] as number) === lowered.charCodeAt(matched)) matched += 1;
    if (matched === length) return true;
    if (at === lowerAt) lowerAt = bytes.indexOf(lower, at + 1);
    else upperAt = bytes.indexOf(upper, at + 1);
  }
  return false;
}

/** Where in `lowered` its rarest character is: a letter late in `LETTERS_BY_FREQUENCY`, or any other character (digits and symbols are rarer still, spaces are not). */
function anchorOf(lowered: string): number {
  let best = 0;
  let bestRank = -1;
  for (let i = 0; i < lowered.length; i += 1) {
    const char = lowered.charAt(i);
    const rank = char === ' ' ? -1 : LETTERS_BY_FREQUENCY.includes(char) ? LETTERS_BY_FREQUENCY.indexOf(char) : LETTERS_BY_FREQUENCY.length;
    if (rank > bestRank) {
      best = i;
      bestRank = rank;
    }
  }
  return best;
}

function foldAscii(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

/** Whether `bytes` holds `sequence`, looked for by its byte at `anchor`. */
function hasSequence(bytes: Uint8Array, sequence: readonly number[], anchor: number): boolean {
  for (let at = bytes.indexOf(sequence[anchor] as number, anchor); at >= 0; at = bytes.indexOf(sequence[anchor] as number, at + 1)) {
    const start = at - anchor;
    if (start + sequence.length > bytes.length) return false;
    if (sequence.every((byte, i) => bytes[start + i] === byte)) return true;
  }
  return false;
}

/**
 * All lines of a UTF-8 text, as `text.split('\n')` gives them, decoded `chunkBytes` (then up to
 * the next line break) at a time with pauses between: for texts of many MB, such as a saved
 * vocabulary.
 */
export async function splitUtf8Lines(bytes: Uint8Array, slicer: Slicer, chunkBytes = 1 << 18): Promise<string[]> {
  const lines: string[] = [];
  for (let start = 0; start <= bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, Math.min(bytes.length, start + chunkBytes));
    const end = newline < 0 ? bytes.length : newline;
    for (const line of decoder.decode(bytes.subarray(start, end)).split('\n')) lines.push(line);
    start = end + 1;
    await slicer.maybeYield();
  }
  return lines;
}
