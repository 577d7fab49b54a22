import { compareUnits } from '../util/compareCodePoints';
import type { TermDictionary } from './termDictionary';

/** An index term a query term matches, and how much a match through it counts (1 for the term itself). */
export interface TermMatch {
  term: string;
  weight: number;
}

/** A prefix or typo match counts at most this much of an exact one, less the more characters differ. */
const PREFIX_WEIGHT = 0.5;
const FUZZY_WEIGHT = 0.5;
/** The most edits a typo match allows, however long the term. */
const MAX_EDITS = 6;

/** How many edits a typo match of `term` allows at `fuzziness` (a share of its length, 0 for none). */
export function editsAllowed(term: string, fuzziness: number): number {
  return Math.min(MAX_EDITS, Math.round(term.length * Math.max(0, fuzziness)));
}

/**
 * The index terms `queryTerm` matches in `dictionaries`, each once with its best weight, sorted:
 * the term itself (weight 1); the longer terms it begins (half the share of their characters
 * typed: "gard" → "garden" 0.5 × 4/6); the terms within `editsAllowed` edits (half the share of
 * the query's characters that are right: "gardem" → "garden" 0.5 × 5/6). Both stay below an exact
 * match, which a document holding the exact word therefore always outranks, all else equal.
 */
export function termMatches(queryTerm: string, fuzziness: number, dictionaries: readonly TermDictionary[]): TermMatch[] {
  const weights = new Map<string, number>();
  const offer = (term: string, weight: number): void => {
    if (weight > (weights.get(term) ?? 0)) weights.set(term, weight);
  };
  const edits = editsAllowed(queryTerm, fuzziness);
  for (const dictionary of dictionaries) {
    const [from, to] = dictionary.prefixRange(queryTerm);
    for (let id = from; id < to; id += 1) {
      const term = dictionary.term(id);
      offer(term, term === queryTerm ? 1 : (PREFIX_WEIGHT * queryTerm.length) / term.length);
    }
    if (edits === 0) continue;
    for (const [id, distance] of dictionary.fuzzy(queryTerm, edits)) {
      offer(dictionary.term(id), distance === 0 ? 1 : FUZZY_WEIGHT * Math.max(0, 1 - distance / queryTerm.length));
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight })).sort((a, b) => compareUnits(a.term, b.term));
}
