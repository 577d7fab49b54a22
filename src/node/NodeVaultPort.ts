import { closeSync, fstatSync, openSync, readFile as readFileCallback, readSync, rename as renameCallback, stat as statCallback, writeFile as writeFileCallback, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { appendFile, lstat, mkdir, open, readdir, readlink, rm } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import {
  AlreadyExistsError,
  IoError,
  NotFoundError,
  WrongKindError,
  fromPlatformError,
  isMissingPathError,
  platformErrorCode,
} from '../core/errors';
import { ChangeFeed, listingOf, readLinkOrNull, type ReadOptions, type StatAndBytes, type VaultChange, type VaultChangeListener, type VaultListing, type VaultPort, type VaultStat } from '../core/ports';
import { KeyedMutex } from '../core/util/KeyedMutex';
import { watchFolderTree, type FolderWatcher } from './folderWatcher';

export interface NodeVaultPortOptions {
  /**
   * Report changes made by other programs (an editor, a sync client) through `onChange`, using a
   * watch on the folder tree (`watchFolderTree`), started with the first listener. Default `true`.
   */
  watch?: boolean;
  /** Vault-relative folders whose changes are not reported (e.g. `.git`). Default `['.git']`. */
  ignoreFolders?: readonly string[];
}

interface Fingerprint {
  mtimeMs: number;
  size: number;
}

/** `VaultPort` over a real folder with Node's `fs`. */
export class NodeVaultPort implements VaultPort {
  readonly root: string;
  private readonly feed = new ChangeFeed((error) => console.error('Recursa: a vault change listener failed', error));
  private readonly locks = new KeyedMutex();
  /** What our own last write or delete left at a path, so the watcher does not report it again. */
  private readonly ownChanges = new Map<string, Fingerprint | null>();
  private readonly watchEnabled: boolean;
  private readonly ignoreFolders: readonly string[];
  private watcher: FolderWatcher | null = null;
  private readonly pendingWatch = new Map<string, { timer: ReturnType<typeof setTimeout>; appeared: boolean }>();

  constructor(root: string, options: NodeVaultPortOptions = {}) {
    this.root = resolve(root);
    this.watchEnabled = options.watch ?? true;
    this.ignoreFolders = options.ignoreFolders ?? ['.git'];
  }

  /** Opens a port over `dir`, which must be an existing folder. */
  static async open(dir: string, options?: NodeVaultPortOptions): Promise<NodeVaultPort> {
    const info = await statFile(dir).catch(() => null);
    if (info === null) throw new NotFoundError(dir);
    if (!info.isDirectory()) throw new WrongKindError(dir, 'folder');
    return new NodeVaultPort(dir, options);
  }

  async readText(path: string): Promise<string> {
    return this.io('read', path, () => readFile(this.abs(path), 'utf8'));
  }

  async readBinary(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    const { maxBytes } = options;
    const buffer = await this.io('read', path, () => (maxBytes === undefined ? readFile(this.abs(path)) : readStart(this.abs(path), maxBytes)));
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  /**
   * Opens, stats, reads and closes the file with synchronous calls: for a note of a few kilobytes
   * these take microseconds, where the thread pool's round trip for each of them (and one more for
   * `stat`) cost three times the wall time and the CPU of an index build's reads.
   */
  async readWithStat(path: string, options: ReadOptions = {}): Promise<StatAndBytes | null> {
    const full = this.abs(path);
    let fd: number;
    try {
      fd = openSync(full, 'r');
    } catch (error) {
      if (isMissingPathError(error)) return null;
      throw fromPlatformError('read', path, error);
    }
    try {
      const stat = vaultStatOf(fstatSync(fd));
      if (stat.kind === 'folder') return { stat, bytes: new Uint8Array(0) };
      const buffer = Buffer.allocUnsafe(Math.min(stat.size, options.maxBytes ?? Number.POSITIVE_INFINITY));
      let read = 0;
      for (let got = -1; read < buffer.length && got !== 0; read += got) got = readSync(fd, buffer, read, buffer.length - read, read);
      return { stat, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, read) };
    } catch (error) {
      throw fromPlatformError('read', path, error);
    } finally {
      closeSync(fd);
    }
  }

  async write(path: string, data: string): Promise<void> {
    await this.locks.run(path, () => this.writeUnlocked(path, data));
  }

  async writeBinary(path: string, data: Uint8Array): Promise<void> {
    await this.locks.run(path, () => this.writeUnlocked(path, data));
  }

  async process(path: string, fn: (current: string) => string): Promise<string> {
    return this.locks.run(path, async () => {
      const current = await this.readText(path);
      const next = fn(current);
      await this.writeUnlocked(path, next);
      return next;
    });
  }

  async exists(path: string): Promise<boolean> {
    return (await this.stat(path)) !== null;
  }

  async stat(path: string): Promise<VaultStat | null> {
    const info = await statFile(this.abs(path)).catch((error: unknown) => {
      if (isMissingPathError(error)) return null;
      throw fromPlatformError('stat', path, error);
    });
    return info === null ? null : vaultStatOf(info);
  }

  async list(path: string): Promise<VaultListing> {
    return listingOf(path, await this.io('list', path, () => readdir(this.abs(path), { withFileTypes: true })));
  }

  async mkdir(path: string): Promise<void> {
    const existing = await this.stat(path);
    if (existing?.kind === 'folder') return;
    if (existing?.kind === 'file') throw new WrongKindError(path, 'folder');
    const first = await this.io('mkdir', path, () => mkdir(this.abs(path), { recursive: true }));
    if (first === undefined) return;
    // Report every level that was created, outermost first, as Obsidian does.
    const firstCreated = first.slice(this.root.length + 1).split(sep).join('/');
    const segments = path.split('/');
    for (let depth = firstCreated.split('/').length; depth <= segments.length; depth++) {
      this.emit({ type: 'create', path: segments.slice(0, depth).join('/'), kind: 'folder' });
    }
  }

  async remove(path: string): Promise<void> {
    await this.locks.run(path, async () => {
      const existing = await this.stat(path);
      if (existing === null) throw new NotFoundError(path);
      // A link to a folder is removed as the link alone: what it points at stays, so report no files under it.
      const isLink = existing.kind === 'folder' && (await lstat(this.abs(path))).isSymbolicLink();
      const files = existing.kind === 'folder' && !isLink ? await this.filesUnder(path) : [];
      await this.io('remove', path, () => rm(this.abs(path), { recursive: true }));
      for (const file of files) this.recordOwn(file, null);
      this.recordOwn(path, null);
      for (const file of files) this.emit({ type: 'delete', path: file, kind: 'file' });
      this.emit({ type: 'delete', path, kind: isLink ? 'file' : existing.kind });
    });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.locks.run(from, async () => {
      const source = await statFile(this.abs(from)).catch(() => null);
      if (source === null) throw new NotFoundError(from);
      const target = await statFile(this.abs(to)).catch(() => null);
      // On case-insensitive file systems `a.md` -> `A.md` finds the source itself at the target.
      if (target !== null && !(target.ino === source.ino && target.dev === source.dev)) {
        throw new AlreadyExistsError(to);
      }
      await this.ensureParent(to);
      await this.io('rename', from, () => rename(this.abs(from), this.abs(to)));
      this.recordOwn(from, null);
      this.emit({ type: 'rename', path: to, oldPath: from, kind: source.isDirectory() ? 'folder' : 'file' });
    });
  }

  async createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
    return this.locks.run(path, async () => {
      // `wx` is O_CREAT|O_EXCL: the operating system decides, so another process racing for the
      // same lock file gets EEXIST. It refuses a dangling link at the path too.
      const created = await this.io('createExclusive', path, () => this.createOr(path, data, async () => undefined));
      if (created) await this.reportOwnWrite(path, true);
      return created;
    });
  }

  async replace(from: string, to: string): Promise<void> {
    await this.locks.run(to, async () => {
      const target = await statFile(this.abs(to)).catch(() => null);
      if (target?.isDirectory() === true) throw new WrongKindError(to, 'file');
      // One rename(2): atomic, so a reader of `to` sees the old file or the new one, never none.
      await this.io('replace', from, async () => {
        try {
          await rename(this.abs(from), this.abs(to));
        } catch (error) {
          if (!isMissingPathError(error)) throw error;
          const source = await this.stat(from);
          if (source === null) throw new NotFoundError(from);
          if (source.kind === 'folder') throw new WrongKindError(from, 'file');
          await this.ensureParent(to);
          await rename(this.abs(from), this.abs(to));
        }
      });
      this.recordOwn(from, null);
      await this.reportOwnWrite(to, target === null);
      this.emit({ type: 'delete', path: from, kind: 'file' });
    });
  }

  async append(path: string, data: string): Promise<void> {
    await this.locks.run(path, async () => {
      // A folder here fails with EISDIR: WrongKind.
      const created = await this.io('append', path, () => this.createOr(path, data, () => appendFile(this.abs(path), data, 'utf8')));
      await this.reportOwnWrite(path, created);
    });
  }

  async readLink(path: string): Promise<string | null> {
    return readLinkOrNull(path, () => readlink(this.abs(path), 'utf8'));
  }

  onChange(listener: VaultChangeListener): () => void {
    const remove = this.feed.add(listener);
    if (this.watchEnabled && this.watcher === null) this.startWatching();
    return () => {
      remove();
      if (this.feed.size === 0) this.stopWatching();
    };
  }

  /** Stops watching the folder; the port stays usable. */
  close(): void {
    this.feed.clear();
    this.stopWatching();
  }

  private async writeUnlocked(path: string, data: string | Uint8Array): Promise<void> {
    // A folder here fails with EISDIR: WrongKind.
    const created = await this.io('write', path, () => this.createOr(path, data, () => writeFile(this.abs(path), data)));
    await this.reportOwnWrite(path, created);
  }

  /**
   * Creates the file exclusively (`wx`), making missing parents; when something is already there,
   * `whenTaken` decides what happens to it (replace, append, nothing). Optimistic: one exclusive
   * create in the common case, and only on failure find out why. Resolves true when it created the file.
   */
  private async createOr(path: string, data: string | Uint8Array, whenTaken: () => Promise<void>): Promise<boolean> {
    const create = async (): Promise<boolean> => {
      try {
        await writeFile(this.abs(path), data, { flag: 'wx' });
        return true;
      } catch (error) {
        if (platformErrorCode(error) !== 'EEXIST') throw error;
        await whenTaken();
        return false;
      }
    };
    try {
      return await create();
    } catch (error) {
      const code = platformErrorCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    await this.ensureParent(path); // a file in the way fails with WrongKind
    return create();
  }

  /** Remembers what our own write left (so the watcher does not report it again) and reports it. */
  private async reportOwnWrite(path: string, created: boolean): Promise<void> {
    if (this.watcher !== null) {
      const after = await this.stat(path);
      this.recordOwn(path, after === null ? null : { mtimeMs: after.mtime, size: after.size });
    }
    this.emit({ type: created ? 'create' : 'modify', path, kind: 'file' });
  }

  private async ensureParent(path: string): Promise<void> {
    const slash = path.lastIndexOf('/');
    if (slash > 0) await this.mkdir(path.slice(0, slash));
  }

  private async filesUnder(folder: string): Promise<string[]> {
    const { files, folders } = await this.list(folder);
    const nested = await Promise.all(folders.map((child) => this.filesUnder(child)));
    return files.concat(...nested);
  }

  /** Absolute path for a vault path; refuses anything that would land outside the root. */
  private abs(path: string): string {
    const full = path === '' ? this.root : resolve(this.root, path);
    if (full !== this.root && !full.startsWith(this.root + sep)) {
      throw new IoError('resolve', 'path leaves the vault folder', path);
    }
    return full;
  }

  private async io<T>(operation: string, path: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw fromPlatformError(operation, path, error);
    }
  }

  private emit(change: VaultChange): void {
    this.feed.emit(change);
  }

  private recordOwn(path: string, fingerprint: Fingerprint | null): void {
    this.ownChanges.set(path, fingerprint);
  }

  private startWatching(): void {
    try {
      this.watcher = watchFolderTree(this.root, {
        ignore: (path) => this.isIgnored(path),
        // Editors write in bursts (truncate, write, rename); look once things settle.
        onEvent: (event, path) => {
          const pending = this.pendingWatch.get(path);
          if (pending) clearTimeout(pending.timer);
          const appeared = (pending?.appeared ?? false) || event === 'rename';
          const timer = setTimeout(() => void this.reportExternal(path, appeared), 30);
          this.pendingWatch.set(path, { timer, appeared });
        },
        onError: () => this.stopWatching(),
      });
    } catch {
      this.watcher = null; // Watching is best-effort: a platform may refuse it.
    }
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    for (const { timer } of this.pendingWatch.values()) clearTimeout(timer);
    this.pendingWatch.clear();
  }

  private isIgnored(path: string): boolean {
    const lower = path.toLowerCase();
    return this.ignoreFolders.some((folder) => {
      const f = folder.toLowerCase();
      return lower === f || lower.startsWith(`${f}/`);
    });
  }

  private async reportExternal(path: string, appeared: boolean): Promise<void> {
    this.pendingWatch.delete(path);
    // Behind any change of ours still in flight on this path, which records what it left only
    // after writing: on a busy machine the watcher can fire before that, and report it twice.
    await this.locks.run(path, () => this.reportExternalUnlocked(path, appeared));
  }

  private async reportExternalUnlocked(path: string, appeared: boolean): Promise<void> {
    const now = await this.stat(path).catch(() => null);
    const known = this.ownChanges.get(path);
    const fingerprint = now === null ? null : { mtimeMs: now.mtime, size: now.size };
    if (known !== undefined && sameFingerprint(known, fingerprint)) return;
    this.recordOwn(path, fingerprint);
    if (now === null) {
      this.emit({ type: 'delete', path, kind: 'file' });
    } else if (now.kind === 'file') {
      const isNew = known === null || (known === undefined && appeared);
      this.emit({ type: isNew ? 'create' : 'modify', path, kind: 'file' });
    }
  }
}

function sameFingerprint(a: Fingerprint | null, b: Fingerprint | null): boolean {
  if (a === null || b === null) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size;
}

// The callback forms of the calls every note and every git object makes: `fs/promises` wraps
// each step (open, stat, read, close) in a FileHandle promise and costs about twice as much per file.
const readFile = promisify(readFileCallback);
const writeFile = promisify(writeFileCallback);
const rename = promisify(renameCallback);

/** The first `maxBytes` bytes of a file (all of it when shorter), without loading the rest. */
async function readStart(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, Math.min(maxBytes, (await handle.stat()).size)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A file or folder as the port describes it (a folder's size is 0). */
function vaultStatOf(info: Stats): VaultStat {
  const kind = info.isDirectory() ? 'folder' : 'file';
  return { kind, size: kind === 'folder' ? 0 : info.size, mtime: info.mtimeMs, ctime: info.ctimeMs };
}

/**
 * `fs.stat` through its callback: about twice as quick as `fs/promises`, which counts when a load
 * checks every note of a large vault.
 */
function statFile(path: string): Promise<Stats> {
  return new Promise((settle, fail) => {
    statCallback(path, (error, stats) => (error === null ? settle(stats) : fail(error)));
  });
}
