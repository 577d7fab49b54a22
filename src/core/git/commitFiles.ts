import type { PackWriter } from './packWriter';
import type { VaultStat } from '../ports';
import { hasSurrogate } from '../util/compareCodePoints';
import { settleAll } from '../util/settleAll';
import { Slicer } from '../util/Slicer';
import { sleep } from '../util/sleep';
import { sortByCodePointsInSlices, sortInSlices, sortStringsInSlices } from '../util/sortInSlices';
import type { Signature } from './commitObjects';
import { hashBlob } from './objectHash';
import { extensionsSafeToKeep, type GitIndexData, type IndexEntry } from './indexFile';
import { compareEntries, comparePaths, serializeIndexReusing, type SerializedIndex } from './indexSerialize';
import { indexEntryFor, isRacy, type IndexSnapshot } from './indexState';
import { LockedUpdate } from './lockedUpdate';
import { ObjectWrites } from './objectWrites';
import { appendReflog, commitReflogMessage } from './reflog';
import type { GitRepository } from './repository';
import { FILE_MODE, modeString, SYMLINK_MODE } from './treeObjects';
import { updateTree, type BlobRef } from './treeEdit';

/** A file as it will be committed: its blob (already in the object store) or its absence. */
export interface StagedFile {
  path: string;
  /** Blob id of the content, or null to delete the path. */
  oid: string | null;
  /** `120000` for a symbolic link (its blob is the link's text); a file keeps the mode it has. */
  mode?: string;
  /**
   * The file's stat when `oid` is what the vault holds now, for the index entry; null when the
   * vault holds something else (the entry then makes git look at the file again).
   */
  stat: VaultStat | null;
}

const UNKNOWN_STAT: VaultStat = { kind: 'file', size: 0, mtime: 0, ctime: 0 };

export interface CommitResult {
  hash: string;
  /** The paths whose committed content changed, sorted. */
  changed: string[];
}

/**
 * Stores the current content of `paths` as blobs. Runs before any lock is taken: objects nobody
 * references yet are harmless.
 */
export async function stageFiles(repo: GitRepository, paths: Iterable<string>): Promise<StagedFile[]> {
  const staged: StagedFile[] = [];
  for (const path of paths) staged.push(await stageFile(repo, path));
  return staged;
}

/** What the caller of `stageFile` already knows, to save file-system calls. */
export interface StageHint {
  /** Whether the path is a file or a link (from a listing). */
  kind?: 'file' | 'link';
  /** Its blob is almost surely not stored yet (a first snapshot). */
  likelyNew?: boolean;
  /** Store a note-sized blob in this pack rather than as a loose object (a first snapshot). */
  pack?: PackWriter;
}

/** Blobs up to this size go into a pack when one is given; larger ones (attachments) stay loose. */
const PACKED_BLOB_MAX = 1024 * 1024;
/** Entries merged between looks at the slicer's clock. */
const PAUSE_EVERY = 512;

/**
 * One path as it is in the vault now: a file's blob stored, a symbolic link stored as git stores
 * one (its text, mode `120000` — the target is never read), or its absence (`oid: null`).
 */
export async function stageFile(repo: GitRepository, path: string, hint: StageHint = {}): Promise<StagedFile> {
  const link = hint.kind === 'file' ? null : await repo.vault.readLink(path);
  if (link !== null) return { path, oid: await repo.store.writeBlob(new TextEncoder().encode(link)), mode: SYMLINK_MODE, stat: null };
  const stat = await repo.vault.stat(path);
  if (stat?.kind !== 'file') return { path, oid: null, stat: null };
  const bytes = await repo.vault.readBinary(path);
  const oid = hint.pack !== undefined && bytes.byteLength <= PACKED_BLOB_MAX ? await hint.pack.add(bytes) : await repo.store.writeBlob(bytes, hint.likelyNew);
  return { path, oid, stat: { ...stat, size: bytes.byteLength } };
}

/**
 * Commits HEAD's tree with `files` applied — and nothing else: entries the user staged for other
 * paths stay staged, other working-tree edits stay uncommitted. Only the trees along the changed
 * paths are rewritten and only the changed index entries are replaced, so the cost follows the
 * change, not the vault. Returns null when no file differs from HEAD (no empty commits).
 */
