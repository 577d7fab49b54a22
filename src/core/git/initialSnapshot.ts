import type { WriteSet } from '../mem/WriteSet';
import { walkEntries } from '../ports';
import { Slicer } from '../util/Slicer';
import type { Signature } from './commitObjects';
import { commitStaged, stageFile, type CommitResult, type StagedFile } from './commitFiles';
import { IgnoreRules } from './ignoreRules';
import type { PackWriter } from './packWriter';
import type { GitRepository } from './repository';

const PARALLEL_FILES = 64;

export interface SnapshotProgress {
  /** Files stored so far. */
  done: number;
  /** Files to store. */
  total: number;
}

export interface SnapshotOptions {
  message: string;
  signature: Signature;
  /** Files the agent touched meanwhile are committed as they were before it did. */
  writeSet: WriteSet;
  onProgress: (progress: SnapshotProgress) => void;
  /** Longest stretch of work between yields to the event loop. */
  sliceMs?: number;
}

/**
 * Commits the vault as it is, for a repository Recursa just created: every file git does not
 * ignore, stored in slices that yield to the app between them, with progress reported. Files
 * the agent changed before the snapshot got to them enter it in their original state, so the
 * agent's own first commit still shows what it did.
 */
export async function commitInitialSnapshot(repo: GitRepository, options: SnapshotOptions): Promise<CommitResult | null> {
  const slicer = new Slicer(options.sliceMs);
  // Links are listed, never followed: each is stored as its text, so a loop or a link out of the vault is harmless.
  const all = await walkEntries(repo.vault, '', (folder) => folder !== repo.gitdir, slicer);
  const ignore = await IgnoreRules.load(repo.vault, all.files.filter((path) => path === '.gitignore' || path.endsWith('/.gitignore')), repo.gitdir);
  // In slices: the ignore rules cost a pattern test or more per path, and over a large vault's
  // files held a phone's main thread for a quarter of a second.
  const files: string[] = [];
  for (const path of [...all.files, ...all.links]) {
    if (!ignore.isIgnored(path)) files.push(path);
    await slicer.maybeYield();
  }
  const links = new Set(all.links);
  options.onProgress({ done: 0, total: files.length });
  const staged: (StagedFile | null)[] = [];
  // The notes go into packs, written as they fill up: thousands of loose objects would cost a
  // file each. The pack must be in place before the commit that names its blobs.
  const pack = repo.store.newPack(slicer);
  // Several files at a time: each costs a handful of sequential file-system calls, and waiting on
  // them one by one leaves the disk (and, on Node, the thread pool) idle most of the time.
  // Progress is told once per batch in which the work gave way (the pack yields as it compresses).
  let toldAt = slicer.yields;
  for (let at = 0; at < files.length; at += PARALLEL_FILES) {
    // Starting a file's reads is work on the main thread too (its stat is answered at once where
    // the platform keeps a table): a batch is started in slices, not all in one task.
    const batch: Promise<StagedFile | null>[] = [];
    for (const path of files.slice(at, at + PARALLEL_FILES)) {
      const stagedFile = stageForSnapshot(repo, path, options.writeSet, links.has(path) ? 'link' : 'file', pack);
      // Handled here too: a file may fail while the next ones are started.
      stagedFile.catch(() => undefined);
      batch.push(stagedFile);
      await slicer.maybeYield();
    }
    staged.push(...(await Promise.all(batch)));
    await repo.reached('snapshot-batch');
    await slicer.maybeYield();
    if (slicer.yields === toldAt) continue;
    toldAt = slicer.yields;
    options.onProgress({ done: staged.length, total: files.length });
  }
  await pack?.finish();
  options.onProgress({ done: files.length, total: files.length });
  await repo.reached('snapshot-stored');
  return commitStaged(repo, staged.filter((file) => file !== null), options.message, options.signature);
}

async function stageForSnapshot(repo: GitRepository, path: string, writeSet: WriteSet, kind: 'file' | 'link', pack: PackWriter | null): Promise<StagedFile | null> {
  if (writeSet.has(path)) return originalOf(path, writeSet);
  const staged = await stageFile(repo, path, { kind, likelyNew: true, pack: pack ?? undefined });
  // The agent may have started changing the file while it was read: the write set records a path
  // before the change lands, so asking again tells whether what was read could be the agent's.
  if (writeSet.has(path)) return originalOf(path, writeSet);
  return staged.oid === null ? null : staged;
}

/** The file as it was before the agent first touched it; null when it did not exist. */
function originalOf(path: string, writeSet: WriteSet): StagedFile | null {
  const touched = writeSet.get(path);
  return touched?.existedBefore === true && touched.original !== null ? { path, oid: touched.original, stat: null } : null;
}
