import { EMPTY_HASH, hashStep } from './termTable';

/** Words split at spaces, punctuation and symbols: `[[Page|alias]]` and `` `code` `` must yield their words. */
const WORD_BREAK = /[\n\r\p{Z}\p{P}\p{S}]+/u;
/** The ASCII part of `WORD_BREAK` (line breaks, space, punctuation, symbols), by character code: 1 breaks. */
const ASCII_BREAKS = asciiBreaks();

function asciiBreaks(): Uint8Array {
  const breaks = new Uint8Array(128);
  for (const [from, to] of [[0x0a, 0x0a], [0x0d, 0x0d], [0x20, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]] as const) breaks.fill(1, from, to + 1);
  return breaks;
}

/** Longer "words" are hashes, base64 or URLs run together: nobody searches for them, and they cost memory. */
const MAX_TERM_LENGTH = 48;

/**
 * English function words: in most notes, and too common to rank anything. Leaving them out of the
 * index saves about a fifth of its postings; a query made only of them finds nothing.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have he her hers him his ' +
    'i if in into is it its me my of on or our ours she so than that the their them then there these they this ' +
    'those to us was we were what when where which while who whom why will with would you your'
  ).split(' '),
);

/** Whether a word is indexed: not empty, not over-long, not a stop word (all of which are at most five letters). */
export function keepTerm(word: string): boolean {
  const length = word.length;
  return length !== 0 && length <= MAX_TERM_LENGTH && (length > 5 || !STOP_WORDS.has(word));
}

/** Where `scanWords` puts the words it finds. */
export interface WordSink {
  /** An all-ASCII word: `lower` from `start` to `end` (no string made for it), whose `wordHash` is `hash`. */
  asciiWord(lower: string, start: number, end: number, hash: number): void;
  /** A word with other characters, as split at Unicode's breaks. */
  word(word: string): void;
}

/**
 * Finds the words of `text`, lower-cased, in order, stop words and all (`keepTerm` says which are
 * terms). Breaks at ASCII breaks character by character; only a piece with other characters is
 * split again at Unicode's breaks. Words that are all ASCII (almost every word of most vaults)
 * are given as ranges, so that a build looks them up without making a string of each.
 */
export function scanWords(text: string, sink: WordSink): void {
  const lower = text.toLowerCase();
  const length = lower.length;
  let start = 0;
  let ascii = true;
  // Hashed as scanned: the term table would otherwise read every word a second time.
  let hash = EMPTY_HASH;
  for (let at = 0; at <= length; at += 1) {
    const code = at < length ? lower.charCodeAt(at) : 0x0a;
    if (code >= 0x80) {
      ascii = false;
      continue;
    }
    if (ASCII_BREAKS[code] === 0) {
      hash = hashStep(hash, code);
      continue;
    }
    if (at > start) {
      if (ascii) sink.asciiWord(lower, start, at, hash);
      else for (const word of lower.slice(start, at).split(WORD_BREAK)) if (word !== '') sink.word(word);
    }
    start = at + 1;
    ascii = true;
    hash = EMPTY_HASH;
  }
}

/** The terms of `text`, lower-cased, in order, without stop words: how notes and queries alike are split. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  const keep = (word: string): void => {
    if (keepTerm(word)) terms.push(word);
  };
  scanWords(text, { asciiWord: (lower, start, end) => keep(lower.slice(start, end)), word: keep });
  return terms;
}

/** How often each term occurs. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
