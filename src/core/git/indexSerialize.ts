/**
 * Writes git's index file, byte-exact with what git writes (the reading side is `indexFile`). A
 * commit changes a few entries of thousands: `serializeIndexReusing` copies the bytes of the
 * entries that did not change from the index it wrote last, in runs, instead of writing each one
 * field by field.
 */
import { InvalidArgumentError } from '../errors';
import {
  ENTRY_FIXED_SIZE,
  EXT_INTENT_TO_ADD,
  EXT_SKIP_WORKTREE,
  FLAG_ASSUME_VALID,
  FLAG_EXTENDED,
  FLAG_STAGE_SHIFT,
  HASH_SIZE,
  HEADER_SIZE,
  NAME_MASK,
  SIGNATURE,
  type IndexEntry,
  type IndexExtension,
} from './indexFile';
import { writeUtf8 } from '../text/utf8Text';
import { Slicer } from '../util/Slicer';
import { sha1, writeHex } from './sha1';

/** What an index to write holds. */
export interface IndexToWrite {
  entries: readonly IndexEntry[];
  extensions?: readonly IndexExtension[];
}

/** An index as written: its entries in the order written, its bytes, and where each entry starts. */
export interface SerializedIndex {
  entries: readonly IndexEntry[];
  bytes: Uint8Array;
  /** Entry `i` is bytes `offsets[i]` up to `offsets[i + 1]`; the last offset is where the extensions start. */
  offsets: Uint32Array;
}

/**
 * Serializes entries (sorted by path bytes then stage — sort them if the caller did not) as
 * version 2, or version 3 when any entry has an extended flag; writes the given extensions in
 * order; appends the SHA-1 trailer.
 *
 * Numbers are stored modulo 2^32, as git does. The output is built in one buffer of the exact size.
 * @throws {InvalidArgumentError} on an empty path, a path with NUL or an unpaired surrogate, an oid
 *   that is not 40 hex digits, a stage outside 0..3, the same path and stage twice, a path both
 *   merged (stage 0) and conflicted, or an extension signature that is not 4 one-byte characters.
 */
export async function serializeIndex(data: IndexToWrite): Promise<Uint8Array> {
  return (await serializeIndexReusing(data, null)).bytes;
}

/**
 * `serializeIndex`, reusing `previous` (the last index written, or null): entries that are the very
 * objects `previous` wrote, next to each other there as here, are copied as they were. Only the
 * others are written (and checked) one by one, with the order checked where they meet the runs.
 * The bytes are those `serializeIndex` gives. The work yields in `slicer`'s slices: a first
 * snapshot writes every entry of a large vault, and held a phone's main thread for 150 ms at
 * 10,000 entries in one. `spare`, bytes no one reads any more (the index written before
 * `previous`), holds the result when it has its size, as it does when a commit changes notes
 * and adds none: a megabyte less for the garbage collector on every commit of a large vault.
 */
export async function serializeIndexReusing(
  data: IndexToWrite,
  previous: SerializedIndex | null,
  slicer = new Slicer(),
  spare: Uint8Array | null = null,
): Promise<SerializedIndex> {
  const extensions = data.extensions ?? [];
  const plan = previous === null ? null : reusePlan(data.entries, previous);
  // Sorted when need be; errors name an entry by its place in what the caller gave.
  const order = plan === null ? gitOrder(data.entries) : null;
  await slicer.maybeYield();
  const entries = order === null ? data.entries : order.map((i) => data.entries[i] as IndexEntry);
  const given = (i: number): number => (order === null ? i : (order[i] as number));
  const pieces = plan ?? [{ fresh: 0, count: entries.length }];
  // Sizes first, so the buffer is made once, of the exact size.
  const pathLengths = new Uint32Array(entries.length);
  let total = HEADER_SIZE + HASH_SIZE;
  for (const piece of pieces) {
    if ('from' in piece) {
      total += (previous as SerializedIndex).offsets[piece.to] as number;
      total -= (previous as SerializedIndex).offsets[piece.from] as number;
      continue;
    }
    for (let i = piece.fresh; i < piece.fresh + piece.count; i++) {
      const entry = entries[i] as IndexEntry;
      pathLengths[i] = utf8Length(entry.path, given(i));
      total += entrySize(entry, pathLengths[i] as number);
      if ((i & 0xff) === 0xff) await slicer.maybeYield();
    }
  }
  for (const [i, { signature, data: extensionData }] of extensions.entries()) {
    if (signature.length !== 4 || [...signature].some((char) => char.charCodeAt(0) > 0xff)) {
      throw new InvalidArgumentError(`extensions[${i}].signature`, 'four one-byte characters', JSON.stringify(signature));
    }
    total += 8 + extensionData.length;
  }

  const out = spare !== null && spare.length === total && spare !== previous?.bytes ? spare : new Uint8Array(total);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(0, SIGNATURE);
  view.setUint32(4, entries.some(isExtended) ? 3 : 2);
  view.setUint32(8, entries.length);
  const offsets = new Uint32Array(entries.length + 1);
  let pos = HEADER_SIZE;
  let at = 0;
  for (const piece of pieces) {
    if ('from' in piece) {
      const { bytes, offsets: before } = previous as SerializedIndex;
      const shift = pos - (before[piece.from] as number);
      for (let j = piece.from; j < piece.to; j++) offsets[at++] = (before[j] as number) + shift;
      out.set(bytes.subarray(before[piece.from], before[piece.to]), pos);
      pos += (before[piece.to] as number) - (before[piece.from] as number);
      continue;
    }
    for (let i = piece.fresh; i < piece.fresh + piece.count; i++) {
      offsets[at++] = pos;
      pos = writeEntry(out, view, pos, entries[i] as IndexEntry, pathLengths[i] as number, given(i));
      if ((i & 0xff) === 0xff) await slicer.maybeYield();
    }
  }
  offsets[at] = pos;
  for (const { signature, data: extensionData } of extensions) {
    for (let c = 0; c < 4; c++) out[pos + c] = signature.charCodeAt(c);
    view.setUint32(pos + 4, extensionData.length);
    out.set(extensionData, pos + 8);
    pos += 8 + extensionData.length;
  }
  out.set(await sha1(out.subarray(0, pos)), pos);
  return { entries, bytes: out, offsets };
}

