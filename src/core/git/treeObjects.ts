import { writeUtf8 } from '../text/utf8Text';
import { compareCodePoints } from '../util/compareCodePoints';
import { writeHex } from './sha1';

export const TREE_MODE = '40000';
export const FILE_MODE = '100644';
export const SYMLINK_MODE = '120000';
const EXECUTABLE_MODE = '100755';
const GITLINK_MODE = '160000';

/** The modes git writes, by value; `040000` is a tree's as isomorphic-git and some old tools spell it. */
const SHARED_MODES = new Map<string, string>([
  [FILE_MODE, FILE_MODE],
  [TREE_MODE, TREE_MODE],
  ['040000', TREE_MODE],
  [EXECUTABLE_MODE, EXECUTABLE_MODE],
  [SYMLINK_MODE, SYMLINK_MODE],
  [GITLINK_MODE, GITLINK_MODE],
]);
const SHARED_MODE_NUMBERS = new Map([...SHARED_MODES.values()].map((mode) => [parseInt(mode, 8), mode]));

/**
 * A mode as git writes it, one string for all the entries that have it. A string parsed or
 * printed apiece is an object apiece: 10,000 of them in the trees of a 10,000-note vault, for
 * every garbage collection to walk.
 */
export function sharedMode(mode: string): string {
  return SHARED_MODES.get(mode) ?? mode;
}

/** Git's mode number as a tree writes it (octal digits). */
export function modeString(mode: number): string {
  return SHARED_MODE_NUMBERS.get(mode) ?? mode.toString(8);
}

export interface TreeEntry {
  /** `100644`, `100755`, `120000` (symlink), `40000` (tree) or `160000` (submodule). */
  mode: string;
  name: string;
  oid: string;
}

/**
 * A tree object's content as git writes it: `<mode> <name>\0<20-byte id>` per entry, in git's
 * order — by the bytes of the name, a subtree's name compared as if it ended in `/`. Code-point
 * order is UTF-8 byte order (`<` on strings is not, above U+FFFF).
 */
export function treeContent(entries: readonly TreeEntry[]): Uint8Array {
  // A tree read from git, with an entry replaced or added in place, is in order already: a sort
  // of a large folder's entries, with a string made for every comparison, was most of the time a
  // commit spent on its trees.
  const sorted = inGitOrder(entries) ? entries : [...entries].sort(compareTreeEntries);
  // At most three UTF-8 bytes per UTF-16 code unit, plus the space, the NUL and the id.
  let bound = 0;
  for (const entry of sorted) bound += (entry.mode.length + entry.name.length) * 3 + 22;
  const content = new Uint8Array(bound);
  let at = 0;
  for (const entry of sorted) {
    at = writeUtf8(content, at, entry.mode);
    content[at++] = 0x20;
    at = writeUtf8(content, at, entry.name);
    content[at++] = 0;
    if (!writeHex(content, at, entry.oid)) throw new Error(`not an object id: ${entry.oid}`);
    at += 20;
  }
  return content.slice(0, at);
}

const sortName = (entry: TreeEntry): string => (entry.mode === TREE_MODE ? `${entry.name}/` : entry.name);

function compareTreeEntries(a: TreeEntry, b: TreeEntry): number {
  return compareCodePoints(sortName(a), sortName(b));
}

function inGitOrder(entries: readonly TreeEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (compareTreeEntries(entries[i - 1] as TreeEntry, entries[i] as TreeEntry) >= 0) return false;
  return true;
}
