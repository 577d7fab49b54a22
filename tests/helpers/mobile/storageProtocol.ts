/** What `IdbFileStore` (the page) and `storageWorker` (the phone's native side) say to each other. */

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

/** One entry set by a commit, with the content of a file written (under its `bytesKey`), after the content at `appendTo` when given. */
export interface StoragePut {
  path: string;
  entry: StoredEntry;
  content?: StoredData;
  appendTo?: string;
}

/** A request, less the id that pairs it with its reply. */
export type StorageCall =
  | { op: 'open'; name: string }
  | { op: 'read'; key: string; path: string }
  | { op: 'readPersisted'; key: string }
  | { op: 'commit'; removes: string[]; staleKeys: string[]; puts: StoragePut[] }
  | { op: 'close' };

export type StorageRequest = StorageCall & { id: number };

export type StorageReply = { id: number; value?: unknown; error?: string };
