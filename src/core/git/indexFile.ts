/**
 * Codec for git's index file (`.git/index`), byte-exact with what git writes. Format reference:
 * git's `Documentation/gitformat-index.txt`.
 *
 * Ours rather than isomorphic-git's because its index manager cannot do what a commit of a few
 * paths needs: it rewrites every entry (and `add` stats the work tree: seconds at 10k notes),
 * reads versions 2 and 3 only, keeps no extension, and writes the file in place instead of
 * under `index.lock`. Here entries are replaced one by one and the result is handed to
 * `lockedUpdate`, so the cost follows the change and another git program never sees a torn index.
 */
import { IndexFileError, InvalidArgumentError } from '../errors';
import { sha1, toHex } from './sha1';

/** One index entry: a path at a merge stage, with the stat data git compares to spot changes. */
export interface IndexEntry {
  /** UTF-8 decoded, '/'-separated, relative to the work tree. */
  path: string;
  ctimeSeconds: number;
  ctimeNanoseconds: number;
  mtimeSeconds: number;
  mtimeNanoseconds: number;
  dev: number;
  ino: number;
  /** Git's mode: 0o100644, 0o100755, 0o120000 (symlink) or 0o160000 (gitlink). */
  mode: number;
  uid: number;
  gid: number;
  /** Size in bytes, modulo 2^32 as git stores it. */
  size: number;
  /** Object id, 40 hex digits. */
  oid: string;
  /** 0 when merged; 1 (base), 2 (ours), 3 (theirs) during a conflict. */
  stage: number;
  assumeValid: boolean;
  /** Extended flag (needs index version 3+). */
  skipWorktree: boolean;
  /** Extended flag, set by `git add -N` (needs index version 3+). */
  intentToAdd: boolean;
}

/** An extension block after the entries, kept as raw bytes. */
export interface IndexExtension {
  /** Four characters, e.g. `TREE`; one byte per character. */
  signature: string;
  data: Uint8Array;
}

/** A parsed index file. */
export interface GitIndexData {
  version: 2 | 3 | 4;
  entries: IndexEntry[];
  extensions: IndexExtension[];
}

const SIGNATURE = 0x44495243; // 'DIRC'
const HEADER_SIZE = 12;
const HASH_SIZE = 20;
/** ctime..size (10 × 32 bits) + object id + 16-bit flags: the fixed part of an entry. */
const ENTRY_FIXED_SIZE = 62;

const FLAG_ASSUME_VALID = 0x8000;
const FLAG_EXTENDED = 0x4000;
const FLAG_STAGE_SHIFT = 12;
const NAME_MASK = 0x0fff;
const EXT_SKIP_WORKTREE = 0x4000;
const EXT_INTENT_TO_ADD = 0x2000;
const EXT_KNOWN = EXT_SKIP_WORKTREE | EXT_INTENT_TO_ADD;

/** Required extensions git may write, with how to convert them away. */
const REQUIRED_EXTENSIONS: Record<string, { name: string; advice: string } | undefined> = {
  link: { name: 'split index', advice: 'Run `git update-index --no-split-index` to merge it back into one file.' },
  sdir: { name: 'sparse index', advice: 'Run `git sparse-checkout init --no-sparse-index` to expand it.' },
};

// `ignoreBOM` keeps a leading U+FEFF in a path instead of silently dropping it.
const pathDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const pathEncoder = new TextEncoder();

/**
 * Parses an index; verifies the trailing checksum; throws a clear Error (with a `code` property
 * 'IndexCorrupt' or 'IndexUnsupported') on a bad/truncated file or an unknown required extension.
 *
 * Reads versions 2, 3 and 4. Extension data is copied, so the result does not pin `bytes`.
 * Paths that are not valid UTF-8 are `IndexUnsupported` (decoding them lossily would rename files).
 * @throws {IndexFileError} `IndexCorrupt` or `IndexUnsupported`, with `data.detail`.
 */
