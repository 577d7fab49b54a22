import type { VaultPort, VaultStat } from '../ports';
import { parseIndex, type GitIndexData, type IndexEntry } from './indexFile';
import type { SerializedIndex } from './indexSerialize';
import { hexAt } from './sha1';

/** A parsed index and what is needed to trust it. */
export interface IndexSnapshot {
  data: GitIndexData;
  /** Stage-0 entries by path. */
  byPath: ReadonlyMap<string, IndexEntry>;
  /** Paths with unmerged (stage 1–3) entries. */
  conflicted: ReadonlySet<string>;
  /** The index file's size and mtime when read; null when there is no index yet. */
  file: { size: number; mtime: number } | null;
  /** The file's own checksum (its last 20 bytes), to tell a rewrite that kept size and mtime. */
  trailer: string | null;
  /**
   * The index as Recursa wrote it, when this is the file it wrote: the next write copies what did
   * not change. Its entries, and so `data.entries`, are in git's order.
   */
  written: SerializedIndex | null;
}

/** The index file's lock as looked at before it was moved into place (see `IndexCache.adopt`). */
export interface StagedIndex {
  lock: { size: number; mtime: number } | null;
  /** `Date.now()` after that look, before the move. */
  lookedAt: number;
}

/** Not yet known to match the file: its bytes are compared before its stat is trusted. */
const UNCONFIRMED = Number.NEGATIVE_INFINITY;

/**
 * How long after its mtime a file can still be rewritten without its mtime changing: file times
 * are whole seconds on HFS+ and ext3 and two on FAT, and where they carry milliseconds they still
 * move by a clock tick (4–16 ms on Linux and Windows, 10 ms on exFAT). A time in whole seconds is
 * taken for a coarse file system; a fine one gives such a time once in a thousand writes, which
 * costs only a read.
 */
export function tickOf(mtime: number): number {
  return mtime % 1000 === 0 ? 2_000 : 100;
}

/**
 * The index, parsed once and reused until the file changes (another git program may rewrite
 * it at any time, so every read checks the file's size and mtime first). Until a tick has passed
 * since its mtime, a rewrite may have kept both, so the bytes are compared too — once, soon after
 * the tick, off any caller's path: an agent's next commit then finds it confirmed and reads only
 * its stat, not the megabyte a 10,000-note index weighs.
 */
export class IndexCache {
  private snapshot: IndexSnapshot | null = null;
  /** When the snapshot was last known to match the file (`Date.now()`). */
  private confirmedAt = 0;
  private confirming: ReturnType<typeof setTimeout> | null = null;
  /** The confirming read while it runs. */
  private confirmation: Promise<unknown> | null = null;
  /** The bytes of the index written before the kept one: read by no one, reused by the next write. */
  private spare: Uint8Array | null = null;
  private closed = false;

  constructor(
    private readonly vault: VaultPort,
    readonly path = '.git/index',
  ) {}

  async read(): Promise<IndexSnapshot> {
    // A confirmation under way reads the bytes already: wait for it rather than read them twice
    // (then look again: it tells only what the file was when it read it).
    if (this.confirmation !== null) await this.confirmation;
    const info = await this.vault.stat(this.path);
    const cached = this.snapshot;
    const now = Date.now();
    if (cached !== null && sameFile(cached.file, info)) {
      if (cached.file === null || this.confirmedAt - cached.file.mtime >= tickOf(cached.file.mtime)) return cached;
      const bytes = await this.vault.readBinary(this.path);
      if (trailerOf(bytes) === cached.trailer) {
        // Another read may have put a newer snapshot in place meanwhile: this confirms only this one.
        if (this.snapshot === cached) this.confirmedAt = now;
        return cached;
      }
      return this.parse(bytes, info, now);
    }
    if (info === null) {
      this.snapshot = snapshotOf({ version: 2, entries: [], extensions: [] }, null, null, null);
      this.confirmedAt = now;
      return this.snapshot;
    }
    return this.parse(await this.vault.readBinary(this.path), info, now);
  }

