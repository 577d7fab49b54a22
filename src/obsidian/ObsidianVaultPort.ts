import { FileSystemAdapter, Platform, TFile, TFolder, type EventRef, type FileManager, type Stat, type TAbstractFile, type Vault } from 'obsidian';
import { AlreadyExistsError, NotFoundError, WrongKindError, fromPlatformError, isMissingPathError, platformErrorCode } from '../core/errors';
import { ChangeFeed, listingOf, readLinkOrNull, type DirectoryEntry, type ReadOptions, type VaultChange, type VaultChangeListener, type VaultListing, type VaultPort, type VaultStat } from '../core/ports';
import { KeyedMutex } from '../core/util/KeyedMutex';
import { sortByCodePoints } from '../core/util/compareCodePoints';
import { desktopRequire } from './desktopRequire';

/** The parts of Obsidian's `Vault` the port uses (all available since Obsidian 1.4.0). */
export type ObsidianVaultSlice = Pick<
  Vault,
  | 'adapter'
  | 'configDir'
  | 'getName'
  | 'getAbstractFileByPath'
  | 'read'
  | 'readBinary'
  | 'create'
  | 'createBinary'
  | 'createFolder'
  | 'modify'
  | 'modifyBinary'
  | 'process'
  | 'rename'
  | 'on'
  | 'offref'
>;

/** The parts of Obsidian's `App` the port uses; the real `App` satisfies it. */
export interface ObsidianVaultPortApp {
  vault: ObsidianVaultSlice;
  fileManager: Pick<FileManager, 'trashFile'>;
}

type Kind = 'file' | 'folder';

/**
 * `VaultPort` over Obsidian's vault API.
 *
 * Paths Obsidian indexes go through `app.vault`, so the editor, the metadata cache and other
 * plugins see every change as their own: `vault.modify`/`vault.create` to write, `vault.process`
 * (atomic with respect to the editor) to update, `vault.rename` to move (links are core's job, so
 * both runtimes behave alike) and `fileManager.trashFile` to remove (the user's "Deleted files"
 * setting decides where the file goes; nothing is lost). Obsidian does not index hidden paths (a
 * segment starting with `.`, e.g. `.github/`) or its config folder, and its index may lag behind
 * changes made outside it; those paths go through `vault.adapter`, and the port reports their
 * changes to `onChange` itself, as Obsidian fires no vault event for them. (Should Obsidian's file
 * watcher later notice a non-hidden one, it is reported again; listeners treat changes as
 * idempotent.)
 *
 * Writes, updates, removals and renames run one at a time per path.
 *
 * The primitives git's lock protocol needs (`createExclusive`, `replace`, `append`, `readLink`)
 * and listings always go through the adapter: they serve `.git`, which Obsidian does not index.
 * On desktop, where the adapter stands on a real folder, exclusive creation, the atomic rename
 * over an existing file and links use Node's `fs` (Electron's, through `window.require`) on
 * `adapter.getFullPath(path)`, as the adapter offers none of them; on
 * mobile (or wherever `fs` cannot be loaded) they fall back to the adapter alone: no links, and a
 * `replace` that writes over the target in place.
 */
export class ObsidianVaultPort implements VaultPort {
  readonly root: string;
  private readonly vault: ObsidianVaultSlice;
  private readonly fileManager: Pick<FileManager, 'trashFile'>;
  // A failing listener must not fail the change that has already happened.
  private readonly feed = new ChangeFeed((error) => console.error('Recursa: a vault change listener failed', error));
  private readonly locks = new KeyedMutex();
  private subscriptions: EventRef[] = [];
  /** Node's `fs` and the adapter that maps vault paths to its paths: desktop only, else null. */
  private readonly desktop: { fs: DesktopFs; adapter: FileSystemAdapter } | null;

  constructor(app: ObsidianVaultPortApp) {
    this.vault = app.vault;
    this.fileManager = app.fileManager;
    const { adapter } = app.vault;
    // `FileSystemAdapter` exists only on desktop; check the platform before touching it.
    const onDisk = Platform.isDesktopApp && adapter instanceof FileSystemAdapter ? adapter : null;
    this.root = onDisk === null ? app.vault.getName() : onDisk.getBasePath();
    const fs = onDisk === null ? null : loadDesktopFs();
    this.desktop = onDisk === null || fs === null ? null : { fs, adapter: onDisk };
  }

  async readText(path: string): Promise<string> {
    return this.run('readText', path, async () => {
      const file = await this.existingFile(path);
      return file === null ? this.vault.adapter.read(path) : this.vault.read(file);
    });
  }

