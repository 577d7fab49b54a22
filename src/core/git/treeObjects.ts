import { compareCodePoints } from '../util/compareCodePoints';
import { writeHex } from './sha1';

export const TREE_MODE = '40000';
export const FILE_MODE = '100644';
export const SYMLINK_MODE = '120000';

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
  const sortName = (entry: TreeEntry): string => (entry.mode === TREE_MODE ? `${entry.name}/` : entry.name);
  const sorted = [...entries].sort((a, b) => compareCodePoints(sortName(a), sortName(b)));
  const encoder = new TextEncoder();
  const heads = sorted.map((entry) => encoder.encode(`${entry.mode} ${entry.name}\0`));
  const content = new Uint8Array(heads.reduce((total, head) => total + head.byteLength + 20, 0));
  let at = 0;
  sorted.forEach((entry, i) => {
    const head = heads[i] as Uint8Array;
    content.set(head, at);
    at += head.byteLength;
    if (!writeHex(content, at, entry.oid)) throw new Error(`not an object id: ${entry.oid}`);
    at += 20;
  });
  return content;
}
