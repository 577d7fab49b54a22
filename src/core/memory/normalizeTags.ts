/**
 * Tags as memory notes keep them: lower case, spaces and underscores turned into hyphens, every
 * other character that is not a letter, a digit, `-` or `/` (nested tags) dropped; runs of hyphens
 * and slashes collapsed, empty results and duplicates left out. Order is kept.
 *
 * @example
 * normalizeTags(['Bug Fix', 'auth_flow', '#Q3!']); // ['bug-fix', 'auth-flow', 'q3']
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of tags) {
    const tag = normalizeTag(raw);
    if (tag !== '') seen.add(tag);
  }
  return [...seen];
}

export function normalizeTag(raw: string): string {
  return raw
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s_]+/gu, '-')
    .replace(/[^\p{L}\p{N}\-/]/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/\/{2,}/g, '/')
    .replace(/^[-/]+|[-/]+$/g, '')
    .split('/')
    .map((part) => part.replace(/^-+|-+$/g, ''))
    .filter((part) => part !== '')
    .join('/');
}
