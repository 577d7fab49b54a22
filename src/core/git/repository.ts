import { GitUnavailableError } from '../errors';
import type { VaultPort } from '../ports';
import type { CommitObject } from './commitObjects';
import { GitObjectStore, type Deflate } from './gitObjects';
import { IndexCache } from './indexState';
import type { LockOwner, LockWait } from './lockedUpdate';
import { readHead, type HeadState } from './refs';
import { toHex } from './sha1';
import { TreeReader } from './treeEdit';

const MAX_CACHED_COMMITS = 20_000;

/**
 * The points a commit (and the first snapshot) passes, in order. `GitServiceOptions.onStep` is
 * called at each, so tests can stop a real process exactly there and check what a crash leaves.
 */
export type GitStep =
  | 'snapshot-started'
  | 'snapshot-batch'
  | 'snapshot-stored'
  | 'blobs-written'
  | 'locks-taken'
  /** The trees and the commit object are hashed; their writes are under way. */
  | 'tree-written'
  /** Every object is stored and the locks hold their new content; the update is not yet decided. */
  | 'commit-written'
  | 'locks-staged'
  | 'reflog-written'
  | 'ref-moved'
  | 'index-moved';

export interface GitRepositoryOptions {
  lockWait?: LockWait;
  /** Told when a lock older than `LockWait.staleAfterMs` was removed (the locks' owner id is made fresh here). */
  onStaleLock?: LockOwner['onStaleLock'];
  onStep?: (step: GitStep) => void | Promise<void>;
  /** Compresses loose objects; default pako (see `GitObjectStore`). */
  deflate?: Deflate;
}

/** One git repository at the vault root, read and written through the vault port. */
export class GitRepository {
  readonly gitdir = '.git';
  readonly store: GitObjectStore;
  readonly trees: TreeReader;
  readonly index: IndexCache;
  private readonly commits = new Map<string, CommitObject>();
  /** The branch HEAD named when last read: its file is read beside HEAD next time. */
  private lastBranchRef: string | undefined;

  readonly lockWait: LockWait;
  readonly lockOwner: LockOwner;
  private readonly onStep: GitRepositoryOptions['onStep'];

  constructor(
    readonly vault: VaultPort,
    options: GitRepositoryOptions = {},
  ) {
    this.lockWait = options.lockWait ?? {};
    this.lockOwner = { id: randomOwnerId(), onStaleLock: options.onStaleLock };
    this.onStep = options.onStep;
    this.store = new GitObjectStore(vault, this.gitdir, options.deflate);
    this.trees = new TreeReader(this.store);
    this.index = new IndexCache(vault, `${this.gitdir}/index`);
  }

  /** Marks a step of a commit or snapshot (see `GitStep`). */
  async reached(step: GitStep): Promise<void> {
    await this.onStep?.(step);
  }

  async head(): Promise<HeadState> {
    const head = await readHead(this.vault, this.gitdir, this.lastBranchRef);
    this.lastBranchRef = head.branch === null ? undefined : `refs/heads/${head.branch}`;
    return head;
  }

  async readCommit(oid: string): Promise<CommitObject> {
    const cached = this.commits.get(oid);
    if (cached !== undefined) return cached;
    const commit = await this.store.readCommit(oid);
    if (this.commits.size >= MAX_CACHED_COMMITS) this.commits.delete(this.commits.keys().next().value as string);
    this.commits.set(oid, commit);
    return commit;
  }

  /** The root tree of a commit, or null for no commit (an unborn branch). */
  async treeOf(commit: string | null): Promise<string | null> {
    return commit === null ? null : (await this.readCommit(commit)).tree;
  }

  /** Refuses to commit in the middle of a merge, rebase, cherry-pick or revert another tool started. */
  async requireNoOperationInProgress(): Promise<void> {
    const markers = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply'];
    // Looked for together: on a phone each look is a call across the app's bridge.
    const present = await Promise.all(markers.map((marker) => this.vault.exists(`${this.gitdir}/${marker}`)));
    const marker = markers.find((_, at) => present[at]);
    if (marker !== undefined) {
      throw new GitUnavailableError(`a git operation is in progress in this vault (.git/${marker} exists). Finish or abort it with your git tool first.`);
    }
  }
}

function randomOwnerId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}