export async function parseIndex(bytes: Uint8Array): Promise<GitIndexData> {
  if (bytes.length < HEADER_SIZE + HASH_SIZE) corrupt(`only ${bytes.length} bytes, shorter than a header and checksum`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== SIGNATURE) corrupt('it does not start with the signature "DIRC"');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3 && version !== 4) {
    throw new IndexFileError('IndexUnsupported', `unknown index version ${version}`, { version });
  }
  const end = bytes.length - HASH_SIZE;
  const stored = bytes.subarray(end);
  // git ≥ 2.40 with `index.skipHash` writes an all-zero trailer and skips the check; so do we.
  if (stored.some((byte) => byte !== 0)) {
    const actual = await sha1(bytes.subarray(0, end));
    for (let i = 0; i < HASH_SIZE; i++) {
      if (actual[i] !== stored[i]) corrupt(`checksum mismatch (stored ${toHex(stored)}, computed ${toHex(actual)})`);
    }
  }

  const count = view.getUint32(8);
  // Each entry takes at least its fixed part plus one path byte and a NUL (v4: a varint too).
  if (count > (end - HEADER_SIZE) / (ENTRY_FIXED_SIZE + 2)) corrupt(`it claims ${count} entries, more than fit in ${bytes.length} bytes`);
  const entries: IndexEntry[] = new Array<IndexEntry>(count);
  let pos = HEADER_SIZE;
  // v4 only: the previous path's bytes, which the next path shares a prefix with.
  let previous = version === 4 ? new Uint8Array(256) : new Uint8Array(0);
  let previousLength = 0;
  // Reported after the extensions: a split index (`link`) has nameless entries, and deserves its own error.
  let emptyPathAt = -1;

  for (let i = 0; i < count; i++) {
    const start = pos;
    if (start + ENTRY_FIXED_SIZE > end) corrupt(`entry ${i} of ${count} is truncated`);
    const flags = view.getUint16(start + 60);
    let nameStart = start + ENTRY_FIXED_SIZE;
    let extended = 0;
    // Like git, honour the extended bit in any version (the format forbids it in v2; git does not check).
    if (flags & FLAG_EXTENDED) {
      if (nameStart + 2 > end) corrupt(`entry ${i} of ${count} is truncated`);
      extended = view.getUint16(nameStart);
      nameStart += 2;
      if (extended & ~EXT_KNOWN) {
        throw new IndexFileError('IndexUnsupported', `entry ${i} has unknown extended flags 0x${extended.toString(16)}`, { extendedFlags: extended });
      }
    }
    const nameLength = flags & NAME_MASK;
    let path: string;

    if (version === 4) {
      // Varint as in git's varint.c: 7 bits per byte, big-endian, "+1" on every continuation.
      let strip = 0;
      let byte: number;
      do {
        if (nameStart >= end) corrupt(`entry ${i} of ${count} is truncated`);
        byte = bytes[nameStart++] as number;
        strip = strip * 128 + (byte & 0x7f) + (byte & 0x80 ? 1 : 0);
        // The value only grows, so this also stops an endless varint.
        if (strip > previousLength) corrupt(`entry ${i} strips ${strip}+ bytes from a ${previousLength}-byte previous path`);
      } while (byte & 0x80);
      const suffixEnd = bytes.indexOf(0, nameStart);
      if (suffixEnd < 0 || suffixEnd >= end) corrupt(`entry ${i} of ${count} has an unterminated path`);
      const keep = previousLength - strip;
      const length = keep + suffixEnd - nameStart;
      if (length > previous.length) {
        const grown = new Uint8Array(Math.max(length, previous.length * 2));
        grown.set(previous.subarray(0, keep));
        previous = grown;
      }
      previous.set(bytes.subarray(nameStart, suffixEnd), keep);
      previousLength = length;
      if (nameLength !== NAME_MASK && nameLength !== length) corrupt(`entry ${i} has a path of ${length} bytes but records ${nameLength}`);
      path = decodePath(previous.subarray(0, length), i);
      pos = suffixEnd + 1;
    } else {
      let length = nameLength;
      if (nameLength === NAME_MASK) {
        const nul = bytes.indexOf(0, nameStart);
        if (nul < 0 || nul >= end) corrupt(`entry ${i} of ${count} has an unterminated path`);
        length = nul - nameStart;
      } else if (nameStart + length >= end || bytes[nameStart + length] !== 0) {
        corrupt(`entry ${i} of ${count} is truncated or its path length is wrong`);
      }
      path = decodePath(bytes.subarray(nameStart, nameStart + length), i);
      // Padded with 1–8 NULs to a multiple of 8, counted from the entry's start.
      pos = start + ((nameStart - start + length + 8) & ~7);
      if (pos > end) corrupt(`entry ${i} of ${count} is truncated`);
    }
    if (path === '' && emptyPathAt < 0) emptyPathAt = i;

    entries[i] = {
      path,
      ctimeSeconds: view.getUint32(start),
      ctimeNanoseconds: view.getUint32(start + 4),
      mtimeSeconds: view.getUint32(start + 8),
      mtimeNanoseconds: view.getUint32(start + 12),
      dev: view.getUint32(start + 16),
      ino: view.getUint32(start + 20),
      mode: view.getUint32(start + 24),
      uid: view.getUint32(start + 28),
      gid: view.getUint32(start + 32),
      size: view.getUint32(start + 36),
      oid: oidAt(bytes, start + 40),
      stage: (flags >> FLAG_STAGE_SHIFT) & 3,
      assumeValid: (flags & FLAG_ASSUME_VALID) !== 0,
      skipWorktree: (extended & EXT_SKIP_WORKTREE) !== 0,
      intentToAdd: (extended & EXT_INTENT_TO_ADD) !== 0,
    };
  }

  const extensions: IndexExtension[] = [];
  while (pos < end) {
    if (pos + 8 > end) corrupt(`${end - pos} stray bytes after the entries`);
    const signature = String.fromCharCode(bytes[pos] as number, bytes[pos + 1] as number, bytes[pos + 2] as number, bytes[pos + 3] as number);
    const size = view.getUint32(pos + 4);
    if (size > end - pos - 8) corrupt(`extension "${signature}" claims ${size} bytes, past the end of the file`);
    const first = bytes[pos] as number;
    if (first < 0x41 || first > 0x5a) {
      const known = REQUIRED_EXTENSIONS[signature];
      throw new IndexFileError(
        'IndexUnsupported',
        `it needs the extension "${signature}"${known ? ` (${known.name})` : ''}, which Recursa does not understand`,
        { extension: signature },
        known?.advice,
      );
    }
    extensions.push({ signature, data: bytes.slice(pos + 8, pos + 8 + size) });
    pos += 8 + size;
  }

  if (emptyPathAt >= 0) corrupt(`entry ${emptyPathAt} has an empty path`);
  return { version, entries, extensions };
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
export async function serializeIndex(data: { entries: readonly IndexEntry[]; extensions?: readonly IndexExtension[] }): Promise<Uint8Array> {
  const { entries } = data;
  const extensions = data.extensions ?? [];
  const count = entries.length;
  const pathLengths = new Uint32Array(count);
  let version: 2 | 3 = 2;
  for (let i = 0; i < count; i++) {
    const entry = entries[i] as IndexEntry;
    pathLengths[i] = utf8Length(entry.path, i);
    if (entry.skipWorktree || entry.intentToAdd) version = 3;
  }
  const order = sortedOrder(entries);

  let total = HEADER_SIZE + HASH_SIZE;
  for (let i = 0; i < count; i++) total += entrySize(entries[i] as IndexEntry, pathLengths[i] as number);
  for (let i = 0; i < extensions.length; i++) {
    const { signature, data: extensionData } = extensions[i] as IndexExtension;
    if (signature.length !== 4 || [...signature].some((char) => char.charCodeAt(0) > 0xff)) {
      throw new InvalidArgumentError(`extensions[${i}].signature`, 'four one-byte characters', JSON.stringify(signature));
    }
    total += 8 + extensionData.length;
  }

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, SIGNATURE);
  view.setUint32(4, version);
  view.setUint32(8, count);
  let pos = HEADER_SIZE;
  for (let k = 0; k < count; k++) {
    const i = order === null ? k : (order[k] as number);
    const entry = entries[i] as IndexEntry;
    const { path, stage } = entry;
    const length = pathLengths[i] as number;
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
    view.setUint16(
      pos + 60,
      (entry.assumeValid ? FLAG_ASSUME_VALID : 0) | (extended ? FLAG_EXTENDED : 0) | (stage << FLAG_STAGE_SHIFT) | Math.min(length, NAME_MASK),
    );
    let nameStart = pos + ENTRY_FIXED_SIZE;
    if (extended) {
      view.setUint16(nameStart, extended);
      nameStart += 2;
    }
    if (length === path.length) {
      for (let c = 0; c < length; c++) out[nameStart + c] = path.charCodeAt(c);
    } else {
      pathEncoder.encodeInto(path, out.subarray(nameStart, nameStart + length));
    }
    // The padding NULs are already there: the buffer starts zeroed.
    pos += entrySize(entry, length);
  }
  for (const { signature, data: extensionData } of extensions) {
    for (let c = 0; c < 4; c++) out[pos + c] = signature.charCodeAt(c);
    view.setUint32(pos + 4, extensionData.length);
    out.set(extensionData, pos + 8);
    pos += 8 + extensionData.length;
  }
  out.set(await sha1(out.subarray(0, pos)), pos);
  return out;
}

