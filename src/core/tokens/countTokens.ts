import { latin1String } from '../text/asciiString';
import { Slicer } from '../util/Slicer';
import { runSteps, runStepsInSlices } from '../util/steps';
import { readCl100kTable, type BpeTable } from './cl100kTable';
import type { RankTable } from './rankTable';

let table: BpeTable | null = null;
let loading: Promise<BpeTable> | null = null;
/** The table's pattern, compiled once. */
let pattern: RegExp | null = null;

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
 * spellings such as `<|endoftext|>` count as ordinary text (a note may contain them). The count
 * is the length of js-tiktoken's encoding of the text.
 *
 * The rank table ships compressed and is read on first use, not at startup: on the app's main
 * thread, `loadTokenizer` first, which reads it in slices; read here, it takes a few hundred
 * milliseconds in one go.
 */
export function countTokens(text: string): number {
  const read = (table ??= runSteps(readCl100kTable()));
  let total = 0;
  for (const piece of pieces(text)) total += encodedLength(piece, read);
  return total;
}

/**
 * Reads the rank table in slices, once; `countTokens` then counts without a pause. Callers that
 * ask meanwhile wait for the same read, which no caller's signal stops.
 */
export async function loadTokenizer(): Promise<void> {
  await tokenTable();
}

async function tokenTable(): Promise<BpeTable> {
  if (table !== null) return table;
  loading ??= runStepsInSlices(readCl100kTable(), new Slicer()).then(
    (read) => (table ??= read),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * `countTokens` for large texts on the app's main thread: the same count, with the work cut into
 * slices that yield to the event loop.
 */
export async function countTokensInSlices(text: string, slicer = new Slicer()): Promise<number> {
  const read = await tokenTable();
  let total = 0;
  for (const piece of pieces(text)) {
    total += encodedLength(piece, read);
    await slicer.maybeYield();
  }
  return total;
}

/** Tokens in `text`: each piece the table's pattern cuts, merged byte pair by byte pair. */
function encodedLength(text: string, { ranks, pattern: source }: BpeTable): number {
  pattern ??= new RegExp(source, 'gu');
  let total = 0;
  for (const match of text.matchAll(pattern)) total += pieceLength(utf8Bytes(match[0]), ranks);
  return total;
}

/**
 * The number of tokens a piece's bytes make: the adjacent pair whose joined bytes rank lowest
 * (the leftmost of equals) is merged until no joined pair is a token.
 */
function pieceLength(bytes: string, ranks: RankTable): number {
  if (bytes.length === 1 || ranks.get(bytes) !== undefined) return 1;
  const bounds = Array.from({ length: bytes.length + 1 }, (_, at) => at);
  for (;;) {
    let merge = -1;
    let lowest = Infinity;
    for (let i = 0; i + 2 < bounds.length; i++) {
      const rank = ranks.get(bytes, bounds[i], bounds[i + 2]);
      if (rank !== undefined && rank < lowest) {
        lowest = rank;
        merge = i;
      }
    }
    if (merge < 0) break;
    bounds.splice(merge + 1, 1);
  }
  let parts = 0;
  for (let i = 0; i + 1 < bounds.length; i++) if (ranks.get(bytes, bounds[i], bounds[i + 1]) !== undefined) parts++;
  return parts;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text`, one character per byte: ASCII text is its own. */
function utf8Bytes(text: string): string {
  let ascii = true;
  for (let at = 0; at < text.length && ascii; at++) ascii = text.charCodeAt(at) < 0x80;
  return ascii ? text : latin1String(encoder.encode(text));
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
