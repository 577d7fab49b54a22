import { sha1 } from './sha1';

/**
 * Git's pack file, version 2 (`Documentation/gitformat-pack.txt`), with every object whole (no
 * deltas): what `PackWriter` stores and what a push sends.
 */

/** An object's type code in a pack entry's header. */
export const PACK_TYPES = { commit: 1, tree: 2, blob: 3 } as const;

export type PackObjectType = keyof typeof PACK_TYPES;

/** One entry: type and size (four bits, then seven a byte, low bits first), then the deflated content. */
export function packEntry(type: PackObjectType, content: Uint8Array, deflated: Uint8Array): Uint8Array {
  const header: number[] = [];
  let size = content.byteLength;
  let byte = (PACK_TYPES[type] << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    header.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  header.push(byte);
  const entry = new Uint8Array(header.length + deflated.byteLength);
  entry.set(header);
  entry.set(deflated, header.length);
  return entry;
}

/** The pack of `entries` (from `packEntry`), in order, and its checksum (also its last 20 bytes). */
export async function assemblePack(entries: readonly Uint8Array[]): Promise<{ pack: Uint8Array; checksum: Uint8Array }> {
  let length = 12;
  for (const entry of entries) length += entry.byteLength;
  const pack = new Uint8Array(length + 20);
  const view = new DataView(pack.buffer);
  pack.set([0x50, 0x41, 0x43, 0x4b]); // "PACK"
  view.setUint32(4, 2);
  view.setUint32(8, entries.length);
  let at = 12;
  for (const entry of entries) {
    pack.set(entry, at);
    at += entry.byteLength;
  }
  const checksum = await sha1(pack.subarray(0, length));
  pack.set(checksum, length);
  return { pack, checksum };
}
