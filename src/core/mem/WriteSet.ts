import type { VaultPort } from '../ports';
import { sortByCodePoints } from '../util/compareCodePoints';

/** Enough of a file's state to notice that someone changed it. */
export interface FileFingerprint {
  size: number;
  mtime: number;
}

/** One file the agent wrote, renamed or deleted through `mem`. */
export interface WriteSetEntry {
  /** Vault-relative file path. Folder operations are recorded file by file. */
  path: string;
  /** Whether a file existed at the path before the agent first touched it. */
  existedBefore: boolean;
  /** Id of the content before the agent first touched it, when an `OriginalStore` keeps it. */
  original: string | null;
  /** What the agent left at the path; null when it left nothing there. */
  leftByAgent: FileFingerprint | null;
  /**
   * Blob id of what the agent left (null: nothing), when an `OriginalStore` keeps it — what the
   * agent's commit records, even if the user edits the file again before that commit.
   */
  written?: string | null;
}

/** Keeps file contents as blobs (the git layer's object store), by id. */
export interface OriginalStore {
  /**
   * Before the agent first changes `paths`: keeps the content of each that exists (its blob id) —
   * committing first, as the user's own commit, any uncommitted edits of the user's to them.
   */
  saveOriginals(paths: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** After the agent changed `paths`: keeps what it left there (blob id; null when nothing is there). */
  saveWritten(paths: readonly string[]): Promise<ReadonlyMap<string, string | null>>;
}

/**
 * The agent's write-set: every file a `mem` call wrote, renamed (both names) or deleted since the
 * set was last cleared. The git layer commits exactly this set, so the user's own edits to other
 * files are never swept into an agent commit; it restores files from it for checkpoints and
 * discards, and its fingerprints tell when the user changed a file after the agent did.
 */
export class WriteSet {
  private readonly entries = new Map<string, WriteSetEntry>();
  private originals: OriginalStore | null = null;

  constructor(private readonly vault: VaultPort) {}

  /** From now on, keep the original content of every file the agent first touches. */
  keepOriginals(store: OriginalStore | null): void {
    this.originals = store;
  }

  /**
   * Runs a `mem` mutation of `paths` (files, or paths where files will be): captures the state
   * of paths touched for the first time, runs `mutate`, then fingerprints what it left. A
   * mutation that throws records nothing new.
   */
  async track<T>(paths: readonly string[], mutate: () => Promise<T>): Promise<T> {
    const fresh = new Map<string, WriteSetEntry>();
    for (const path of new Set(paths)) {
      if (this.entries.has(path)) continue;
      const before = await this.vault.stat(path);
      fresh.set(path, { path, existedBefore: before?.kind === 'file', original: null, leftByAgent: null });
    }
    const store = this.originals;
    if (store !== null) {
      const originals = await store.saveOriginals([...fresh.values()].filter((entry) => entry.existedBefore).map((entry) => entry.path));
      for (const [path, oid] of originals) (fresh.get(path) as WriteSetEntry).original = oid;
    }
    // Recorded before the change lands: a first snapshot running meanwhile must find the path
    // the agent is changing and take its original, never what the agent is writing.
    for (const [path, entry] of fresh) this.entries.set(path, entry);
    let result: T;
    try {
      result = await mutate();
    } catch (error) {
      for (const path of fresh.keys()) this.entries.delete(path);
      throw error;
    }
    await this.refresh(paths);
    if (store !== null) {
      for (const [path, oid] of await store.saveWritten(paths)) this.setWritten(path, oid);
    }
    return result;
  }

  /** Records the blob of what is now at a recorded path (the git layer restored it, say). */
  setWritten(path: string, oid: string | null): void {
    const entry = this.entries.get(path);
    if (entry !== undefined) entry.written = oid;
  }

  /** Fingerprints the paths again (after the git layer restored them, say). */
  async refresh(paths: Iterable<string>): Promise<void> {
    for (const path of paths) {
      const entry = this.entries.get(path);
      if (entry !== undefined) entry.leftByAgent = await fingerprint(this.vault, path);
    }
  }

  /** The paths whose current state differs from what the agent left (edited by someone else). */
  async changedByOthers(paths: Iterable<string> = this.entries.keys()): Promise<string[]> {
    const changed: string[] = [];
    for (const path of paths) {
      const entry = this.entries.get(path);
      if (entry === undefined) continue;
      if (!sameFingerprint(entry.leftByAgent, await fingerprint(this.vault, path))) changed.push(path);
    }
    return sortByCodePoints(changed);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  get(path: string): Readonly<WriteSetEntry> | undefined {
    return this.entries.get(path);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The recorded paths, sorted. */
  paths(): string[] {
    return sortByCodePoints([...this.entries.keys()]);
  }

  /** Path and `existedBefore` of each entry, sorted by path. */
  list(): { path: string; existedBefore: boolean }[] {
    return this.paths().map((path) => ({ path, existedBefore: (this.entries.get(path) as WriteSetEntry).existedBefore }));
  }

  delete(path: string): void {
    this.entries.delete(path);
  }

  clear(): void {
    this.entries.clear();
  }
}

async function fingerprint(vault: VaultPort, path: string): Promise<FileFingerprint | null> {
  const info = await vault.stat(path);
  return info?.kind === 'file' ? { size: info.size, mtime: info.mtime } : null;
}

function sameFingerprint(a: FileFingerprint | null, b: FileFingerprint | null): boolean {
  return a === null || b === null ? a === b : a.size === b.size && a.mtime === b.mtime;
}