/** Entries `previous` wrote, `from` up to `to`, copied; or `count` entries to write from `fresh` on. */
type Piece = { from: number; to: number } | { fresh: number; count: number };

/**
 * How to write `entries` from `previous`: runs to copy and entries to write; null when they are
 * not in git's order where a written entry meets its neighbours (the full path sorts them).
 */
function reusePlan(entries: readonly IndexEntry[], previous: SerializedIndex): Piece[] | null {
  const before = previous.entries;
  const plan: Piece[] = [];
  let i = 0;
  let j = 0;
  while (i < entries.length) {
    if (j < before.length && entries[i] === before[j]) {
      const from = j;
      while (i < entries.length && j < before.length && entries[i] === before[j]) {
        i += 1;
        j += 1;
      }
      plan.push({ from, to: j });
      continue;
    }
    const order = j < before.length ? compareEntries(entries[i] as IndexEntry, before[j] as IndexEntry) : -1;
    // An entry written before that is gone (or replaced further on).
    if (order > 0) {
      j += 1;
      continue;
    }
    // A new entry, or one that replaces the entry written before at its place.
    if (order === 0) j += 1;
    const last = plan[plan.length - 1];
    if (last !== undefined && 'fresh' in last) last.count += 1;
    else plan.push({ fresh: i, count: 1 });
    i += 1;
  }
  return inOrderAtSeams(entries, plan) ? plan : null;
}

/**
 * Whether `entries` are in git's order (and free of repeats) wherever a written entry is: runs
 * copied from one index were in order there already.
 */
function inOrderAtSeams(entries: readonly IndexEntry[], plan: readonly Piece[]): boolean {
  let at = 0;
  for (const piece of plan) {
    const count = 'from' in piece ? piece.to - piece.from : piece.count;
    const last = 'fresh' in piece ? at + count : at + 1;
    for (let k = Math.max(at, 1); k < last && k < entries.length; k++) {
      if (compareEntries(entries[k - 1] as IndexEntry, entries[k] as IndexEntry) > 0) return false;
      refuseRepeat(entries[k - 1] as IndexEntry, entries[k] as IndexEntry, k);
    }
    at += count;
  }
  // The entry after a written run's last one starts a piece, checked above.
  return true;
}

function isExtended(entry: IndexEntry): boolean {
  return entry.skipWorktree || entry.intentToAdd;
}

