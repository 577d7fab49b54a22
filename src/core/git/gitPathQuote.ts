/**
 * Paths as git prints them with its default `core.quotePath=true` (git-config(1)): a name holding
 * an "unusual" byte — a control character, DEL, `"`, `\` or any byte of 0x80 and above — is put
 * in double quotes, with C escapes for the common control characters, `\"` and `\\`, and a
 * three-digit octal escape for every other unusual byte (so `é` becomes `\303\251`). Other names
 * are printed as they are, spaces included.
 */

/** The letter escapes C uses for control characters; the rest are written in octal. */
const LETTER_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x07, '\\a'],
  [0x08, '\\b'],
  [0x09, '\\t'],
  [0x0a, '\\n'],
  [0x0b, '\\v'],
  [0x0c, '\\f'],
  [0x0d, '\\r'],
  [0x22, '\\"'],
  [0x5c, '\\\\'],
]);

const encoder = new TextEncoder();

function isUnusual(byte: number): boolean {
  return byte < 0x20 || byte >= 0x7f || byte === 0x22 || byte === 0x5c;
}

/**
 * `name` (typically `a/` or `b/` followed by a path) as git prints it in a patch header.
 *
 * @param name the text to print, e.g. `a/Notes/été.md`.
 * @returns `name` unchanged when every byte of its UTF-8 form is plain, otherwise the quoted form.
 * @example
 * quoteGitPath('a/Notes/a b.md'); // 'a/Notes/a b.md'
 * quoteGitPath('a/Notes/été.md'); // '"a/Notes/\\303\\251t\\303\\251.md"'
 */
export function quoteGitPath(name: string): string {
  const bytes = encoder.encode(name);
  if (!bytes.some(isUnusual)) return name;
  let quoted = '"';
  for (const byte of bytes) {
    if (!isUnusual(byte)) quoted += String.fromCharCode(byte);
    else quoted += LETTER_ESCAPES.get(byte) ?? `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${quoted}"`;
}
