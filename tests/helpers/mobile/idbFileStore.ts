import { isAscii, latin1String } from '../../../src/core/text/asciiString';

/**
 * A phone's file system inside a browser page: every file's content in IndexedDB (out of the JS
 * heap, as files on a phone's flash are), its directory entry (kind, times, size) in IndexedDB too
 * and, for `stat` and `list` without a round trip, in a table in memory that `open` fills from it.
 * One database per vault name. Test-module internal, used by `CapacitorAdapter`.
 *
 * Content is kept as it was written: text as a string, binary as an `ArrayBuffer`, and read back
 * either way. Assumed of a phone: Capacitor's bridge passes a text read as a string in a JSON
 * message, so reading a note makes a string and nothing else. Text kept as bytes would leave an
 * `ArrayBuffer` and browser-side memory behind every read, which a phone's page does not have to
 * collect.
 *
 * It knows nothing of folders' rules (the adapter checks parents and kinds); it keeps entries and
 * content, and records which paths changed since the last `takeChanges`, for the export to the host.
 */

/** One directory entry. */
export interface StoredEntry {
  type: 'file' | 'folder';
  ctime: number;
  mtime: number;
  size: number;
  /**
   * Where a file's bytes are in the data store: a key of their own, so that a rename moves the
   * entry and leaves the bytes where they are, as a phone's file system renames without copying.
   * Absent for files seeded before (their bytes are under their path).
   */
  bytesKey?: string;
}

/** A file's content as written: text, or binary. */
export type StoredData = string | ArrayBuffer;

const META = 'meta';
const DATA = 'data';

/** One decoder for every read: a phone's adapter decodes natively, not through a new object per file. */
const utf8 = new TextDecoder();

export class IdbFileStore {
  /** Every entry by vault path; the root is `/`. */
  readonly entries = new Map<string, StoredEntry>();
  /** Names in each folder, by the folder's path. */
  private readonly children = new Map<string, Set<string>>([['/', new Set()]]);
  private changed = new Set<string>();
  private keysMade = 0;
  /** The read-only transaction reads share while it is active (see `read`). */
  private reading: IDBTransaction | null = null;

  private constructor(
    readonly name: string,
    private readonly db: IDBDatabase,
  ) {
    this.entries.set('/', { type: 'folder', ctime: 0, mtime: 0, size: 0 });
  }

