/**
 * Files that steer git and the agent itself: what git ignores and how it treats files
 * (`.gitignore`, `.gitattributes`, `.gitmodules`, in any folder), and the vault's standing
 * instructions to the agent (`AGENTS.md` at the root). Agent code that could rewrite them could
 * hide its own changes from history or plant instructions every later run obeys, so `mem` refuses
 * to write, move or delete them unless the user allows it.
 */

const ANY_FOLDER = new Set(['.gitignore', '.gitattributes', '.gitmodules']);
const VAULT_ROOT = new Set(['agents.md']);

/**
 * The protected file `path` (normalized, vault-relative) is, if it is one. Names compare without
 * case and without trailing dots and spaces, as the file systems that ignore them would.
 */
export function protectedFileOf(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  const key = path.slice(slash + 1).toLowerCase().replace(/[. ]+$/, '');
  if (ANY_FOLDER.has(key)) return path;
  if (slash === -1 && VAULT_ROOT.has(key)) return path;
  return undefined;
}
