import type * as Obsidian from 'obsidian';
import { KeyedMutex } from '../../../src/core/util/KeyedMutex';
import { IdbFileStore, join, parentOf, sizeOf, type StoredData, type StoredEntry } from './idbFileStore';

/** The folder Obsidian's local trash uses, at the vault root. */
export const LOCAL_TRASH_FOLDER = '.trash';

/** Stores opened by the page before the vault loads, by vault name (`Vault.load(name)` finds its store here). */
const stores = new Map<string, IdbFileStore>();

/** Opens the vault's store in this page; `Vault.load(name)` then builds its adapter over it. */
export async function openMobileStore(name: string): Promise<IdbFileStore> {
  const open = stores.get(name);
  if (open !== undefined) return open;
  const store = await IdbFileStore.open(name);
  stores.set(name, store);
  return store;
}

export function mobileStore(name: string): IdbFileStore {
  const store = stores.get(name);
  if (store === undefined) throw new Error(`No store is open for the vault "${name}"; call openMobileStore first.`);
  return store;
}

/**
 * Obsidian's mobile `CapacitorAdapter` (obsidian.d.ts, since 1.7.2), over an in-page store
 * (`IdbFileStore`: content in IndexedDB). What a plugin sees on a phone, as far as the documented API
 * tells, and where it does not, what this fake assumed:
 * - there is no base path and no Node `fs`: `getFullPath` gives a native URI the page cannot open
 *   (assumed Android's external storage, `file:///storage/emulated/0/Documents/<vault>/…`);
 * - text is read and written as strings (assumed: the bridge passes them as JSON) and counts as its
 *   UTF-8 bytes; binary goes in and out as `ArrayBuffer` only — a view is refused, since the
 *   platform would take its whole backing store; either can be read as the other;
 * - failures are plain `Error`s with a message and no Node `code` (assumed: Capacitor's Filesystem
 *   plugin rejects with messages such as "File does not exist"), so code that tells a missing path
 *   by `ENOENT` alone fails here first;
 * - as strict as the desktop test adapter where Obsidian is vague: writes do not create missing
 *   parents, `rename`/`copy` refuse an existing destination, `rmdir` without `recursive` refuses a
 *   folder with something in it;
 * - names are case-sensitive (assumed; Android's shared storage is not, app storage is);
 * - there is no system trash: `trashSystem` reports false (assumed), `trashLocal` moves to `.trash/`;
 * - `mtime` and `ctime` are the page clock in whole milliseconds.
 * Like Obsidian's adapters it fires no vault events and does not update the vault's index.
 */
export class CapacitorAdapter implements Obsidian.CapacitorAdapter {
  private readonly store: IdbFileStore;
  private readonly locks = new KeyedMutex();

  constructor(name: string) {
    this.store = mobileStore(name);
  }

  getName(): string {
    return this.store.name;
  }

  getFullPath(normalizedPath: string): string {
    const base = `file:///storage/emulated/0/Documents/${encodeURIComponent(this.store.name)}`;
    return isRoot(normalizedPath) ? base : `${base}/${normalizedPath.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** Assumed: Capacitor serves app files to the WebView at `http://localhost/_capacitor_file_…` (Android). */
  getResourcePath(normalizedPath: string): string {
    const mtime = this.store.get(key(normalizedPath))?.mtime ?? 0;
    return `${this.getFullPath(normalizedPath).replace('file://', 'http://localhost/_capacitor_file_')}?${mtime}`;
  }

  async exists(normalizedPath: string, _sensitive?: boolean): Promise<boolean> {
    return Promise.resolve(this.store.get(key(normalizedPath)) !== null);
  }

  async stat(normalizedPath: string): Promise<Obsidian.Stat | null> {
    const entry = this.store.get(key(normalizedPath));
    return Promise.resolve(entry === null ? null : { type: entry.type, ctime: entry.ctime, mtime: entry.mtime, size: entry.size });
  }

  async list(normalizedPath: string): Promise<Obsidian.ListedFiles> {
    const folder = key(normalizedPath);
    this.requireFolder(folder);
    const listing: Obsidian.ListedFiles = { files: [], folders: [] };
    for (const name of this.store.namesIn(folder)) {
      const path = join(folder, name);
      (this.store.get(path)?.type === 'folder' ? listing.folders : listing.files).push(path);
    }
    return Promise.resolve(listing);
  }

  async read(normalizedPath: string): Promise<string> {
    const path = key(normalizedPath);
    this.requireFile(path);
    return this.store.readText(path);
  }

  async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    const path = key(normalizedPath);
    this.requireFile(path);
    return this.store.readBytes(path);
  }

  async write(normalizedPath: string, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.put(key(normalizedPath), data, options);
  }

  async writeBinary(normalizedPath: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.put(key(normalizedPath), requireArrayBuffer(data).slice(0), options);
  }

  async append(normalizedPath: string, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.appendData(key(normalizedPath), data, options);
  }