/**
 * Extensions that stay valid when entries change: keep only these when rewriting an index after
 * changing entries.
 */
export function extensionsSafeToKeep(extensions: readonly IndexExtension[]): IndexExtension[] {
  // Only REUC survives: it records conflict stages that were resolved, history that no entry
  // change contradicts (git itself carries it across ordinary index writes). The others describe
  // the entries as they were and would lie after a change: TREE caches tree ids per folder, UNTR
  // caches which files are untracked, FSMN keeps a bitmap by entry position, EOIE and IEOT hold
  // byte offsets into the old file. Unknown optional ones go too, as we cannot tell. Git rebuilds
  // whatever it misses.
  return extensions.filter((extension) => extension.signature === 'REUC');
}

const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
const hexScratch = new Uint8Array(40);
const asciiDecoder = new TextDecoder('latin1');

/** The 20 bytes at `offset` as 40 hex digits: one flat string, with no intermediate array or concatenation. */
function oidAt(bytes: Uint8Array, offset: number): string {
  for (let k = 0; k < 20; k++) {
    const byte = bytes[offset + k] as number;
    hexScratch[2 * k] = HEX_DIGITS[byte >> 4] as number;
    hexScratch[2 * k + 1] = HEX_DIGITS[byte & 15] as number;
  }
  return asciiDecoder.decode(hexScratch);
}

