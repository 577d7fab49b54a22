import git from 'isomorphic-git';
import type { VaultPort } from '../ports';
import type { Slicer } from '../util/Slicer';
import { StringSet } from '../util/StringMap';
import type { Deflate } from './gitObjects';
import { assemblePack, packEntry } from './packFormat';
import { sha1, toHex, writeHex } from './sha1';

/**
 * Writes new blobs straight into a pack file, as `git fast-import` does — what isomorphic-git
 * cannot do: it writes each new object as a loose file (`writeBlob`) and packs only objects that
 * are already stored (`packObjects`). A first snapshot stores thousands of notes, and a loose
 * object costs its own file, folder check and rename; one pack of them costs two files.
 *
 * The pack (`packFormat`: blobs only, no deltas) and its index (version 2) follow git's
 * `Documentation/gitformat-pack.txt`. The pack is moved into place before its index, as git does:
 * objects become visible with the index, and a crash between the two leaves a pack without an
 * index, which git ignores (`count-objects` calls it garbage) and the next snapshot writes again.
 */

/**
 * A pack is written once its compressed objects reach this size, so memory stays bounded and no
 * one write holds the app for long: an adapter writes a file in one go (Obsidian mobile's passes
 * it over the app's bridge), and a 32 MB pack held a phone's main thread for a quarter of a second.
 * Each pack is copied three times on the main thread (assembled, handed to the digest, handed to
 * the adapter): at 4 MB that was still 120 ms on a phone-speed CPU, and at 2 MB 80 ms.
 */
const FLUSH_BYTES = 1024 * 1024;

interface PackedEntry {
  oid: string;
  /** The entry as it stands in the pack: type and size header, then the deflated content. */
  bytes: Uint8Array;
  /** The entry's CRC-32, for the index: taken as each is added, not all at once when the pack is written. */
  crc: number;
}

export class PackWriter {
  private entries: PackedEntry[] = [];
  private entryBytes = 0;
  private readonly added = new StringSet();
  private readonly writing: Promise<void>[] = [];

  private readonly slicer: Slicer | undefined;
  private readonly flushBytes: number;

  /**
   * @param options.slicer the long work's slicer: blobs are compressed, and packs assembled and
   *   indexed, in its slices — the hashes of a batch of blobs can all come back in one task.
   */
  constructor(
    private readonly vault: VaultPort,
    private readonly gitdir: string,
    private readonly deflate: Deflate,
    options: { slicer?: Slicer; flushBytes?: number } = {},
  ) {
    this.slicer = options.slicer;
    this.flushBytes = options.flushBytes ?? FLUSH_BYTES;
  }

  /** Adds a blob (once per id); resolves to its id. The blob is readable once `finish` resolves. */
  async add(content: Uint8Array): Promise<string> {
    const { oid } = await git.hashBlob({ object: content });
    if (this.added.has(oid)) return oid;
    this.added.add(oid);
    await this.slicer?.maybeYield();
    const entry = packEntry('blob', content, this.deflate(content));
    this.entries.push({ oid, bytes: entry, crc: crc32(entry) });
    this.entryBytes += entry.byteLength;
    if (this.entryBytes >= this.flushBytes) this.flush();
    return oid;
  }

  /** Writes what is left and waits for every pack to be in place. */
  async finish(): Promise<void> {
    this.flush();
    await Promise.all(this.writing);
  }

  private flush(): void {
    if (this.entries.length === 0) return;
    const entries = this.entries;
    this.entries = [];
    this.entryBytes = 0;
    this.writing.push(this.write(entries));
  }

  private async write(entries: readonly PackedEntry[]): Promise<void> {
    await this.slicer?.maybeYield();
    const { pack, checksum } = await assemblePack(entries.map((entry) => entry.bytes));
    await this.slicer?.maybeYield();
    const index = await buildIndex(entries, checksum, this.slicer);
    await this.slicer?.maybeYield();
    const folder = `${this.gitdir}/objects/pack`;
    const name = `${folder}/pack-${toHex(checksum)}`;
    const suffix = Math.random().toString(36).slice(2);
    await this.vault.writeBinary(`${folder}/tmp_pack_${suffix}`, pack);
    await this.vault.writeBinary(`${folder}/tmp_idx_${suffix}`, index);
    await this.vault.replace(`${folder}/tmp_pack_${suffix}`, `${name}.pack`);
    await this.vault.replace(`${folder}/tmp_idx_${suffix}`, `${name}.idx`);
  }
}

/** The pack's `.idx` (version 2). A pack holds thousands of objects: the work yields in `slicer`'s slices. */
async function buildIndex(entries: readonly PackedEntry[], packChecksum: Uint8Array, slicer: Slicer | undefined): Promise<Uint8Array> {
  // By entry, not in a Map by id: ids as Map keys would join V8's string table (see `StringMap`).
  const offsets: number[] = [];
  let at = 12;
  for (const entry of entries) {
    offsets.push(at);
    at += entry.bytes.byteLength;
  }
  if (at >= 0x80000000) throw new Error('a pack over 2 GiB needs large offsets, which this writer does not write');
  await slicer?.maybeYield();
  const oidOf = (i: number): string => (entries[i] as PackedEntry).oid;
  const sorted = entries.map((_, i) => i).sort((a, b) => (oidOf(a) < oidOf(b) ? -1 : oidOf(a) > oidOf(b) ? 1 : 0));
  await slicer?.maybeYield();
  const count = sorted.length;
  const length = 8 + 256 * 4 + count * (20 + 4 + 4) + 40;
  const index = new Uint8Array(length);
  const view = new DataView(index.buffer);
  index.set([0xff, 0x74, 0x4f, 0x63]); // "\377tOc"
  view.setUint32(4, 2);
  const fanout = new Uint32Array(256);
  for (const entry of entries) {
    const first = parseInt(entry.oid.slice(0, 2), 16);
    fanout[first] = (fanout[first] as number) + 1;
  }
  let total = 0;
  for (let byte = 0; byte < 256; byte++) {
    total += fanout[byte] as number;
    view.setUint32(8 + byte * 4, total);
  }
  const oids = 8 + 256 * 4;
  const crcs = oids + count * 20;
  const positions = crcs + count * 4;
  for (let i = 0; i < count; i++) {
    const at = sorted[i] as number;
    const entry = entries[at] as PackedEntry;
    if (!writeHex(index, oids + i * 20, entry.oid)) throw new Error(`not an object id: ${entry.oid}`);
    view.setUint32(crcs + i * 4, entry.crc);
    view.setUint32(positions + i * 4, offsets[at] as number);
    if ((i & 0x3ff) === 0x3ff) await slicer?.maybeYield();
  }
  const trailer = positions + count * 4;
  index.set(packChecksum, trailer);
  index.set(await sha1(index.subarray(0, trailer + 20)), trailer + 20);
  return index;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as zlib and git's pack index use it). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = (CRC_TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
