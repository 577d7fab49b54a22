/** FNV-1a over UTF-16 code units, as an Int32Array keeps it: `EMPTY_HASH`, then `hashStep` for each. */
export const EMPTY_HASH = 0x811c9dc5 | 0;

export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** The hash of `source` from `start` to `end`, from `basis` (FNV's own unless given). */
export function wordHash(source: string, start: number, end: number, basis = EMPTY_HASH): number {
  let hash = basis;
  for (let at = start; at < end; at += 1) hash = hashStep(hash, source.charCodeAt(at));
  return hash;
}
