/**
 * The vault as core sees it: a folder of files addressed by normalized, vault-relative paths
 * (`Folder/Note.md`, no leading slash; `''` is the vault root).
 *
 * Edge rules every implementation keeps, so core never sees platform quirks:
 * - every method is `async` and never throws synchronously;
 * - a missing path is `null` from `stat`, `false` from `exists`, and a `NotFound` error from
 *   the methods that need the path to exist (`readText`, `readBinary`, `list`, `remove`,
 *   `rename`, `replace`, `process`);
 * - `write`/`writeBinary` create missing parent folders and replace an existing file;
 * - `mkdir` creates parents and succeeds if the folder already exists;
 * - `remove` deletes a folder with everything in it;
 * - `rename` refuses to replace an existing destination and creates the destination's parents;
 *   `replace` is the one move that replaces it (git's "rename the lock over the target");
 * - `createExclusive` and `append` create missing parent folders;
 * - `list` returns immediate children as full vault-relative paths, sorted by code point, with
 *   symbolic links apart in `links`: never followed, so a link loop or a link out of the vault
 *   cannot make a walk endless or lead it outside;
 * - every change made through the port is reported to `onChange` listeners, and so are changes
 *   made by others (the user, a sync client) once the implementation notices them.
 *
 * Paths reaching the port have already passed the path policy (`src/core/paths/`); the port
 * does not re-check them.
 */
export interface VaultPort {
  /** A human-readable name for the vault root: its absolute folder where there is one. */
  readonly root: string;
  readText(path: string): Promise<string>;
  /**
   * The file's bytes; with `maxBytes`, at most that many from its start (where the platform can
   * read part of a file, the rest is never loaded).
   */
  readBinary(path: string, options?: ReadOptions): Promise<Uint8Array>;
  /**
   * Optional: the file's bytes (at most `maxBytes`, as `readBinary`) with its stat, in one step, or
   * null when nothing is there; a folder gives its stat and no bytes. Where a platform can do this
   * with fewer calls than `stat` then `readBinary`, a build that reads every note uses it.
   */
  readWithStat?(path: string, options?: ReadOptions): Promise<StatAndBytes | null>;
  write(path: string, data: string): Promise<void>;
  /** Once the write resolves, `data` is the caller's again: nothing reads it later (git's index reuses its bytes). */
  writeBinary(path: string, data: Uint8Array): Promise<void>;
  /**
   * Atomically replaces the text of an existing file with `fn(current)`. `fn` must be
   * synchronous; if it throws, nothing is written and the error propagates.
   * Resolves to the text that was written.
   */
  process(path: string, fn: (current: string) => string): Promise<string>;
  exists(path: string): Promise<boolean>;
  stat(path: string): Promise<VaultStat | null>;
  list(path: string): Promise<VaultListing>;
  mkdir(path: string): Promise<void>;
  remove(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /**
   * Creates a file only when nothing exists at the path (git's `O_EXCL` lock files): resolves
   * `true` when it created it, `false` — writing nothing — when a file, folder or link is already
   * there. Creates missing parents.
   */
  createExclusive(path: string, data: string | Uint8Array): Promise<boolean>;
  /**
   * Moves the file `from` over the file `to`, replacing it. Where the platform allows (Node,
   * Obsidian desktop) this is one atomic rename, so `to` is never missing; the fallback (mobile)
   * writes `from`'s bytes over `to` in place, with `from`'s modification time as a rename keeps
   * it, and then removes `from` — never removes `to` first.
   * `content`, when the caller knows it (it just wrote `from`), is what `from` holds: the fallback
   * writes it instead of reading `from` back. `NotFound` when `from` is missing.
   */
  replace(from: string, to: string, content?: string | Uint8Array): Promise<void>;
  /** Appends text to a file, creating it and its parents (git's reflogs). */
  append(path: string, data: string): Promise<void>;
  /**
   * The target text of the symbolic link at `path` (as stored, not resolved), or `null` when
   * `path` is not a symbolic link, is missing, or the platform has no links (mobile).
   */
  readLink(path: string): Promise<string | null>;
  /** Subscribes to changes; returns the function that unsubscribes. */
  onChange(listener: VaultChangeListener): () => void;
}

export interface StatAndBytes {
  stat: VaultStat;
  bytes: Uint8Array;
}

export interface ReadOptions {
  /** Read at most this many bytes from the start of the file. */
  maxBytes?: number;
}

export interface VaultStat {
  kind: 'file' | 'folder';
  /** Bytes; 0 for folders. */
  size: number;
  /** Milliseconds since the epoch. */
  mtime: number;
  ctime: number;
}

export interface VaultListing {
  files: string[];
  folders: string[];
  /**
   * Immediate children that are symbolic links, whatever they point at; they are not followed
   * and appear in neither `files` nor `folders`. Always empty where the platform has no links.
   */
  links: string[];
}

export type VaultChange =
  | { type: 'create' | 'modify' | 'delete'; path: string; kind: 'file' | 'folder' }
  | { type: 'rename'; path: string; oldPath: string; kind: 'file' | 'folder' };

export type VaultChangeListener = (change: VaultChange) => void;
