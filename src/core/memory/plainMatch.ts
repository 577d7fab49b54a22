const WORD_BREAK = /[\n\r\p{Z}\p{P}\p{S}]+/u;

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(WORD_BREAK).filter((word) => word !== '');
}

/**
 * How well `text` matches `query` without an index: each query word scores 1 when it appears in
 * the text, 0.8 when a word of the text starts with it, 0.5 when a word is within the typo
 * tolerance (`fuzzy` × its length edits, as the search index counts them); the score is the
 * mean over the query's words, 0 when none matched. The fallback when the vault has no index,
 * and the ranking across vaults.
 */
export function plainMatch(text: string, query: string, fuzzy = 0.2): number {
  const terms = [...new Set(wordsOf(query))];
  if (terms.length === 0) return 0;
  const lower = text.toLowerCase();
  const words = [...new Set(wordsOf(text))];
  let total = 0;
  for (const term of terms) {
    if (lower.includes(term)) total += 1;
    else if (words.some((word) => word.startsWith(term))) total += 0.8;
    else {
      const edits = Math.floor(term.length * fuzzy);
      if (edits > 0 && words.some((word) => Math.abs(word.length - term.length) <= edits && editDistance(word, term, edits) <= edits)) total += 0.5;
    }
  }
  return Math.round((total / terms.length) * 1000) / 1000;
}

/** Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}
