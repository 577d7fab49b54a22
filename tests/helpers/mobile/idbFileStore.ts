import { charCodeString, isAscii, latin1String } from '../../../src/core/text/asciiString';
import { utf8Length } from '../../../src/core/text/decodeText';

/**
 * A phone's file system inside a browser page: every file's content and directory entry (kind,
 * times, size) in IndexedDB, where they outlive the page as files on a phone's flash do, and, as
 * `open` loads them, in memory: the entries in a table, for `stat` and `list` without a round trip,
 * and the content as code units in typed arrays, outside the JS heap. One database per vault
 * name. Test-module internal, used by `CapacitorAdapter`.
 *
 * Content is kept as it was written: text as text, binary as an `ArrayBuffer`, and read back either
 * way. Assumed of a phone: Capacitor's bridge passes a text read as a string in a JSON message,
 * which arrives in a task of its own, so reading a note makes a string and nothing else. Reads are
 * served from the copy in memory, not from IndexedDB: each IndexedDB read leaves objects of the
 * browser's own (the request, its event, the result they hold) that only a full collection frees,
 * and until then everything they hold is promoted out of the young generation (a full index
 * rebuild of 10,000 notes promoted every note's text that way). Text kept as bytes would leave an
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

/** Content in memory: text as its code units (one byte each when all are below 0x100), binary as it is. */
type HeldData = Uint8Array | Uint16Array | ArrayBuffer;

const META = 'meta';
const DATA = 'data';

/** One decoder for every read: a phone's adapter decodes natively, not through a new object per file. */
const utf8 = new TextDecoder();

export class IdbFileStore {
  /** Every entry by vault path; the root is `/`. */
  readonly entries = new Map<string, StoredEntry>();
  /** Names in each folder, by the folder's path. */
  private readonly children = new Map<string, Set<string>>([['/', new Set()]]);
  /** Every file's content by its key in the data store. */
  private readonly contents = new Map<string, HeldData>();
  private readonly replies = new ReplyQueue();
  private changed = new Set<string>();
  private keysMade = 0;

  private constructor(
    readonly name: string,
    private readonly db: IDBDatabase,
  ) {
    this.entries.set('/', { type: 'folder', ctime: 0, mtime: 0, size: 0 });
  }

  /** Opens (or creates) the vault's database and loads its directory entries and content. */
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
    const data = db.transaction(DATA, 'readonly').objectStore(DATA);
    const [dataKeys, contents] = await Promise.all([requestOf(data.getAllKeys()), requestOf(data.getAll())]);
    dataKeys.forEach((key, at) => store.contents.set(freshCopy(key as string), held(contents[at] as StoredData)));
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
    this.replies.close();
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

  /** The file's content as it was written, a fresh copy, as it is when the read starts. */
  async read(path: string): Promise<StoredData> {
    const content = this.contents.get(bytesKeyOf(path, this.entries.get(path)));
    await this.replies.next();
    if (content === undefined) throw new Error(`The store holds nothing for "${path}".`);
    return content instanceof ArrayBuffer ? content.slice(0) : charCodeString(content);
  }

  /** What IndexedDB itself holds for `path`: for tests that check what outlives the page. */
  async readPersisted(path: string): Promise<StoredData | undefined> {
    const key = freshCopy(bytesKeyOf(path, this.entries.get(path)));
    return requestOf(this.db.transaction(DATA, 'readonly').objectStore(DATA).get(key)) as Promise<StoredData | undefined>;
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
    // The table and the content in memory change at once: a `stat` or a read right after sees the change.
    for (const path of removes) this.forget(path);
    for (const { path, entry } of written) this.remember(path, entry);
    for (const key of staleKeys) this.contents.delete(key);
    for (const { entry, content } of written) if (content !== undefined && entry.bytesKey !== undefined) this.contents.set(entry.bytesKey, held(content));
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

/** Replies to reads, each in a task of its own after the read, as a native bridge's arrive. */
class ReplyQueue {
  private readonly waiting: (() => void)[] = [];
  private readonly channel = new MessageChannel();

  constructor() {
    this.channel.port1.onmessage = () => this.waiting.shift()?.();
  }

  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.channel.port2.postMessage(null);
    });
  }

  close(): void {
    this.channel.port1.close();
  }
}

/** A copy of written content to keep in memory (an `ArrayBuffer` may be changed by its writer afterwards). */
function held(content: StoredData): HeldData {
  if (typeof content !== 'string') return content.slice(0);
  let wide = false;
  for (let at = 0; at < content.length && !wide; at++) wide = content.charCodeAt(at) > 0xff;
  const units = wide ? new Uint16Array(content.length) : new Uint8Array(content.length);
  for (let at = 0; at < content.length; at++) units[at] = content.charCodeAt(at);
  return units;
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