export async function commitStaged(
  repo: GitRepository,
  files: readonly StagedFile[],
  message: string,
  signature: Signature,
): Promise<CommitResult | null> {
  await repo.requireNoOperationInProgress();
  await repo.reached('blobs-written');
  const indexPath = `${repo.gitdir}/index`;
  const planned = await repo.head();
  const update = await LockedUpdate.acquire(repo.vault, repo.gitdir, [indexPath, planned.refFile], repo.lockOwner, repo.lockWait);
  let committed: { hash: string; paths: string[]; slicer: Slicer };
  try {
    await repo.reached('locks-taken');
    // Read again under the locks: another program may have committed while we waited.
    const [head, index] = await Promise.all([repo.head(), repo.index.read()]);
    if (head.refFile !== planned.refFile) throw new Error('HEAD moved to another branch during the commit; try again');
    const parentTree = await repo.treeOf(head.oid);
    // A first snapshot commits every file of the vault, and its lookups in an empty tree all
    // resolve at once: finding the changes and writing the trees give way in slices.
    const slicer = new Slicer();
    const changes = new Map<string, BlobRef | null>();
    const entries = new Map<string, IndexEntry | null>();
    for (const file of files) {
      await slicer.maybeYield();
      const current = await repo.trees.lookup(parentTree, file.path);
      if (file.oid === null) {
        if (current !== null) changes.set(file.path, null);
        entries.set(file.path, null);
        continue;
      }
      const mode = file.mode ?? current?.mode ?? modeString(index.byPath.get(file.path)?.mode ?? parseInt(FILE_MODE, 8));
      if (current === null || current.oid !== file.oid || current.mode !== mode) changes.set(file.path, { oid: file.oid, mode });
      entries.set(file.path, indexEntryFor(file.path, file.oid, file.stat ?? UNKNOWN_STAT, parseInt(mode, 8)));
    }
    if (changes.size === 0) return null;

    // The trees and the commit are stored while the next one is hashed and the index serialized
    // (only their ids are needed for that), and every one is stored before the update is decided.
    const writes = new ObjectWrites(undefined, slicer);
    const tree = await updateTree(repo.trees, parentTree, changes, { slicer, writes });
    const parents = head.oid === null ? [] : [head.oid];
    const hash = await repo.store.writeCommit({ tree, parents, author: signature, committer: signature, message }, writes);
    await repo.reached('tree-written');

    // Rewriting a large index and handing its megabyte to the platform are each tens of
    // milliseconds on a phone: they go in the commit's slices too, not after the trees' work.
    // The trees' writes first reach the file system: each is a chain of quick steps, which the
    // index's long ones, taking turns with them, held back until the index was written.
    await sleep(0);
    const { next: nextIndex, written } = await rewrittenIndex(repo, index, entries, slicer);
    await slicer.maybeYield();
    await settleAll([writes.settled(), update.stage(indexPath, written.bytes), update.stage(head.refFile, `${hash}\n`)]);
    await repo.reached('commit-written');
    // As git does, the reflog gets its line before the branch moves: beside the journal's
    // "decided", not after it. A failure between the two leaves a line for a commit that is
    // stored but not on the branch, which git reads as it reads its own after a crash there.
    const logged = head.branch === null ? ['HEAD'] : ['HEAD', `refs/heads/${head.branch}`];
    const staged = repo.index.staged();
    await settleAll([
      update.decide(),
      appendReflog(repo.vault, repo.gitdir, logged, { from: head.oid, to: hash, who: signature, message: commitReflogMessage(message, head.oid === null) }),
      staged,
    ]);
    await repo.reached('locks-staged');
    await repo.reached('reflog-written');

    // The index goes into place while the branch moves: where a file cannot be renamed over
    // another (a phone), each is a write and a removal, and a commit's steps on a phone's file
    // system are what its time goes to. Decided, either order ends in the same repository, and a
    // crash is rolled forward.
    const moveBranch = async (): Promise<void> => {
      await update.commit(head.refFile);
      await repo.reached('ref-moved');
    };
    await settleAll([update.commit(indexPath), moveBranch()]);
    await repo.reached('index-moved');
    await update.apply();
    await repo.index.adopt(nextIndex, written, await staged);
    committed = { hash, paths: [...changes.keys()], slicer };
  } finally {
    await update.release();
  }
  // Sorted once the locks are let go: a first snapshot's list takes slices, and other programs
  // wait on the locks.
  return { hash: committed.hash, changed: await sortByCodePointsInSlices(committed.paths, committed.slicer) };
}

/**
 * The index with the entries of `replaced`'s paths replaced (null: taken out), the others kept
 * (smudged where racy), and its bytes, written from the index written last where it can be.
 */
export async function rewrittenIndex(
  repo: GitRepository,
  index: IndexSnapshot,
  replaced: ReadonlyMap<string, IndexEntry | null>,
  slicer = new Slicer(),
): Promise<{ next: GitIndexData; written: SerializedIndex }> {
  await slicer.maybeYield();
  const kept = await smudgeRacyEntries(repo, index, keptEntries(index.data.entries, replaced, index.written !== null));
  // A first snapshot replaces every entry of a large vault: merging, ordering and writing them
  // share one slicer (the caller's, when it has one), so that none of those steps adds to
  // another's time on the main thread.
  await slicer.maybeYield();
  const entries = await mergedEntries(kept, [...replaced.values()].filter((entry) => entry !== null), slicer);
  await slicer.maybeYield();
  const next = { version: index.data.version, entries, extensions: extensionsSafeToKeep(index.data.extensions) };
  return { next, written: await serializeIndexReusing(next, index.written, slicer, repo.index.takeSpare()) };
}