  /** The new index in its lock, looked at just before the lock is moved into place (see `adopt`). */
  async staged(): Promise<StagedIndex> {
    // Only an aid to the next read: a look that fails leaves that read to compare the bytes, and
    // must not fail a commit that goes through.
    const lock = await this.vault.stat(`${this.path}.lock`).catch(() => null);
    return { lock: lock === null ? null : { size: lock.size, mtime: lock.mtime }, lookedAt: Date.now() };
  }

  /**
   * Takes the index Recursa itself just wrote and moved into place (`written`), so the next read
   * need not parse it again. `staged` is its lock as looked at before the move: once the move gave
   * the lock up, another program may have replaced the file before it is looked at here, and this
   * process's entries must not pass for that file's. So the file is taken for this index only when
   * it has the lock's size and mtime, and as known to match only from before the move (a rewrite
   * after it could keep both only within a tick of that mtime). Any other file is compared by its
   * bytes before it is trusted.
   */
  async adopt(data: GitIndexData, written: SerializedIndex, staged: StagedIndex): Promise<IndexSnapshot | null> {
    const before = this.snapshot?.written?.bytes ?? null;
    const info = await this.vault.stat(this.path);
    if (info === null || this.closed) {
      this.forget();
      return null;
    }
    // The entries as written: in git's order, which `written` put them in if `data`'s were not.
    const entries = written.entries === data.entries ? data.entries : [...written.entries];
    const moved = staged.lock !== null && sameFile(staged.lock, info);
    const kept = this.keep(snapshotOf({ ...data, entries }, info, trailerOf(written.bytes), written), moved ? staged.lookedAt : UNCONFIRMED);
    // Never the bytes kept: the next write copies from them.
    if (before !== written.bytes) this.spare = before;
    return kept;
  }

  /**
   * Bytes for the next index write to fill, if it has their size (`serializeIndexReusing`'s
   * `spare`), given once: the platform has taken them, as every write of them has finished.
   */
  takeSpare(): Uint8Array | null {
    const { spare } = this;
    this.spare = null;
    return spare;
  }

  /** Stops the pending confirmation and lets the snapshot go. */
  close(): void {
    this.closed = true;
    this.forget();
  }

  private forget(): void {
    if (this.confirming !== null) clearTimeout(this.confirming);
    this.confirming = null;
    this.snapshot = null;
    this.spare = null;
  }

  private async parse(bytes: Uint8Array, info: VaultStat | null, now: number): Promise<IndexSnapshot> {
    return this.keep(snapshotOf(await parseIndex(bytes), info, trailerOf(bytes), null), now);
  }

  /** Keeps `snapshot`, known to match the file at `confirmedAt`; compares the bytes once more after the tick if that is too soon to trust its stat. */
  private keep(snapshot: IndexSnapshot, confirmedAt: number): IndexSnapshot {
    this.snapshot = snapshot;
    this.confirmedAt = confirmedAt;
    if (this.confirming !== null) clearTimeout(this.confirming);
    this.confirming = null;
    const { file } = snapshot;
    const tick = file === null ? 0 : tickOf(file.mtime);
    if (!this.closed && file !== null && confirmedAt - file.mtime < tick) {
      // At most a tick: a file time ahead of this clock must not put the look off for long.
      const wait = Math.min(Math.max(file.mtime + tick - Date.now(), 0), tick) + 1;
      this.confirming = setTimeout(() => {
        this.confirming = null;
        const confirmation = this.read()
          .catch(() => undefined)
          .finally(() => {
            if (this.confirmation === confirmation) this.confirmation = null;
          });
        this.confirmation = confirmation;
      }, wait);
      // Node: a command-line run ends without waiting for it.
      (this.confirming as { unref?: () => void }).unref?.();
    }
    return snapshot;
  }
}

function trailerOf(bytes: Uint8Array): string {
  const length = Math.min(20, bytes.length);
  return hexAt(bytes, bytes.length - length, length);
}

