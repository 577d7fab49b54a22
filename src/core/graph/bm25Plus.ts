/**
 * The relevance of one term in one field of one document, by BM25 (Robertson and Zaragoza, "The
 * Probabilistic Relevance Framework: BM25 and Beyond", 2009) with the lower bound of BM25+ (Lv and
 * Zhai, "Lower-Bounding Term Frequency Normalization", 2011): a term's weight grows with how often
 * the field holds it, less and less (saturation, `K1`), is diluted by a field longer than average
 * (`B`), and never falls below `DELTA` for a field that holds it at all, however long, so a long
 * note that mentions a word still ranks above one that does not.
 */

/** How quickly repeats of a term stop adding weight: 0 counts one occurrence as many, larger values approach counting each. */
const K1 = 1.2;
/** How much a field longer than average dilutes a match: 0 not at all, 1 in proportion to its length. */
const B = 0.75;
/** BM25+'s lower bound on a match's term-frequency weight. */
const DELTA = 1;

/**
 * Inverse document frequency: how rare, and so how telling, a term is among `documents`
 * documents of which `matching` hold it (the BM25 form, kept positive by the `1 +`).
 */
export function inverseDocumentFrequency(documents: number, matching: number): number {
  return Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
}

/** The term-frequency weight of a term found `frequency` times in a field of `length` terms, fields averaging `averageLength`. */
export function termFrequencyWeight(frequency: number, length: number, averageLength: number): number {
  const relativeLength = averageLength > 0 ? length / averageLength : 1;
  return (frequency * (K1 + 1)) / (frequency + K1 * (1 - B + B * relativeLength)) + DELTA;
}
