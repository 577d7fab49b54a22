/**
 * Path helpers of the test `obsidian` module. `normalizePath` is Obsidian's public function; the
 * others are internal to this folder.
 */

/**
 * Obsidian's `normalizePath`: runs of `/` and `\` become one `/`, leading and trailing slashes go,
 * the empty path becomes `/` (the vault root), non-breaking spaces become spaces, and the result
 * is NFC.
 */
export function normalizePath(path: string): string {
  let cleaned = path.replace(/[\\/]+/g, '/').replace(/^\/+|\/+$/g, '');
  if (cleaned === '') cleaned = '/';
  return cleaned.replace(/[\u00A0\u202F]/g, ' ').normalize('NFC');
}

/** The vault root as Obsidian spells it in `TFolder.path` and accepts in the adapter. */
export const ROOT_PATH = '/';

export function isRootPath(path: string): boolean {
  return path === '' || path === ROOT_PATH;
}

/** The parent folder's path (`'/'` for top-level entries). */
export function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? ROOT_PATH : path.slice(0, slash);
}

export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Every ancestor folder of `path`, outermost first, without the root. */
export function ancestorsOf(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(1).map((_, index) => segments.slice(0, index + 1).join('/'));
}

/** Joins a vault folder path and a child name. */
export function childPath(folder: string, name: string): string {
  return isRootPath(folder) ? name : `${folder}/${name}`;
}

/**
 * Whether Obsidian leaves the path out of its index: a segment starting with `.` (hidden files
 * and folders, `.trash`, `.git`), or anything in the config folder.
 */
export function isUnindexedPath(path: string, configDir: string): boolean {
  if (path === configDir || path.startsWith(`${configDir}/`)) return true;
  return path.split('/').some((segment) => segment.startsWith('.'));
}