  async readBinary(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    return this.run('readBinary', path, async () => {
      const file = await this.existingFile(path);
      const bytes = new Uint8Array(file === null ? await this.vault.adapter.readBinary(path) : await this.vault.readBinary(file));
      // Obsidian reads files whole; the caller keeps only the start.
      return options.maxBytes === undefined || bytes.length <= options.maxBytes ? bytes : bytes.slice(0, options.maxBytes);
    });
  }

  async write(path: string, data: string): Promise<void> {
    await this.locks.run(path, () =>
      this.run('write', path, () =>
        this.writeWith(path, {
          modify: (file) => this.vault.modify(file, data),
          create: () => this.vault.create(path, data),
          adapter: () => this.vault.adapter.write(path, data),
        }),
      ),
    );
  }

  async writeBinary(path: string, data: Uint8Array): Promise<void> {
    // Obsidian hands the buffer to the platform whole: give it exactly the view's bytes.
    const buffer = exactArrayBuffer(data);
    await this.locks.run(path, () =>
      this.run('writeBinary', path, () =>
        this.writeWith(path, {
          modify: (file) => this.vault.modifyBinary(file, buffer),
          create: () => this.vault.createBinary(path, buffer),
          adapter: () => this.vault.adapter.writeBinary(path, buffer),
        }),
      ),
    );
  }

  async process(path: string, fn: (current: string) => string): Promise<string> {
    // The caller's own error must reach it unchanged, not wrapped as an I/O failure.
    const callback: { threw: boolean; error: unknown } = { threw: false, error: undefined };
    const guarded = (current: string): string => {
      try {
        return fn(current);
      } catch (error) {
        callback.threw = true;
        callback.error = error;
        throw error;
      }
    };
    return this.locks.run(path, async () => {
      try {
        return await this.run('process', path, async () => {
          const file = await this.existingFile(path);
          if (file !== null) return this.vault.process(file, guarded);
          const written = await this.vault.adapter.process(path, guarded);
          this.emit({ type: 'modify', path, kind: 'file' });
          return written;
        });
      } catch (error) {
        throw callback.threw ? callback.error : error;
      }
    });
  }

  async exists(path: string): Promise<boolean> {
    if (path === '') return true;
    return this.run('exists', path, () => this.vault.adapter.exists(path));
  }

  async stat(path: string): Promise<VaultStat | null> {
    return this.run('stat', path, async () => {
      const info = await this.vault.adapter.stat(adapterPath(path));
      if (info === null) return null;
      return { kind: info.type, size: info.type === 'folder' ? 0 : info.size, mtime: info.mtime, ctime: info.ctime };
    });
  }

  async list(path: string): Promise<VaultListing> {
    return this.run('list', path, async () => {
      const { desktop } = this;
      if (desktop !== null) {
        // The adapter's listing cannot tell a link from what it points at; the directory entries can.
        return listingOf(path, await desktop.fs.readdir(fullPath(desktop.adapter, path), { withFileTypes: true }));
      }
      await this.requireKind(path, 'folder');
      const listing = await this.vault.adapter.list(adapterPath(path));
      return {
        files: sortByCodePoints(listing.files.map(stripLeadingSlash)),
        folders: sortByCodePoints(listing.folders.map(stripLeadingSlash)),
        links: [], // mobile has no links
      };
    });
  }

  async mkdir(path: string): Promise<void> {
    if (path === '') return;
    await this.run('mkdir', path, async () => {
      await this.ensureParents(path);
      await this.ensureFolder(path);
    });
  }

  async remove(path: string): Promise<void> {
    await this.locks.run(path, () =>
      this.run('remove', path, async () => {
        const known = this.indexed(path);
        if (known !== null) {
          await this.fileManager.trashFile(known);
          return;
        }
        const kind = await this.requireKind(path, null);
        if (kind === 'folder') await this.vault.adapter.rmdir(path, true);
        else await this.vault.adapter.remove(path);
        this.emit({ type: 'delete', path, kind });
      }),
    );
  }

  async rename(from: string, to: string): Promise<void> {
    await this.locks.run(from, () =>
      this.run('rename', from, async () => {
        const source = this.indexed(from);
        const kind = source === null ? await this.requireKind(from, null) : kindOf(source);
        if (from === to) return;
        if (await this.destinationTaken(from, to)) throw new AlreadyExistsError(to);
        await this.ensureParents(to);
        if (source !== null && !this.isUnindexed(to)) {
          await this.vault.rename(source, to);
          return;
        }
        await this.vault.adapter.rename(from, to);
        this.emit({ type: 'rename', path: to, oldPath: from, kind });
      }),
    );
  }

