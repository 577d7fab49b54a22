/** What an absolute path of the host machine becomes in text the model sees. */
export const HOST_PATH = '<host path>';
/** What the vault folder itself becomes (paths inside it become vault-relative). */
export const VAULT_ROOT = '<vault>';

/** What may stand right before an unquoted absolute path. */
const BEFORE = String.raw`(^|[\s(=,\[<])`;
/** Characters of one path segment where the path is not quoted (no spaces: the end cannot be told). */
const SEGMENT = String.raw`[^\s'"\x60<>|()\[\]{},;:*?/\\]+`;

/** The `:line:column` a stack frame adds. */
const LINE = String.raw`(?::\d+){0,2}`;

const QUOTED_ABSOLUTE = /(['"\x60])((?:file:\/\/|node:internal\/|[A-Za-z]:[\\/]|\\\\|\/(?!\/))[^'"\x60\r\n]*)\1/g;
const FILE_URL = /\bfile:\/\/[^\s'"\x60<>()]*/g;
const NODE_INTERNAL = /\bnode:internal\/[^\s'"\x60<>()]*/g;
const WINDOWS_PATH = new RegExp(String.raw`${BEFORE}(?:[A-Za-z]:|\\\\${SEGMENT})(?:[\\/]${SEGMENT})+[\\/]?${LINE}`, 'g');
/** Two segments at least, so `/regex/` or a lone `/` in a message is left alone. */
const UNIX_PATH = new RegExp(String.raw`${BEFORE}/${SEGMENT}(?:/${SEGMENT})+/?${LINE}`, 'g');

/**
 * Takes the host machine out of a message the model (or the code it wrote) will see: a path inside
 * one of `vaultRoots` becomes vault-relative (`/home/me/vault/a.md` → `a.md`, the folder itself
 * `<vault>`), and every other absolute path — POSIX, `C:\…`, `\\server\…`, `file://` URLs,
 * `node:internal/…` — becomes `<host path>`. Quoted paths are replaced whole (spaces and all);
 * unquoted ones up to the first space.
 */
export function scrubHostPaths(text: string, vaultRoots: readonly string[] = []): string {
  let out = text;
  for (const root of vaultRoots) out = relativeToRoot(out, root);
  return out
    .replace(QUOTED_ABSOLUTE, (_match, quote: string) => `${quote}${HOST_PATH}${quote}`)
    .replace(FILE_URL, HOST_PATH)
    .replace(NODE_INTERNAL, HOST_PATH)
    .replace(WINDOWS_PATH, (_match, before: string) => `${before}${HOST_PATH}`)
    .replace(UNIX_PATH, (_match, before: string) => `${before}${HOST_PATH}`);
}

function relativeToRoot(text: string, root: string): string {
  const trimmed = root.replace(/[\\/]+$/, '');
  if (trimmed.length < 2) return text;
  const windows = /^(?:[A-Za-z]:|\\\\)/.test(trimmed);
  const slashed = trimmed.replace(/\\/g, '/');
  const spellings = new Set([trimmed, slashed, `file://${slashed.startsWith('/') ? '' : '/'}${slashed}`]);
  for (const spelling of [...spellings]) spellings.add(encodeURI(spelling));
  let out = text;
  for (const spelling of [...spellings].sort((a, b) => b.length - a.length)) {
    const pattern = new RegExp(`${escapeRegExp(spelling)}(?:[\\\\/]+|(?![^\\s'"\\x60)\\]>,;:]))`, windows ? 'gi' : 'g');
    out = out.replace(pattern, (match) => (/[\\/]$/.test(match) ? '' : VAULT_ROOT));
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