  /** Opens (or creates) the vault's database and loads its directory entries. */
  static async open(name: string): Promise<IdbFileStore> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(`recursa-mobile-vault:${name}`, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(META);
        request.result.createObjectStore(DATA);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB would not open'));
    });
    const store = new IdbFileStore(name, db);
    const tx = db.transaction(META, 'readonly');
    const [keys, values] = await Promise.all([requestOf(tx.objectStore(META).getAllKeys()), requestOf(tx.objectStore(META).getAll())]);
    const loaded = keys.map((key, at) => [freshCopy(key as string), values[at] as StoredEntry] as const).sort(([a], [b]) => a.length - b.length);
    for (const [path, entry] of loaded) store.remember(path, entry);
    return store;
  }

  /** Deletes the vault's database (close every store on it first). */
  static async destroy(name: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(`recursa-mobile-vault:${name}`);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error ?? new Error('IndexedDB would not delete'));
    });
  }

  close(): void {
    this.db.close();
  }

  get(path: string): StoredEntry | null {
    return this.entries.get(path) ?? null;
  }

  /** The names in a folder (unsorted). */
  namesIn(folder: string): string[] {
    return [...(this.children.get(folder) ?? [])];
  }

  /** Every path under `folder`, deepest last. */
  descendants(folder: string): string[] {
    const found: string[] = [];
    for (const name of this.namesIn(folder)) {
      const path = join(folder, name);
      found.push(path);
      if (this.entries.get(path)?.type === 'folder') found.push(...this.descendants(path));
    }
    return found;
  }

  /**
   * The file's content as it was written, a fresh copy (IndexedDB clones on every read). Reads
   * started while a read transaction is still active share it, as a phone's file system needs no
   * transaction per file: one each made the store's own objects (transactions, their events) a
   * garbage collection's worth of work per few thousand reads on the page's main thread.
   */
  async read(path: string): Promise<StoredData> {
    const value: unknown = await requestOf(this.dataRequest(bytesKeyOf(path, this.entries.get(path))));
    if (typeof value !== 'string' && !(value instanceof ArrayBuffer)) throw new Error(`The store holds nothing for "${path}".`);
    return value;
  }

  /** The file's content as a fresh `ArrayBuffer`: text is encoded as UTF-8. */
  async readBytes(path: string): Promise<ArrayBuffer> {
    const value = await this.read(path);
    return typeof value === 'string' ? new TextEncoder().encode(value).buffer : value;
  }

  /**
   * The file's content as text: binary is decoded as UTF-8. Chromium's `TextDecoder` makes
   * external strings, which cost the page's collector work a phone's does not do, so ASCII is made
   * by the engine instead.
   */
  async readText(path: string): Promise<string> {
    const value = await this.read(path);
    if (typeof value === 'string') return value;
    const bytes = new Uint8Array(value);
    return isAscii(bytes) ? latin1String(bytes) : utf8.decode(bytes);
  }

  /** A read of `key` in the shared read transaction, or a new one once that has ended. */
  private dataRequest(key: string): IDBRequest {
    const copy = freshCopy(key);
    if (this.reading !== null) {
      try {
        return this.reading.objectStore(DATA).get(copy);
      } catch {
        // Finished, or inactive past the task that made it: reads go on in a new one.
      }
    }
    this.reading = this.db.transaction(DATA, 'readonly');
    return this.reading.objectStore(DATA).get(copy);
  }

  /**
   * Sets entries (with the content of files written) and removes paths, in one transaction. With
   * `moved`, the removed paths' content stays: the entries put carry their `bytesKey` (a rename).
   */
  async commit(puts: { path: string; entry: StoredEntry; content?: StoredData }[], removes: string[] = [], moved = false): Promise<void> {
    const staleKeys: string[] = [];
    for (const path of removes) {
      const entry = this.entries.get(path);
      if (!moved && entry?.type === 'file') staleKeys.push(bytesKeyOf(path, entry));
    }
    const written = puts.map((put) => {
      if (put.content === undefined) return put;
      const before = this.entries.get(put.path);
      if (before?.type === 'file') staleKeys.push(bytesKeyOf(put.path, before));
      return { ...put, entry: { ...put.entry, bytesKey: this.newBytesKey() } };
    });
    // The table changes at once, so a `stat` right after sees the change; IndexedDB orders
    // transactions on one store, so a read that starts after this one sees its bytes.
    for (const path of removes) this.forget(path);
    for (const { path, entry } of written) this.remember(path, entry);
    // Reads from here on start after this write, in a transaction of their own.
    this.reading = null;
    const tx = this.db.transaction([META, DATA], 'readwrite');
    const meta = tx.objectStore(META);
    const data = tx.objectStore(DATA);
    for (const path of removes) meta.delete(freshCopy(path));
    for (const key of staleKeys) data.delete(freshCopy(key));
    for (const { path, entry, content } of written) {
      meta.put(entry, freshCopy(path));
      if (content !== undefined && entry.bytesKey !== undefined) data.put(content, freshCopy(entry.bytesKey));
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
    });
  }

  /** A data key no path can have (paths never start with `#`). */
  private newBytesKey(): string {
    this.keysMade += 1;
    return `#${Date.now().toString(36)}.${this.keysMade.toString(36)}.${Math.random().toString(36).slice(2, 8)}`;
  }

  /** The paths written or removed since the last call (or since the store opened). */
  takeChanges(): string[] {
    const changed = [...this.changed];
    this.changed = new Set();
    return changed;
  }

  private remember(path: string, entry: StoredEntry): void {
    this.entries.set(path, entry);
    this.changed.add(path);
    if (path === '/') return;
    const parent = parentOf(path);
    let names = this.children.get(parent);
    if (names === undefined) this.children.set(parent, (names = new Set()));
    names.add(path.slice(path.lastIndexOf('/') + 1));
    if (entry.type === 'folder' && !this.children.has(path)) this.children.set(path, new Set());
  }

  private forget(path: string): void {
    this.entries.delete(path);
    this.children.delete(path);
    this.changed.add(path);
    this.children.get(parentOf(path))?.delete(path.slice(path.lastIndexOf('/') + 1));
  }
}

/** The size of a file's content in bytes: text counts as UTF-8. */
export function sizeOf(content: StoredData): number {
  return typeof content === 'string' ? utf8Length(content) : content.byteLength;
}

/** The size of `text` in UTF-8, as `TextEncoder` would encode it (a lone surrogate as three bytes). */
function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) length += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 2;
      i++;
    } else length += 2;
  }
  return length;
}

function bytesKeyOf(path: string, entry: StoredEntry | undefined): string {
  return entry?.bytesKey ?? path;
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

export function join(folder: string, name: string): string {
  return folder === '/' || folder === '' ? name : `${folder}/${name}`;
}

/**
 * A fresh copy of `text`, made by the engine. Chromium turns an older string handed to it (an
 * IndexedDB key) into an external string in place, and hands keys back as external strings; the
 * collector then tracks each in every pause. A phone's bridge passes paths as JSON both ways, so
 * every key crosses here as a copy and the strings the page keeps stay the engine's own.
 */
function freshCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

function requestOf<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}
