import { isAscii, latin1String } from '../../../src/core/text/asciiString';
import { utf8Length } from '../../../src/core/text/decodeText';
import type { StorageCall, StoragePut, StorageReply, StorageRequest, StoredData, StoredEntry } from './storageProtocol';

export type { StoredData, StoredEntry } from './storageProtocol';

/** The storage worker's script (`storageWorker.ts`), built with the page and defined by `mobileHarness.ts`. */
declare const STORAGE_WORKER_SOURCE: string;

/** One decoder for every read: a phone's adapter decodes natively, not through a new object per file. */
const utf8 = new TextDecoder();

/**
 * A phone's file system inside a browser page. The directory entries (kind, times, size) are in
 * a table in the page, for `stat` and `list` without a round trip; every file's content is in a
 * worker (`storageWorker.ts`, the phone's native side), in IndexedDB, where it outlives the page as
 * files on a phone's flash do, and in the worker's memory. One database per vault name.
 * Test-module internal, used by `CapacitorAdapter`.
 *
 * Content is kept as it was written: text as text, binary as an `ArrayBuffer`, and read back either
 * way. Assumed of a phone: the files are not in the WebView's heap, and Capacitor's bridge passes a
 * read's content in a message, which arrives in a task of its own and makes a string (or buffer)
 * of it in the page, and nothing else. A worker's reply is such a message. (Kept in the page, the
 * contents put the whole vault in the page's memory, where `performance.memory` counts
 * `ArrayBuffer`s and the engine weighs them when it schedules collections; and making a string in
 * the page from stored code units left several times the text in garbage per read.)
 *
 * It knows nothing of folders' rules (the adapter checks parents and kinds); it keeps entries (its
 * worker, content), and records which paths changed since the last `takeChanges`, for the export
 * to the host.
 */
export class IdbFileStore {
  /** Every entry by vault path; the root is `/`. */
  readonly entries = new Map<string, StoredEntry>();
  /** Names in each folder, by the folder's path. */
  private readonly children = new Map<string, Set<string>>([['/', new Set()]]);
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private requests = 0;
  private changed = new Set<string>();
  private keysMade = 0;

  private constructor(
    readonly name: string,
    private readonly worker: Worker,
  ) {
    this.entries.set('/', { type: 'folder', ctime: 0, mtime: 0, size: 0 });
    worker.onmessage = (event: MessageEvent<StorageReply>) => {
      const { id, value, error } = event.data;
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error === undefined) waiter?.resolve(value);
      else waiter?.reject(new Error(error));
    };
    // A worker that fails outside a request (its script, say) fails every request waiting on it.
    worker.onerror = (event) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`The storage worker failed: ${event.message}`));
      this.waiting.clear();
    };
  }

  /** Opens (or creates) the vault's database and loads its directory entries (the worker, its content). */
  static async open(name: string): Promise<IdbFileStore> {
    const worker = new Worker(URL.createObjectURL(new Blob([STORAGE_WORKER_SOURCE], { type: 'text/javascript' })));
    const store = new IdbFileStore(name, worker);
    const loaded = (await store.ask<[string, StoredEntry][]>({ op: 'open', name })).sort(([a], [b]) => a.length - b.length);
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

  /** Closes the database; the worker then ends. */
  close(): void {
    void this.ask({ op: 'close' }).catch(() => undefined);
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

  /** The file's content as it was written, a fresh copy, as it is when the read starts. */
  read(path: string): Promise<StoredData> {
    return this.ask<StoredData>({ op: 'read', key: bytesKeyOf(path, this.entries.get(path)), path });
  }

  /** What IndexedDB itself holds for `path`: for tests that check what outlives the page. */
  readPersisted(path: string): Promise<StoredData | undefined> {
    return this.ask<StoredData | undefined>({ op: 'readPersisted', key: bytesKeyOf(path, this.entries.get(path)) });
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

  /**
   * Sets entries (with the content of files written) and removes paths, in one transaction. With
   * `moved`, the removed paths' content stays: the entries put carry their `bytesKey` (a rename).
   * A put with `append` adds its content to the end of the file's (the worker joins them).
   */
  async commit(puts: { path: string; entry: StoredEntry; content?: StoredData; append?: boolean }[], removes: string[] = [], moved = false): Promise<void> {
    const staleKeys: string[] = [];
    for (const path of removes) {
      const entry = this.entries.get(path);
      if (!moved && entry?.type === 'file') staleKeys.push(bytesKeyOf(path, entry));
    }
    const written = puts.map(({ path, entry, content, append }): StoragePut => {
      if (content === undefined) return { path, entry };
      const before = this.entries.get(path);
      const beforeKey = before?.type === 'file' ? bytesKeyOf(path, before) : undefined;
      if (beforeKey !== undefined) staleKeys.push(beforeKey);
      return { path, entry: { ...entry, bytesKey: this.newBytesKey() }, content, appendTo: append === true ? beforeKey : undefined };
    });
    // The table here and the contents in the worker change at once: a `stat` or a read right after sees the change.
    for (const path of removes) this.forget(path);
    for (const { path, entry } of written) this.remember(path, entry);
    await this.ask({ op: 'commit', removes, staleKeys, puts: written });
  }

  /** A data key no path can have (paths never start with `#`). */
  private newBytesKey(): string {
    this.keysMade += 1;
    return `#${Date.now().toString(36)}.${this.keysMade.toString(36)}.${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Posts a request to the worker; its reply settles the promise (replies come in the order asked). */
  private ask<T>(request: StorageCall): Promise<T> {
    const id = ++this.requests;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: (value) => resolve(value as T), reject });
      const message: StorageRequest = { ...request, id };
      this.worker.postMessage(message);
    });
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
