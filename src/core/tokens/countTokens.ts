import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import pako from 'pako';
import compressedRanks from 'recursa:cl100k-ranks';
import { z85Decode } from '../text/z85';
import { Slicer } from '../util/Slicer';

let encoder: Tiktoken | null = null;

/**
 * BPE merging is quadratic in the length of one pre-tokenized piece, and a piece can be a whole
 * run of letters or of whitespace: 8,000 letters without a space cost seconds. Runs longer than
 * this are counted in slices of this size — a count off by a token or two at each cut, on text
 * no tokenizer handles well anyway.
 */
const LONGEST_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${LONGEST_RUN + 1},}|\\s{${LONGEST_RUN + 1},}`, 'gu');
/** Text is encoded in pieces of about this many characters, cut at whitespace. */
const PIECE_CHARS = 16_384;

/**
 * Number of BPE tokens in `text` under `cl100k_base`, the encoding of the GPT-4 / GPT-3.5
 * family; other models' tokenizers land within a few percent on English prose. Special-token
 * spellings such as `<|endoftext|>` count as ordinary text (a note may contain them).
 *
 * The encoder's rank table ships compressed; it is inflated and the encoder built on first use
 * (a few hundred milliseconds), not at startup.
 */
export function countTokens(text: string): number {
  let total = 0;
  for (const piece of pieces(text)) total += encode(piece);
  return total;
}

/**
 * `countTokens` for large texts on the app's main thread: the same count, with the work cut into
 * slices that yield to the event loop.
 */
export async function countTokensInSlices(text: string, slicer = new Slicer()): Promise<number> {
  let total = 0;
  for (const piece of pieces(text)) {
    total += encode(piece);
    await slicer.maybeYield();
  }
  return total;
}

function encode(text: string): number {
  encoder ??= new Tiktoken(cl100kRanks());
  return encoder.encode(text, [], []).length;
}

/**
 * js-tiktoken's `cl100k_base` table, exactly: the build inlines it as its raw-deflated JSON in Z85
 * (scripts/cl100k-ranks.mjs), 0.61 MB instead of 1.1 MB of JavaScript in every bundle.
 */
function cl100kRanks(): TiktokenBPE {
  const compressed = z85Decode(compressedRanks.z85).subarray(0, compressedRanks.byteLength);
  return JSON.parse(new TextDecoder().decode(pako.inflateRaw(compressed))) as TiktokenBPE;
}

/** Cuts `text` at whitespace into pieces of about `PIECE_CHARS`, and over-long runs into slices. */
function* pieces(text: string): Generator<string> {
  let start = 0;
  LONG_RUN.lastIndex = 0;
  for (let match = LONG_RUN.exec(text); match !== null; match = LONG_RUN.exec(text)) {
    yield* plainPieces(text.slice(start, match.index));
    for (let at = 0; at < match[0].length; at += LONGEST_RUN) yield match[0].slice(at, at + LONGEST_RUN);
    start = match.index + match[0].length;
  }
  yield* plainPieces(text.slice(start));
}

function* plainPieces(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > PIECE_CHARS) {
    const cut = text.lastIndexOf(' ', start + PIECE_CHARS);
    const end = cut > start ? cut : start + PIECE_CHARS;
    yield text.slice(start, end);
    start = end;
  }
  if (start < text.length) yield text.slice(start);
}