/** Writes one entry at `pos`; gives where the next starts. */
function writeEntry(out: Uint8Array, view: DataView, pos: number, entry: IndexEntry, length: number, i: number): number {
  const { path, stage } = entry;
  if (!Number.isInteger(stage) || stage < 0 || stage > 3) {
    throw new InvalidArgumentError(`entries[${i}].stage`, 'an integer from 0 to 3', String(stage));
  }
  view.setUint32(pos, entry.ctimeSeconds);
  view.setUint32(pos + 4, entry.ctimeNanoseconds);
  view.setUint32(pos + 8, entry.mtimeSeconds);
  view.setUint32(pos + 12, entry.mtimeNanoseconds);
  view.setUint32(pos + 16, entry.dev);
  view.setUint32(pos + 20, entry.ino);
  view.setUint32(pos + 24, entry.mode);
  view.setUint32(pos + 28, entry.uid);
  view.setUint32(pos + 32, entry.gid);
  view.setUint32(pos + 36, entry.size);
  writeOid(out, pos + 40, entry.oid, i);
  const extended = (entry.skipWorktree ? EXT_SKIP_WORKTREE : 0) | (entry.intentToAdd ? EXT_INTENT_TO_ADD : 0);
  view.setUint16(pos + 60, (entry.assumeValid ? FLAG_ASSUME_VALID : 0) | (extended ? FLAG_EXTENDED : 0) | (stage << FLAG_STAGE_SHIFT) | Math.min(length, NAME_MASK));
  let nameStart = pos + ENTRY_FIXED_SIZE;
  if (extended) {
    view.setUint16(nameStart, extended);
    nameStart += 2;
  }
  writeUtf8(out, nameStart, path);
  const end = pos + entrySize(entry, length);
  // The padding NULs, written: the buffer may be a reused one.
  out.fill(0, nameStart + length, end);
  return end;
}

function entrySize(entry: IndexEntry, pathLength: number): number {
  const extended = entry.skipWorktree || entry.intentToAdd ? 2 : 0;
  return (ENTRY_FIXED_SIZE + extended + pathLength + 8) & ~7;
}

/** UTF-8 byte length of a path, refusing what cannot be stored: empty, NUL, unpaired surrogates. */
function utf8Length(path: string, index: number): number {
  let length = path.length;
  let storable = length > 0;
  for (let k = 0; k < path.length && storable; k++) {
    const c = path.charCodeAt(k);
    if (c < 0x80) {
      storable = c !== 0;
    } else if (c < 0x800) {
      length += 1;
    } else if (c < 0xd800 || c > 0xdfff) {
      length += 2;
    } else {
      // A surrogate pair: two UTF-16 units, four UTF-8 bytes.
      const next = path.charCodeAt(k + 1);
      storable = c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
      length += 2;
      k++;
    }
  }
  if (!storable) {
    throw new InvalidArgumentError(`entries[${index}].path`, 'a non-empty path without NUL characters or unpaired surrogates', JSON.stringify(path));
  }
  return length;
}

/**
 * Git's order: path bytes (UTF-8), then stage. `null` when the entries already are in it (the
 * usual case); otherwise the indices in order. Refuses a (path, stage) twice, and a path that is
 * both merged and conflicted, which git rejects on reading.
 */
function gitOrder(entries: readonly IndexEntry[]): number[] | null {
  let order: number[] | null = null;
  for (let i = 1; i < entries.length; i++) {
    if (compareEntries(entries[i - 1] as IndexEntry, entries[i] as IndexEntry) > 0) {
      order = Array.from(entries.keys()).sort((a, b) => compareEntries(entries[a] as IndexEntry, entries[b] as IndexEntry));
      break;
    }
  }
  for (let k = 1; k < entries.length; k++) {
    const i = order === null ? k : (order[k] as number);
    refuseRepeat(entries[order === null ? k - 1 : (order[k - 1] as number)] as IndexEntry, entries[i] as IndexEntry, i);
  }
  return order;
}

/** Refuses neighbours in git's order that git rejects on reading: a (path, stage) twice, or a path both merged and conflicted. */
function refuseRepeat(before: IndexEntry, entry: IndexEntry, i: number): void {
  if (before.path === entry.path && (before.stage === entry.stage || before.stage === 0 || entry.stage === 0)) {
    throw new InvalidArgumentError(
      `entries[${i}]`,
      'a path at most once per stage, and never both at stage 0 and in conflict stages',
      `"${entry.path}" at stages ${before.stage} and ${entry.stage}`,
    );
  }
}

/** Git's order of index entries: by path as UTF-8 bytes, then stage. */
export function compareEntries(a: IndexEntry, b: IndexEntry): number {
  return comparePaths(a.path, b.path) || a.stage - b.stage;
}

/** Compares like the paths' UTF-8 bytes would, without encoding them. */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const shorter = Math.min(a.length, b.length);
  for (let k = 0; k < shorter; k++) {
    let x = a.charCodeAt(k);
    let y = b.charCodeAt(k);
    if (x !== y) {
      // UTF-16 sorts U+E000–U+FFFF after the surrogates that encode U+10000 and up; UTF-8 sorts them
      // before. Moving the surrogates above U+FFFF restores code point (= UTF-8 byte) order.
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Writes 40 hex digits as 20 bytes at `offset`, checking them on the way. */
function writeOid(out: Uint8Array, offset: number, oid: string, index: number): void {
  if (!writeHex(out, offset, oid)) throw new InvalidArgumentError(`entries[${index}].oid`, '40 hex digits', JSON.stringify(oid));
}