/**
 * A snapshot whose lookups are built when first asked for: a commit adopts the index it wrote and
 * often never looks a path up before the next commit replaces it (10,000 entries, on a phone, are
 * milliseconds a commit need not spend).
 */
function snapshotOf(data: GitIndexData, info: VaultStat | null, trailer: string | null, written: SerializedIndex | null): IndexSnapshot {
  let lookups: { byPath: Map<string, IndexEntry>; conflicted: Set<string> } | null = null;
  const lookupsOf = (): { byPath: Map<string, IndexEntry>; conflicted: Set<string> } => {
    if (lookups !== null) return lookups;
    lookups = { byPath: new Map(), conflicted: new Set() };
    for (const entry of data.entries) {
      if (entry.stage === 0) lookups.byPath.set(entry.path, entry);
      else lookups.conflicted.add(entry.path);
    }
    return lookups;
  };
  return {
    data,
    get byPath() {
      return lookupsOf().byPath;
    },
    get conflicted() {
      return lookupsOf().conflicted;
    },
    file: info === null ? null : { size: info.size, mtime: info.mtime },
    trailer,
    written,
  };
}

function sameFile(known: IndexSnapshot['file'], info: VaultStat | null): boolean {
  return known === null ? info === null : info !== null && known.size === info.size && known.mtime === info.mtime;
}

const FILE_MODE = 0o100644;

/** An index entry for a file as it is now in the vault (`dev`, `ino`, `uid`, `gid` are unknown to the port: 0). */
export function indexEntryFor(path: string, oid: string, stat: VaultStat, mode = FILE_MODE): IndexEntry {
  const ctime = splitTime(stat.ctime);
  const mtime = splitTime(stat.mtime);
  return {
    path,
    ctimeSeconds: ctime.seconds,
    ctimeNanoseconds: ctime.nanoseconds,
    mtimeSeconds: mtime.seconds,
    mtimeNanoseconds: mtime.nanoseconds,
    dev: 0,
    ino: 0,
    mode,
    uid: 0,
    gid: 0,
    size: stat.size,
    oid,
    stage: 0,
    assumeValid: false,
    skipWorktree: false,
    intentToAdd: false,
  };
}

function splitTime(ms: number): { seconds: number; nanoseconds: number } {
  const whole = Math.floor(ms);
  // `| 0` (the value is below 10^9, so unchanged) keeps it a small integer. Computed from a time
  // in milliseconds, past that range, it is a boxed double; one such store makes the field a
  // double in every entry's hidden class, and each entry then carries two boxed numbers more:
  // 20,000 objects at 10,000 notes for every garbage collection to walk.
  return { seconds: Math.floor(whole / 1000), nanoseconds: ((whole % 1000) * 1_000_000) | 0 };
}

/** An entry's mtime in whole milliseconds, the precision the vault port reports. */
export function entryMtimeMs(entry: IndexEntry): number {
  return entry.mtimeSeconds * 1000 + Math.floor(entry.mtimeNanoseconds / 1_000_000);
}

/**
 * Git's "racily clean" rule: an entry whose mtime is not older than the index file itself may
 * describe a file that changed again within the same timestamp tick, so its stat proves nothing.
 * Compared in whole seconds, because that is all many git builds and file systems keep.
 */
export function isRacy(entry: IndexEntry, indexMtime: number | null): boolean {
  return indexMtime !== null && entry.mtimeSeconds >= Math.floor(indexMtime / 1000);
}

/**
 * Whether the file on disk is certainly what the entry recorded, judged by size and mtime alone
 * (the port knows no inode or device numbers) — never for a racy entry.
 */
export function statMatches(entry: IndexEntry, stat: VaultStat, indexMtime: number | null): boolean {
  if (entry.size !== stat.size || entryMtimeMs(entry) !== Math.floor(stat.mtime)) return false;
  return !isRacy(entry, indexMtime);
}