  async createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
    return this.locks.run(path, () =>
      this.run('createExclusive', path, async () => {
        const { desktop } = this;
        if (desktop !== null) {
          // `wx` is O_CREAT|O_EXCL: the operating system decides, across processes (the git CLI,
          // a command-line run) as well as within this one.
          const full = fullPath(desktop.adapter, path);
          let created = await createIfAbsent(desktop.fs, full, data);
          if (created === null) {
            await this.ensureParents(path);
            created = (await createIfAbsent(desktop.fs, full, data)) ?? false;
          }
          if (created) this.emit({ type: 'create', path, kind: 'file' });
          return created;
        }
        // Mobile: only Obsidian touches the vault on a phone, one process, and every exclusive
        // create in it runs under this port's per-path lock, so looking and then writing cannot race.
        if ((await this.vault.adapter.stat(path)) !== null) return false;
        await this.ensureParents(path);
        if (typeof data === 'string') await this.vault.adapter.write(path, data);
        else await this.vault.adapter.writeBinary(path, exactArrayBuffer(data));
        this.emit({ type: 'create', path, kind: 'file' });
        return true;
      }),
    );
  }

  async replace(from: string, to: string, content?: string | Uint8Array): Promise<void> {
    await this.locks.run(to, () =>
      this.run('replace', from, async () => {
        const target = await this.vault.adapter.stat(to);
        if (target?.type === 'folder') throw new WrongKindError(to, 'file');
        const { desktop } = this;
        if (desktop !== null) {
          // One rename(2): atomic, so a reader of `to` sees the old file or the new one, never none.
          const rename = (): Promise<void> => desktop.fs.rename(fullPath(desktop.adapter, from), fullPath(desktop.adapter, to));
          try {
            await rename();
          } catch (error) {
            if (!isMissingPathError(error)) throw error;
            await this.requireKind(from, 'file');
            await this.ensureParents(to);
            await rename();
          }
        } else if (target === null && (await this.renamedToNew(from, to))) {
          // Mobile, nothing at `to` yet (a new git object): the adapter's own rename moves the file
          // without copying its bytes.
        } else {
          // Mobile, over a file: no rename over one. Write `from`'s bytes over `to` in place, then
          // remove `from`; `to` is never removed, so it is never missing (a crash between the steps
          // leaves both, and `to` already holds the new content). The caller's copy of the bytes
          // saves reading them back (a 10,000-note index is a megabyte). `to` keeps `from`'s
          // modification time, as a rename would: git's index is judged by its size and mtime,
          // and the one a commit moved into place is then known for its lock's without a read.
          // `to`'s folders were seen to when nothing was there: the refused rename made them.
          const source = await this.requireStat(from, 'file');
          // A platform that reports no time must not date the index to 1970 (every entry would be racy).
          const times = Number.isFinite(source.mtime) && source.mtime > 0 ? { mtime: source.mtime } : undefined;
          if (typeof content === 'string') await this.vault.adapter.write(to, content, times);
          else await this.vault.adapter.writeBinary(to, content === undefined ? await this.vault.adapter.readBinary(from) : exactArrayBuffer(content), times);
          await this.vault.adapter.remove(from);
        }
        this.emit({ type: target === null ? 'create' : 'modify', path: to, kind: 'file' });
        this.emit({ type: 'delete', path: from, kind: 'file' });
      }),
    );
  }

  /** Renames a file to a path nothing is at; false (nothing moved) when the adapter refuses. */
  private async renamedToNew(from: string, to: string): Promise<boolean> {
    await this.requireKind(from, 'file');
    try {
      await this.withParents(to, () => this.vault.adapter.rename(from, to));
      return true;
    } catch {
      return false;
    }
  }

  async append(path: string, data: string): Promise<void> {
    await this.locks.run(path, () =>
      this.run('append', path, async () => {
        const existing = await this.vault.adapter.stat(path);
        if (existing?.type === 'folder') throw new WrongKindError(path, 'file');
        if (existing === null) await this.ensureParents(path);
        await this.vault.adapter.append(path, data);
        this.emit({ type: existing === null ? 'create' : 'modify', path, kind: 'file' });
      }),
    );
  }

  async readLink(path: string): Promise<string | null> {
    const { desktop } = this;
    if (desktop === null) return null; // mobile has no links
    return readLinkOrNull(path, () => desktop.fs.readlink(fullPath(desktop.adapter, path)));
  }

  onChange(listener: VaultChangeListener): () => void {
    const remove = this.feed.add(listener);
    if (this.subscriptions.length === 0) this.subscribe();
    return () => {
      if (!remove() || this.feed.size > 0) return;
      for (const ref of this.subscriptions) this.vault.offref(ref);
      this.subscriptions = [];
    };
  }

  private subscribe(): void {
    const report = (type: 'create' | 'modify' | 'delete') => (file: TAbstractFile) => {
      this.emit({ type, path: file.path, kind: kindOf(file) });
    };
    this.subscriptions = [
      this.vault.on('create', report('create')),
      this.vault.on('modify', report('modify')),
      this.vault.on('delete', report('delete')),
      this.vault.on('rename', (file, oldPath) => {
        this.emit({ type: 'rename', path: file.path, oldPath, kind: kindOf(file) });
      }),
    ];
  }

  private emit(change: VaultChange): void {
    this.feed.emit(change);
  }

  /**
   * Writes a file through the vault when Obsidian knows it or can index it, else through the
   * adapter (hidden paths; files the index has not caught up with), creating missing parents.
   */
  private async writeWith(
    path: string,
    how: { modify: (file: TFile) => Promise<void>; create: () => Promise<TFile>; adapter: () => Promise<void> },
  ): Promise<void> {
    const known = this.indexed(path);
    if (known instanceof TFile) return how.modify(known);
    if (known instanceof TFolder) throw new WrongKindError(path, 'file');
    const onDisk = await this.vault.adapter.stat(path);
    if (onDisk?.type === 'folder') throw new WrongKindError(path, 'file');
    if (onDisk === null && !this.isUnindexed(path)) {
      await this.ensureParents(path);
      await how.create();
      return;
    }
    // Outside Obsidian's index (`.git/`) the parents nearly always exist: write first, and look at
    // them only when that fails. On a phone each look is a call to the platform, and a git
    // object's write and move looked at its three folders twice.
    if (onDisk === null) await this.withParents(path, how.adapter);
    else await how.adapter();
    this.emit({ type: onDisk === null ? 'create' : 'modify', path, kind: 'file' });
  }

  /**
   * Whether something other than the source is at `to`. A change of case only (`a.md` to `A.md`)
   * finds the source itself on case-insensitive disks, so there the exact name is looked up in
   * the parent's listing instead; on case-sensitive disks a distinct `A.md` still counts.
   */
  private async destinationTaken(from: string, to: string): Promise<boolean> {
    if (from.toLowerCase() !== to.toLowerCase()) {
      return this.indexed(to) !== null || (await this.vault.adapter.exists(to));
    }
    const slash = to.lastIndexOf('/');
    const listing = await this.vault.adapter.list(adapterPath(slash === -1 ? '' : to.slice(0, slash)));
    return [...listing.files, ...listing.folders].map(stripLeadingSlash).includes(to);
  }

  /**
   * Runs `operation` on `path`; when it fails, creates `path`'s missing folders and runs it once
   * more, whose failure is the one reported. Whatever the first failure was, the folders are seen
   * to: another write may have made the folder between this one's failure and a look at it, and
   * a phone's errors carry no code that tells a missing folder apart.
   */
  private async withParents(path: string, operation: () => Promise<void>): Promise<void> {
    try {
      await operation();
    } catch {
      await this.ensureParents(path);
      await operation();
    }
  }

  /** Creates each missing ancestor folder of `path`, outermost first. */
  private async ensureParents(path: string): Promise<void> {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) await this.ensureFolder(segments.slice(0, depth).join('/'));
  }

  /** Makes sure a folder exists at `path`, whose parent exists; refuses a file in the way. */
  private async ensureFolder(path: string): Promise<void> {
    const known = this.indexed(path);
    if (known instanceof TFolder) return;
    if (known instanceof TFile) throw new WrongKindError(path, 'folder');
    const onDisk = await this.vault.adapter.stat(path);
    if (onDisk?.type === 'folder') return;
    if (onDisk !== null) throw new WrongKindError(path, 'folder');
    try {
      if (this.isUnindexed(path)) {
        await this.vault.adapter.mkdir(path);
        this.emit({ type: 'create', path, kind: 'folder' });
      } else {
        await this.vault.createFolder(path);
      }
    } catch (error) {
      // Another write may have made the same folder meanwhile (a commit writes its git objects
      // together, two may share a new folder); that is success.
      if ((await this.vault.adapter.stat(path))?.type !== 'folder') throw error;
    }
  }

  /**
   * The indexed file at `path`, or `null` when Obsidian does not index it but it is a file on
   * disk; fails with `NotFound` or `WrongKind` otherwise.
   */
  private async existingFile(path: string): Promise<TFile | null> {
    const known = this.indexed(path);
    if (known instanceof TFile) return known;
    if (known instanceof TFolder) throw new WrongKindError(path, 'file');
    await this.requireKind(path, 'file');
    return null;
  }

  /** Checks on disk that something (of the given kind, if any) is at `path`, and returns its kind. */
  private async requireKind(path: string, expected: Kind | null): Promise<Kind> {
    return (await this.requireStat(path, expected)).type;
  }

  /** `requireKind`, giving the adapter's stat. */
  private async requireStat(path: string, expected: Kind | null): Promise<Stat> {
    const info = await this.vault.adapter.stat(adapterPath(path));
    if (info === null) throw new NotFoundError(path);
    if (expected !== null && info.type !== expected) throw new WrongKindError(path, expected);
    return info;
  }

  /** The vault's entry for `path`, if Obsidian indexes it. */
  private indexed(path: string): TAbstractFile | null {
    if (path === '' || this.isUnindexed(path)) return null;
    return this.vault.getAbstractFileByPath(path);
  }

  /** Obsidian leaves hidden paths (a segment starting with `.`) and its config folder out of its index. */
  private isUnindexed(path: string): boolean {
    const { configDir } = this.vault;
    if (path === configDir || path.startsWith(`${configDir}/`)) return true;
    return path.split('/').some((segment) => segment.startsWith('.'));
  }

  /** Runs one port operation, turning platform failures into Recursa errors. */
  private async run<T>(operation: string, path: string, action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw fromPlatformError(operation, path, error);
    }
  }
}

