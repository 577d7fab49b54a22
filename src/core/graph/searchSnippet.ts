const SNIPPET_CHARS = 160;

/** A short stretch of `body` around the first of `terms` in it (its start when none is), on one line. */
export function snippetOf(body: string, terms: readonly string[]): string {
  const lower = body.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = lower.indexOf(term.toLowerCase());
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  const start = Math.max(0, at - SNIPPET_CHARS / 2);
  const text = body.slice(start, start + SNIPPET_CHARS).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${text}${start + SNIPPET_CHARS < body.length ? '…' : ''}`;
}
