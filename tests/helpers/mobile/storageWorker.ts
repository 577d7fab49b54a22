/**
 * The native side of the phone's file system: every file's content, in IndexedDB and in memory, in
 * a worker of its own. On a phone the files are on flash, outside the WebView's heap, and a read
 * reaches the page as a message over Capacitor's bridge; here they are in this worker's heap, and a
 * read reaches the page as a message too, its content a fresh string (or `ArrayBuffer`) made for
 * the page, in a task of its own. `IdbFileStore` talks to it; the protocol is `StorageRequest`.
 *
 * Built as a script of its own (see `mobileHarness.ts`).
 */
import { concatBytes } from '../../../src/core/sync/httpBody';
import type { StorageReply, StorageRequest, StoredData } from './storageProtocol';

const META = 'meta';
const DATA = 'data';

let db: IDBDatabase | null = null;
/** Every file's content by its key in the data store. */
const contents = new Map<string, StoredData>();

const scope = self as unknown as { onmessage: ((event: MessageEvent<StorageRequest>) => void) | null; postMessage(message: StorageReply, transfer?: Transferable[]): void; close(): void };

scope.onmessage = (event) => {
  const request = event.data;
  handle(request).then(
    ({ value, transfer }) => scope.postMessage({ id: request.id, value }, transfer),
    (error: unknown) => scope.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
};

async function handle(request: StorageRequest): Promise<{ value?: unknown; transfer?: Transferable[] }> {
  switch (request.op) {
    case 'open':
      return { value: await open(request.name) };
    case 'read': {
      // Read as the request arrives: a write posted after it does not change what it gets.
      const content = contents.get(request.key);
      if (content === undefined) throw new Error(`The store holds nothing for "${request.path}".`);
      if (typeof content === 'string') return { value: content };
      const copy = content.slice(0);
      return { value: copy, transfer: [copy] };
    }
    case 'readPersisted':
      return { value: await requestOf(database().transaction(DATA, 'readonly').objectStore(DATA).get(request.key)) };
    case 'commit':
      return { value: await commit(request) };
    case 'close':
      db?.close();
      db = null;
      scope.close();
      return {};
  }
}

async function open(name: string): Promise<[string, unknown][]> {
  db = await new Promise<IDBDatabase>((resolve, reject) => {
    const opening = indexedDB.open(`recursa-mobile-vault:${name}`, 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore(META);
      opening.result.createObjectStore(DATA);
    };
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error ?? new Error('IndexedDB would not open'));
  });
  const meta = db.transaction(META, 'readonly').objectStore(META);
  const [keys, values] = await Promise.all([requestOf(meta.getAllKeys()), requestOf(meta.getAll())]);
  const data = db.transaction(DATA, 'readonly').objectStore(DATA);
  const [dataKeys, stored] = await Promise.all([requestOf(data.getAllKeys()), requestOf(data.getAll())]);
  dataKeys.forEach((key, at) => contents.set(key as string, stored[at] as StoredData));
  return keys.map((key, at) => [key as string, values[at]]);
}

/**
 * Applies a commit to the contents at once (reads after it see it), then in one IndexedDB
 * transaction. An append is joined here, as a phone's native append writes to the end of the file
 * without sending its content to the WebView and back.
 */
async function commit(request: Extract<StorageRequest, { op: 'commit' }>): Promise<null> {
  const puts = request.puts.map((put) => (put.appendTo === undefined || put.content === undefined ? put : { ...put, content: joined(contents.get(put.appendTo) ?? '', put.content) }));
  for (const key of request.staleKeys) contents.delete(key);
  for (const { entry, content } of puts) if (content !== undefined && entry.bytesKey !== undefined) contents.set(entry.bytesKey, content);
  const tx = database().transaction([META, DATA], 'readwrite');
  const meta = tx.objectStore(META);
  const data = tx.objectStore(DATA);
  for (const path of request.removes) meta.delete(path);
  for (const key of request.staleKeys) data.delete(key);
  for (const put of puts) {
    meta.put(put.entry, put.path);
    if (put.content !== undefined && put.entry.bytesKey !== undefined) data.put(put.content, put.entry.bytesKey);
  }
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write aborted'));
  });
  return null;
}

/** Text after text stays text; anything else is joined as bytes (text as UTF-8). */
function joined(before: StoredData, after: StoredData): StoredData {
  if (typeof before === 'string' && typeof after === 'string') return before + after;
  const bytes = (part: StoredData): Uint8Array => (typeof part === 'string' ? new TextEncoder().encode(part) : new Uint8Array(part));
  return concatBytes([bytes(before), bytes(after)]).buffer as ArrayBuffer;
}

function database(): IDBDatabase {
  if (db === null) throw new Error('The store is not open.');
  return db;
}

function requestOf<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}