  async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.appendData(key(normalizedPath), requireArrayBuffer(data), options);
  }

  /** Reads, applies `fn` (synchronous) and writes, one call at a time per path; if `fn` throws, nothing is written. */
  async process(normalizedPath: string, fn: (data: string) => string, options?: Obsidian.DataWriteOptions): Promise<string> {
    const path = key(normalizedPath);
    return this.locks.run(path, async () => {
      const next = fn(await this.read(path));
      await this.put(path, next, options);
      return next;
    });
  }

  /** Creates the folder and any missing parents; succeeds if it exists. */
  async mkdir(normalizedPath: string): Promise<void> {
    const path = key(normalizedPath);
    const made: { path: string; entry: StoredEntry }[] = [];
    const now = Date.now();
    for (let at = path; at !== '/'; at = parentOf(at)) {
      const entry = this.store.get(at);
      if (entry?.type === 'folder') break;
      if (entry !== null) throw new Error(`Cannot create a folder at "${at}": a file is there.`);
      made.unshift({ path: at, entry: { type: 'folder', ctime: now, mtime: now, size: 0 } });
    }
    if (made.length > 0) await this.store.commit(made);
  }

  async trashSystem(_normalizedPath: string): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Moves the file or folder to `.trash/` at the vault root, numbering the name if it is taken. */
  async trashLocal(normalizedPath: string): Promise<void> {
    const path = key(normalizedPath);
    await this.mkdir(LOCAL_TRASH_FOLDER);
    const name = path.slice(path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let target = join(LOCAL_TRASH_FOLDER, name);
    for (let n = 2; this.store.get(target) !== null; n++) target = join(LOCAL_TRASH_FOLDER, `${stem} ${n}${extension}`);
    await this.rename(path, target);
  }

  async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    const path = key(normalizedPath);
    this.requireFolder(path);
    if (path === '/') throw new Error('Cannot remove the vault root.');
    const inside = this.store.descendants(path);
    if (!recursive && inside.length > 0) throw new Error(`Directory "${path}" is not empty.`);
    await this.store.commit([], [...inside.reverse(), path]);
  }

  async remove(normalizedPath: string): Promise<void> {
    const path = key(normalizedPath);
    this.requireFile(path);
    await this.store.commit([], [path]);
  }

  async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    await this.move(key(normalizedPath), key(normalizedNewPath), true);
  }

  async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    await this.move(key(normalizedPath), key(normalizedNewPath), false);
  }

  private async move(from: string, to: string, removeSource: boolean): Promise<void> {
    const source = this.store.get(from);
    if (source === null) throw new Error(`File does not exist: "${from}".`);
    const caseOnly = removeSource && from.toLowerCase() === to.toLowerCase();
    if (!caseOnly && this.store.get(to) !== null) throw new Error('Destination file already exists!');
    this.requireFolder(parentOf(to), 'Parent folder does not exist');
    const paths = [from, ...(source.type === 'folder' ? this.store.descendants(from) : [])];
    const puts: { path: string; entry: StoredEntry; content?: StoredData }[] = [];
    for (const path of paths) {
      const entry = this.store.get(path);
      if (entry === null) continue;
      // A rename moves entries and leaves the bytes in place; a copy writes them again.
      const content = entry.type === 'file' && !removeSource ? await this.store.read(path) : undefined;
      const moved = entry.type === 'file' ? { ...entry, bytesKey: entry.bytesKey ?? path } : entry;
      puts.push({ path: to + path.slice(from.length), entry: removeSource ? moved : { ...entry, ctime: Date.now() }, ...(content === undefined ? {} : { content }) });
    }
    await this.store.commit(puts, removeSource ? paths.reverse() : [], removeSource);
  }

  private async put(path: string, content: StoredData, options: Obsidian.DataWriteOptions | undefined): Promise<void> {
    const existing = this.store.get(path);
    if (existing?.type === 'folder') throw new Error(`Cannot write "${path}": it is a folder.`);
    this.requireFolder(parentOf(path), 'Parent folder does not exist');
    const now = Date.now();
    const entry: StoredEntry = { type: 'file', ctime: options?.ctime ?? existing?.ctime ?? now, mtime: options?.mtime ?? now, size: sizeOf(content) };
    await this.store.commit([{ path, entry, content }]);
  }

  /**
   * Appends without reading the file into the page (assumed: Capacitor's `Filesystem.appendFile`,
   * one call). Text appended to text stays text; anything else is joined as bytes.
   */
  private async appendData(path: string, data: StoredData, options: Obsidian.DataWriteOptions | undefined): Promise<void> {
    await this.locks.run(path, async () => {
      const existing = this.store.get(path);
      if (existing === null) return this.put(path, data, options);
      this.requireFile(path);
      const entry: StoredEntry = { type: 'file', ctime: options?.ctime ?? existing.ctime, mtime: options?.mtime ?? Date.now(), size: existing.size + sizeOf(data) };
      await this.store.commit([{ path, entry, content: data, append: true }]);
    });
  }

  private requireFile(path: string): void {
    const entry = this.store.get(path);
    if (entry === null) throw new Error(`File does not exist: "${path}".`);
    if (entry.type !== 'file') throw new Error(`"${path}" is a folder, not a file.`);
  }

  private requireFolder(path: string, missing = 'Directory does not exist'): void {
    const entry = this.store.get(path);
    if (entry === null) throw new Error(`${missing}: "${path}".`);
    if (entry.type !== 'folder') throw new Error(`"${path}" is a file, not a folder.`);
  }
}

/** The store's key: the vault root is `/`, everything else as normalized (no leading slash). */
function key(normalizedPath: string): string {
  return isRoot(normalizedPath) ? '/' : normalizedPath.replace(/^\/+/, '');
}

function isRoot(path: string): boolean {
  return path === '' || path === '/';
}

function requireArrayBuffer(data: ArrayBuffer): ArrayBuffer {
  // The platform takes `data` whole; a view would write every byte of its backing store.
  if (!(data instanceof ArrayBuffer)) throw new TypeError('writeBinary expects an ArrayBuffer, not a view; slice the view into an exact ArrayBuffer first.');
  return data;
}

/**
 * The name the test module's `Vault` builds its adapter by: in the mobile page bundle, the vault's
 * `./adapter` import resolves to this file, so `Vault.load(name)` makes a `CapacitorAdapter`.
 */
export { CapacitorAdapter as FileSystemAdapter };