function corrupt(detail: string): never {
  throw new IndexFileError('IndexCorrupt', detail);
}

function decodePath(bytes: Uint8Array, index: number): string {
  try {
    return pathDecoder.decode(bytes);
  } catch {
    throw new IndexFileError('IndexUnsupported', `the path of entry ${index} is not valid UTF-8`, { pathBytes: toHex(bytes) });
  }
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
function sortedOrder(entries: readonly IndexEntry[]): number[] | null {
  let order: number[] | null = null;
  for (let i = 1; i < entries.length; i++) {
    if (compareEntries(entries[i - 1] as IndexEntry, entries[i] as IndexEntry) > 0) {
      order = Array.from(entries.keys()).sort((a, b) => compareEntries(entries[a] as IndexEntry, entries[b] as IndexEntry));
      break;
    }
  }
  for (let k = 1; k < entries.length; k++) {
    const i = order === null ? k : (order[k] as number);
    const before = entries[order === null ? k - 1 : (order[k - 1] as number)] as IndexEntry;
    const entry = entries[i] as IndexEntry;
    if (before.path === entry.path && (before.stage === entry.stage || before.stage === 0 || entry.stage === 0)) {
      throw new InvalidArgumentError(
        `entries[${i}]`,
        'a path at most once per stage, and never both at stage 0 and in conflict stages',
        `"${entry.path}" at stages ${before.stage} and ${entry.stage}`,
      );
    }
  }
  return order;
}

function compareEntries(a: IndexEntry, b: IndexEntry): number {
  return comparePaths(a.path, b.path) || a.stage - b.stage;
}

/** Compares like the paths' UTF-8 bytes would, without encoding them. */
function comparePaths(a: string, b: string): number {
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

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE[d.toString(16).charCodeAt(0)] = d;
  HEX_VALUE[d.toString(16).toUpperCase().charCodeAt(0)] = d;
}

/** Writes 40 hex digits as 20 bytes at `offset`, checking them on the way (no intermediate array). */
function writeOid(out: Uint8Array, offset: number, oid: string, index: number): void {
  let bad = oid.length !== 40;
  for (let k = 0; k < 20 && !bad; k++) {
    const high = HEX_VALUE[oid.charCodeAt(2 * k)] ?? -1;
    const low = HEX_VALUE[oid.charCodeAt(2 * k + 1)] ?? -1;
    if (high < 0 || low < 0) bad = true;
    out[offset + k] = (high << 4) | low;
  }
  if (bad) throw new InvalidArgumentError(`entries[${index}].oid`, '40 hex digits', JSON.stringify(oid));
}
