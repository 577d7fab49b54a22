// How a term compares what a note holds with what the query asks: link targets, tags, property
// keys and values.

/** `[[target#heading|alias]]` anywhere in a string; group 1 is the target. */
const LINK = /\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]/g;
/** A string that is exactly one link. */
export const WHOLE_LINK = /^\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]$/;

/** A link's target matches the resolved path, or (unresolved) the link text with or without `.md`. */
export function sameTarget(target: string, resolved: string | null, text: string): boolean {
  if (resolved !== null) return target === resolved;
  const have = target.toLowerCase();
  const want = text.toLowerCase();
  return have === want || have === `${want}.md`;
}

export function lowerCase(text: string): string {
  return text.toLowerCase();
}

export function normalizeTag(tag: string): string {
  return tag.trim().replace(/^#/, '').toLowerCase();
}

/** Strips one pair of surrounding quotes, as YAML writes `"[[Page]]"`. */
export function unquote(value: string): string {
  return value.length >= 2 && /^(["']).*\1$/s.test(value) ? value.slice(1, -1) : value;
}

/** The forms a property value is compared in: as written, and with each link read as its page name. */
export function valueForms(value: string): string[] {
  const plain = unquote(value.trim()).toLowerCase();
  const unlinked = plain.replace(LINK, (_match, target: string) => target.trim());
  return unlinked === plain ? [plain] : [plain, unlinked];
}
