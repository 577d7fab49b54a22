/**
 * Codec for git's index file (`.git/index`), byte-exact with what git writes. Format reference:
 * git's `Documentation/gitformat-index.txt`.
 *
 * Ours rather than isomorphic-git's because its index manager cannot do what a commit of a few
 * paths needs: it rewrites every entry (and `add` stats the work tree: seconds at 10k notes),
 * reads versions 2 and 3 only, keeps no extension, and writes the file in place instead of
 * under `index.lock`. Here entries are replaced one by one and the result is handed to
 * `lockedUpdate`, so the cost follows the change and another git program never sees a torn index.
 * This file reads an index; `indexSerialize` writes one.
 */
import { IndexFileError } from '../errors';
import { isAscii, latin1String } from '../text/asciiString';
import { hexAt, sha1, toHex } from './sha1';

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

export const SIGNATURE = 0x44495243; // 'DIRC'
export const HEADER_SIZE = 12;
export const HASH_SIZE = 20;
/** ctime..size (10 × 32 bits) + object id + 16-bit flags: the fixed part of an entry. */
export const ENTRY_FIXED_SIZE = 62;

export const FLAG_ASSUME_VALID = 0x8000;
export const FLAG_EXTENDED = 0x4000;
export const FLAG_STAGE_SHIFT = 12;
export const NAME_MASK = 0x0fff;
export const EXT_SKIP_WORKTREE = 0x4000;
export const EXT_INTENT_TO_ADD = 0x2000;
const EXT_KNOWN = EXT_SKIP_WORKTREE | EXT_INTENT_TO_ADD;

/** Required extensions git may write, with how to convert them away. */
const REQUIRED_EXTENSIONS: Record<string, { name: string; advice: string } | undefined> = {
  link: { name: 'split index', advice: 'Run `git update-index --no-split-index` to merge it back into one file.' },
  sdir: { name: 'sparse index', advice: 'Run `git sparse-checkout init --no-sparse-index` to expand it.' },
};

// `ignoreBOM` keeps a leading U+FEFF in a path instead of silently dropping it.
const pathDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

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
      oid: hexAt(bytes, start + 40, 20),
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

function corrupt(detail: string): never {
  throw new IndexFileError('IndexCorrupt', detail);
}

function decodePath(bytes: Uint8Array, index: number): string {
  if (isAscii(bytes)) return latin1String(bytes);
  try {
    return pathDecoder.decode(bytes);
  } catch {
    throw new IndexFileError('IndexUnsupported', `the path of entry ${index} is not valid UTF-8`, { pathBytes: toHex(bytes) });
  }
}

