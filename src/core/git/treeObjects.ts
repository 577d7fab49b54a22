import { fromHex, toHex } from './sha1';

export const TREE_MODE = '40000';
export const FILE_MODE = '100644';

export interface TreeEntry {
  /** `100644`, `100755`, `120000` (symlink), `40000` (tree) or `160000` (submodule). */
  mode: string;
  name: string;
  oid: string;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function parseTree(content: Uint8Array): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.byteLength) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > content.byteLength) throw new Error('git tree object is corrupt');
    entries.push({
      mode: decoder.decode(content.subarray(at, space)),
      name: decoder.decode(content.subarray(space + 1, nul)),
      oid: toHex(content.subarray(nul + 1, nul + 21)),
    });
    at = nul + 21;
  }
  return entries;
}

/** Serializes entries in git's tree order (by name, a tree's name compared as if it ended in `/`). */
export function serializeTree(entries: readonly TreeEntry[]): Uint8Array {
  const encoded = entries
    .map((entry) => ({ entry, key: encoder.encode(entry.mode === TREE_MODE ? `${entry.name}/` : entry.name) }))
    .sort((a, b) => compareBytes(a.key, b.key));
  const parts = encoded.map(({ entry }) => encoder.encode(`${entry.mode} ${entry.name}\0`));
  const size = parts.reduce((total, part) => total + part.byteLength + 20, 0);
  const out = new Uint8Array(size);
  let at = 0;
  encoded.forEach(({ entry }, i) => {
    const head = parts[i] as Uint8Array;
    out.set(head, at);
    out.set(fromHex(entry.oid), at + head.byteLength);
    at += head.byteLength + 20;
  });
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.byteLength, b.byteLength);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  }
  return a.byteLength - b.byteLength;
}
