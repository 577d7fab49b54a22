import type { Signature } from './commitObjects';
import { rewrittenIndex, type StagedFile } from './commitFiles';
import type { IndexEntry } from './indexFile';
import { indexEntryFor } from './indexState';
import { LockedUpdate } from './lockedUpdate';
import { appendReflog } from './reflog';
import type { GitRepository } from './repository';

/** Where a branch move stands, for crash tests. */
export type BranchMoveStep = 'locks-staged' | 'ref-moved' | 'index-moved';

export interface BranchMove {
  /** The commit the branch must still be at (checked under the locks). */
  from: string | null;
  /** The commit it moves to (already stored, its files already in the work tree). */
  to: string;
  /** The index entries to replace: each file as the work tree now holds it, or `oid: null` to drop the entry. */
  files: readonly StagedFile[];
  who: Signature;
  /** The reflog line, e.g. `pull: Fast-forward`. */
  message: string;
  reached?: (step: BranchMoveStep) => Promise<void>;
}

const UNKNOWN_STAT = { kind: 'file' as const, size: 0, mtime: 0, ctime: 0 };

/**
 * Moves the current branch from `from` to `to` and replaces the index entries of `files`, under
 * git's locks on the index and the branch (see `LockedUpdate`): a crash leaves the old state or,
 * once decided, one the next opening finishes. Entries for other paths stay as they are. False,
 * with nothing changed, when the branch is no longer at `from` (another program committed).
 */
export async function moveBranch(repo: GitRepository, move: BranchMove): Promise<boolean> {
  await repo.requireNoOperationInProgress();
  const indexPath = `${repo.gitdir}/index`;
  const planned = await repo.head();
  const update = await LockedUpdate.acquire(repo.vault, repo.gitdir, [indexPath, planned.refFile], repo.lockOwner, repo.lockWait);
  try {
    const head = await repo.head();
    if (head.refFile !== planned.refFile || head.oid !== move.from) return false;
    const index = await repo.index.read();
    const replaced = new Map<string, IndexEntry | null>();
    for (const file of move.files) {
      replaced.set(file.path, file.oid === null ? null : indexEntryFor(file.path, file.oid, file.stat ?? UNKNOWN_STAT, parseInt(file.mode ?? '100644', 8)));
    }
    const { next, written } = await rewrittenIndex(repo, index, replaced);
    await update.stage(indexPath, written.bytes);
    await update.stage(head.refFile, `${move.to}\n`);
    await update.decide();
    await move.reached?.('locks-staged');
    const logged = head.branch === null ? ['HEAD'] : ['HEAD', `refs/heads/${head.branch}`];
    await appendReflog(repo.vault, repo.gitdir, logged, { from: head.oid, to: move.to, who: move.who, message: move.message });
    await update.commit(head.refFile);
    await move.reached?.('ref-moved');
    const staged = await repo.index.staged();
    await update.commit(indexPath);
    await move.reached?.('index-moved');
    await update.apply();
    await repo.index.adopt(next, written, staged);
    return true;
  } finally {
    await update.release();
  }
}

/** Points `ref` (e.g. `refs/remotes/origin/main`) at `oid` under its lock, with a reflog line. */
export async function updateRef(repo: GitRepository, ref: string, oid: string, who: Signature, message: string, from: string | null): Promise<void> {
  const path = `${repo.gitdir}/${ref}`;
  const update = await LockedUpdate.acquire(repo.vault, repo.gitdir, [path], repo.lockOwner, repo.lockWait);
  try {
    await update.stage(path, `${oid}\n`);
    await update.decide();
    await appendReflog(repo.vault, repo.gitdir, [ref], { from, to: oid, who, message });
    await update.apply();
  } finally {
    await update.release();
  }
}