/** The slice of Node's `fs.promises` the port uses on desktop. */
interface DesktopFs {
  writeFile(path: string, data: string | Uint8Array, options: { flag: 'wx' }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  readlink(path: string): Promise<string>;
  readdir(path: string, options: { withFileTypes: true }): Promise<DirectoryEntry[]>;
}

/** Electron's `fs.promises` in the desktop app; null wherever it cannot be loaded. */
function loadDesktopFs(): DesktopFs | null {
  const load = desktopRequire();
  if (load === null) return null;
  try {
    const fs = (load('fs') as { promises?: Partial<DesktopFs> }).promises;
    if (fs === undefined) return null;
    const { writeFile, rename, readlink, readdir } = fs;
    if (typeof writeFile !== 'function' || typeof rename !== 'function' || typeof readlink !== 'function' || typeof readdir !== 'function') return null;
    return fs as DesktopFs;
  } catch {
    return null;
  }
}

/** The absolute path on disk of a vault path (the root is `''`). */
function fullPath(adapter: FileSystemAdapter, path: string): string {
  return path === '' ? adapter.getBasePath() : adapter.getFullPath(path);
}

/** Creates `full` with `data` unless something is there: true when created, false when taken, null when a parent is missing. */
async function createIfAbsent(fs: DesktopFs, full: string, data: string | Uint8Array): Promise<boolean | null> {
  try {
    await fs.writeFile(full, data, { flag: 'wx' });
    return true;
  } catch (error) {
    if (platformErrorCode(error) === 'EEXIST') return false;
    if (isMissingPathError(error)) return null;
    throw error;
  }
}

function kindOf(file: TAbstractFile): Kind {
  return file instanceof TFolder ? 'folder' : 'file';
}

/** Obsidian spells the vault root `/`. */
function adapterPath(path: string): string {
  return path === '' ? '/' : path;
}

function stripLeadingSlash(path: string): string {
  return path.startsWith('/') ? path.slice(1) : path;
}

/**
 * Exactly the bytes of `data` as an `ArrayBuffer`, never the rest of a larger backing store: the
 * view's own buffer when it covers all of it (as Node's `fs` does with a view, the platform reads
 * it during the write, and the caller leaves it alone until the write is done), else a copy.
 */
function exactArrayBuffer(data: Uint8Array): ArrayBuffer {
  const { buffer } = data;
  if (buffer instanceof ArrayBuffer) {
    if (data.byteOffset === 0 && data.byteLength === buffer.byteLength) return buffer;
    return buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  }
  const copy = new Uint8Array(data.byteLength);
  copy.set(data);
  return copy.buffer;
}
