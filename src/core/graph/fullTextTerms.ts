/** Words split at spaces, punctuation and symbols: `[[Page|alias]]` and `` `code` `` must yield their words. */
const WORD_BREAK = /[\n\r\p{Z}\p{P}\p{S}]+/u;
/** The ASCII part of `WORD_BREAK` (space, punctuation, symbols): much faster to split by. */
const ASCII_WORD_BREAK = /[\n\r\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+/;
const NON_ASCII = /[\u0080-\uffff]/;

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

function keepTerm(term: string): boolean {
  return term !== '' && term.length <= MAX_TERM_LENGTH && !STOP_WORDS.has(term);
}

/** The terms of `text`, lower-cased, in order, without stop words: how notes and queries alike are split. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  // Split at ASCII breaks first; only the few pieces with other characters need the Unicode split.
  for (const piece of text.toLowerCase().split(ASCII_WORD_BREAK)) {
    if (!NON_ASCII.test(piece)) {
      if (keepTerm(piece)) terms.push(piece);
      continue;
    }
    for (const term of piece.split(WORD_BREAK)) if (keepTerm(term)) terms.push(term);
  }
  return terms;
}

/** How often each term occurs. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