/**
 * `entries` but those of `replaced`'s paths (every stage). In entries known to be in git's order
 * (the index Recursa wrote last), each path is found by a binary search: one file's commit looked
 * at every entry of a 10,000-note index to find the one it replaces, 10 ms on a phone. Other
 * entries, and many paths at once (a first snapshot), are filtered one by one, so an index out of
 * order still loses exactly those paths.
 */
export function keptEntries(entries: readonly IndexEntry[], replaced: ReadonlyMap<string, unknown>, inGitOrder: boolean): IndexEntry[] {
  if (!inGitOrder || replaced.size * 64 > entries.length) return entries.filter((entry) => !replaced.has(entry.path));
  const kept: IndexEntry[] = [];
  let at = 0;
  for (const path of [...replaced.keys()].sort(comparePaths)) {
    for (const end = firstFrom(entries, at, (entry) => comparePaths(entry.path, path) >= 0); at < end; at++) kept.push(entries[at] as IndexEntry);
    while (at < entries.length && (entries[at] as IndexEntry).path === path) at++;
  }
  for (; at < entries.length; at++) kept.push(entries[at] as IndexEntry);
  return kept;
}

/**
 * Rewriting the index gives it a new mtime, which would make entries that were racily clean under
 * the old one look trustworthy. Like git, check those few entries now and zero the size of any
 * whose file changed, so every reader looks at that file again.
 */
async function smudgeRacyEntries(repo: GitRepository, index: IndexSnapshot, kept: IndexEntry[]): Promise<IndexEntry[]> {
  const indexMtime = index.file?.mtime ?? null;
  // Racy entries are the few written within the index's last second: look at those alone.
  const racy: number[] = [];
  for (let at = 0; at < kept.length; at++) {
    const entry = kept[at] as IndexEntry;
    if (entry.stage === 0 && isRacy(entry, indexMtime)) racy.push(at);
  }
  if (racy.length === 0) return kept;
  const checked = kept.slice();
  await Promise.all(
    racy.map(async (at) => {
      const entry = checked[at] as IndexEntry;
      const stat = await repo.vault.stat(entry.path);
      const same = stat?.kind === 'file' && (await hashBlob(await repo.vault.readBinary(entry.path))) === entry.oid;
      if (!same) checked[at] = { ...entry, size: 0 };
    }),
  );
  return checked;
}

/**
 * The index's entries with `added` put in place, in git's order (path, then stage): the index is
 * in that order already, so each added entry's place is found by a binary search — a sort of a
 * 10,000-entry index on every commit was a tenth of a commit's time on a phone, and a merge
 * still compared every path. Out-of-order input still comes out whole, and
 * `serializeIndexReusing` puts it in order. A first snapshot adds every entry: the work pauses
 * through `slicer`.
 */
export async function mergedEntries(index: readonly IndexEntry[], added: readonly IndexEntry[], slicer = new Slicer()): Promise<IndexEntry[]> {
  const adding = await sortedEntries(added, slicer);
  const merged: IndexEntry[] = [];
  let at = 0;
  for (let n = 0; n < adding.length; n++) {
    const entry = adding[n] as IndexEntry;
    for (const end = firstFrom(index, at, (other) => compareEntries(other, entry) > 0); at < end; at++) merged.push(index[at] as IndexEntry);
    merged.push(entry);
    if (n % PAUSE_EVERY === PAUSE_EVERY - 1) await slicer.maybeYield();
  }
  for (; at < index.length; at++) merged.push(index[at] as IndexEntry);
  return merged;
}

/**
 * `entries` in git's order, sorted in slices. Distinct paths without surrogates (nearly always)
 * are sorted by the engine's own string order, which is then the order of their UTF-8 bytes and
 * several times faster than a comparator.
 */
async function sortedEntries(entries: readonly IndexEntry[], slicer: Slicer): Promise<IndexEntry[]> {
  const byPath = new Map<string, IndexEntry>();
  for (const entry of entries) {
    if (byPath.has(entry.path) || hasSurrogate(entry.path)) return sortInSlices(entries, compareEntries, slicer);
    byPath.set(entry.path, entry);
  }
  const paths = await sortStringsInSlices([...byPath.keys()], slicer);
  return paths.map((path) => byPath.get(path) as IndexEntry);
}

/**
 * The first place from `from` on whose entry is `past` (`entries.length` if none), by a binary
 * search: `past` must hold for every entry after one it holds for, as git's order gives.
 */
function firstFrom(entries: readonly IndexEntry[], from: number, past: (entry: IndexEntry) => boolean): number {
  let low = from;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (past(entries[middle] as IndexEntry)) high = middle;
    else low = middle + 1;
  }
  return low;
}
