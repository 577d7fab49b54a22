import { compareCodePoints } from '../util/compareCodePoints';
import type { Slicer } from '../util/Slicer';
import type { GitObjectStore } from './gitObjects';
import { EMPTY_TREE_OID } from './gitObjects';
import type { ObjectWrites } from './objectWrites';
import { TREE_MODE, type TreeEntry } from './treeObjects';

/** A file as a tree records it. */
export interface BlobRef {
  oid: string;
  mode: string;
}

/** Vault path → its new blob, or null to remove it. */
export type TreeChanges = ReadonlyMap<string, BlobRef | null>;

const MAX_CACHED_TREES = 20_000;

/** Parsed trees by id (trees never change), bounded so long history walks cannot grow it forever. */
export class TreeReader {
  private readonly cache = new Map<string, readonly TreeEntry[]>();

  constructor(readonly store: GitObjectStore) {}

  async read(oid: string): Promise<readonly TreeEntry[]> {
    if (oid === EMPTY_TREE_OID) return [];
    const cached = this.cache.get(oid);
    if (cached !== undefined) return cached;
    const entries = await this.store.readTree(oid);
    this.remember(oid, entries);
    return entries;
  }

  /**
   * Writes a tree and keeps its entries as `read` would give them back: a commit's next commit
   * starts from the trees this one wrote, and need not read them again.
   */
  async write(entries: readonly TreeEntry[], writes?: ObjectWrites): Promise<string> {
    const oid = await this.store.writeTree(entries, writes);
    this.remember(oid, [...entries].sort(inReadOrder));
    return oid;
  }

  private remember(oid: string, entries: readonly TreeEntry[]): void {
    if (this.cache.size >= MAX_CACHED_TREES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(oid, entries);
  }

  /** The blob at `path` in the tree, or null (absent, or a folder). */
  async lookup(rootOid: string | null, path: string): Promise<BlobRef | null> {
    if (rootOid === null) return null;
    const segments = path.split('/');
    let tree = rootOid;
    for (let i = 0; i < segments.length; i++) {
      const entry = (await this.read(tree)).find((candidate) => candidate.name === segments[i]);
      if (entry === undefined) return null;
      const last = i === segments.length - 1;
      if (last) return entry.mode === TREE_MODE ? null : { oid: entry.oid, mode: entry.mode };
      if (entry.mode !== TREE_MODE) return null;
      tree = entry.oid;
    }
    return null;
  }

  /** Every blob in the tree by full path. */
  async flatten(rootOid: string | null): Promise<Map<string, BlobRef>> {
    const files = new Map<string, BlobRef>();
    if (rootOid === null) return files;
    const walk = async (oid: string, prefix: string): Promise<void> => {
      for (const entry of await this.read(oid)) {
        const path = prefix + entry.name;
        if (entry.mode === TREE_MODE) await walk(entry.oid, `${path}/`);
        else files.set(path, { oid: entry.oid, mode: entry.mode });
      }
    };
    await walk(rootOid, '');
    return files;
  }

  /** Paths under `folder` (a vault-relative folder path) in the tree. */
  async filesUnder(rootOid: string | null, folder: string): Promise<string[]> {
    if (rootOid === null) return [];
    let tree: string | null = rootOid;
    for (const segment of folder.split('/')) {
      const entries: readonly TreeEntry[] = await this.read(tree);
      const entry = entries.find((candidate) => candidate.name === segment && candidate.mode === TREE_MODE);
      if (entry === undefined) return [];
      tree = entry.oid;
    }
    return [...(await this.flatten(tree)).keys()].map((path) => `${folder}/${path}`);
  }
}

/** How `updateTree` goes about its work. */
export interface TreeUpdateOptions {
  /** Gives way every 256 changes: a first snapshot's commit adds every file of the vault. */
  slicer?: Slicer;
  /** Leaves the trees' writes under way here instead of waiting for each. */
  writes?: ObjectWrites;
}

/**
 * Writes the trees for `rootOid` with `changes` applied and returns the new root's id. Only the
 * trees on the changed paths are read and written, so the cost follows the change, not the vault.
 */
export async function updateTree(reader: TreeReader, rootOid: string | null, changes: TreeChanges, options: TreeUpdateOptions = {}): Promise<string> {
  const pending: PendingChange[] = [];
  for (const [path, blob] of changes) {
    pending.push({ segments: path.split('/'), blob });
    if ((pending.length & 0xff) === 0) await options.slicer?.maybeYield();
  }
  const root = await updateSubtree(reader, rootOid, pending, options);
  return root ?? (await reader.write([], options.writes));
}

/**
 * The order `GitObjectStore.readTree` gives a tree's entries in: by name, code point by code point
 * (as isomorphic-git reads them; on disk a folder sorts as if its name ended in `/`).
 */
function inReadOrder(a: TreeEntry, b: TreeEntry): number {
  return compareCodePoints(a.name, b.name);
}

interface PendingChange {
  segments: string[];
  blob: BlobRef | null;
}

async function updateSubtree(reader: TreeReader, oid: string | null, changes: PendingChange[], options: TreeUpdateOptions): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  for (const entry of oid === null ? [] : await reader.read(oid)) entries.set(entry.name, entry);
  const nested = new Map<string, PendingChange[]>();
  for (const [i, change] of changes.entries()) {
    if ((i & 0xff) === 0xff) await options.slicer?.maybeYield();
    const [name, ...rest] = change.segments as [string, ...string[]];
    if (rest.length === 0) {
      if (change.blob === null) {
        if (entries.get(name)?.mode !== TREE_MODE) entries.delete(name);
      } else {
        entries.set(name, { name, mode: change.blob.mode, oid: change.blob.oid });
      }
    } else {
      const list = nested.get(name) ?? [];
      list.push({ segments: rest, blob: change.blob });
      nested.set(name, list);
    }
  }
  for (const [name, list] of nested) {
    const existing = entries.get(name);
    const subtree = existing?.mode === TREE_MODE ? existing.oid : null;
    // A file replaced by a folder of the same name: only if something is being added below it.
    if (existing !== undefined && subtree === null && list.every((change) => change.blob === null)) continue;
    const updated = await updateSubtree(reader, subtree, list, options);
    if (updated === null) entries.delete(name);
    else entries.set(name, { name, mode: TREE_MODE, oid: updated });
  }
  if (entries.size === 0) return null;
  return reader.write([...entries.values()], options.writes);
}
