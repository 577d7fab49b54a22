import pako from 'pako';
import compressedRanks from 'recursa:cl100k-ranks';
import { z85Decode } from '../text/z85';
import type { Steps } from '../util/steps';
import { RankTable } from './rankTable';

/** A byte-pair encoding's table: its ranks, and the pattern that cuts text into pieces. */
export interface BpeTable {
  ranks: RankTable;
  /** What cuts text into the pieces that are encoded one by one (a `u`-flag pattern). */
  pattern: string;
}

/** The JSON js-tiktoken keeps its tables in. */
interface TiktokenJson {
  pat_str: string;
  bpe_ranks: string;
}

/** Z85 characters decoded per step (a multiple of five). */
const Z85_STEP = 20_000;
/** Deflated bytes inflated per step. */
const INFLATE_STEP = 4 * 1024;
/** Tokens put in the table per step. */
const TOKEN_STEP = 1024;

/**
 * js-tiktoken's `cl100k_base` table, from the copy the build inlines (raw-deflated JSON in Z85,
 * see scripts/cl100k-ranks.mjs), in steps: built at once it held a phone's main thread for seconds.
 */
export function* readCl100kTable(): Steps<BpeTable> {
  const { z85, byteLength } = compressedRanks;
  const deflated = new Uint8Array((z85.length / 5) * 4);
  for (let at = 0; at < z85.length; at += Z85_STEP) {
    deflated.set(z85Decode(z85.slice(at, at + Z85_STEP)), (at / 5) * 4);
    yield;
  }
  const inflater = new pako.Inflate({ raw: true });
  for (let at = 0; at < byteLength; at += INFLATE_STEP) {
    const end = Math.min(at + INFLATE_STEP, byteLength);
    inflater.push(deflated.subarray(at, end), end === byteLength);
    // zlib's return code, 0 (Z_OK) unless the stream is damaged.
    if (inflater.err) throw new Error(`The token table could not be inflated: ${inflater.msg}`);
    yield;
  }
  const json = JSON.parse(new TextDecoder().decode(inflater.result as Uint8Array)) as TiktokenJson;
  yield;
  return { ranks: yield* rankTable(json.bpe_ranks), pattern: json.pat_str };
}

/**
 * js-tiktoken's rank lines: `<name> <first rank> <token> <token> …`, each token its bytes in
 * base64 and ranked one after the one before it.
 */
function* rankTable(text: string): Steps<RankTable> {
  const lines = text.split('\n');
  let tokens = 0;
  for (const line of lines) for (let space = line.indexOf(' '); space >= 0; space = line.indexOf(' ', space + 1)) tokens++;
  // Base64 is four characters for three bytes: the text is more than enough room.
  const ranks = new RankTable(tokens, text.length);
  yield;
  for (const line of lines) {
    const nameEnd = line.indexOf(' ');
    if (nameEnd < 0) continue;
    const rankEnd = line.indexOf(' ', nameEnd + 1);
    let rank = Number.parseInt(line.slice(nameEnd + 1, rankEnd < 0 ? line.length : rankEnd), 10);
    for (let start = rankEnd + 1; rankEnd >= 0 && start <= line.length; rank++) {
      const end = line.indexOf(' ', start);
      ranks.addBase64(line, start, end < 0 ? line.length : end, rank);
      if (rank % TOKEN_STEP === 0) yield;
      if (end < 0) break;
      start = end + 1;
    }
  }
  return ranks;
}
