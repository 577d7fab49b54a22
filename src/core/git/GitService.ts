import {
  GitUnavailableError,
  InvalidArgumentError,
  NothingToCommitError,
  RevertConflictError,
  UserEditsError,
} from '../errors';
import type { OriginalStore, WriteSet } from '../mem/WriteSet';
import type { VaultPort } from '../ports';
import { KeyedMutex } from '../util/KeyedMutex';
import { agentCommitMessage, readAgentTrailer, safeIdentity, signatureNow, type GitIdentity } from './commitObjects';
import { commitStaged, stageFiles, type CommitResult } from './commitFiles';
import { diffFiles } from './diffFiles';
import { ensureRepository, type RepositoryState } from './ensureRepository';
import { hashObject } from './gitObjects';
import { gitLog, type LogEntry } from './history';
import { commitInitialSnapshot, type SnapshotProgress } from './initialSnapshot';
import { recoverLockedUpdate, type LockWait } from './lockedUpdate';
import { GitRepository } from './repository';
import { resolveRevision } from './revisions';
import { diffTrees, WorktreeStatus } from './worktreeStatus';

export const DEFAULT_AUTHOR: GitIdentity = { name: 'Recursa', email: 'recursa@localhost' };

export interface GitServiceOptions {
  /** Obsidian's config folder, for the ignore rules of a new repository. */
  configDir: string;
  /** Author and committer of Recursa's commits. Default `Recursa <recursa@localhost>`. */
  author?: GitIdentity;
  /** Commit the existing vault content when Recursa creates the repository. Default true. */
  snapshot?: boolean;
  /** Waiting for another program's `.git/*.lock`. */
  lockWait?: LockWait;
  /** Longest stretch of snapshot work between yields to the app. Default 30 ms. */
  sliceMs?: number;
  /** The clock commits are dated by. */
  now?: () => Date;
}

export type GitEvent =
  | { type: 'snapshot-progress'; progress: SnapshotProgress }
  | { type: 'snapshot-done'; hash: string | null }
  | { type: 'snapshot-failed'; error: Error }
  | { type: 'commit'; hash: string; message: string; run: string | null; paths: string[] };

export const SNAPSHOT_MESSAGE = 'Snapshot of the vault when Recursa started keeping its history';

/** A saved state of the files the agent touched: blob id, or null for "no file here". */
type Checkpoint = ReadonlyMap<string, string | null>;

/**
 * Everything git for one vault: the agent's commits, history, diffs, changed files, checkpoints
 * and undo. One queue runs all of it in order, so no two operations interleave their reads and
 * writes of `.git`; reads of history need no queue (objects never change).
 */
export class GitService implements OriginalStore {
  private readonly queue = new KeyedMutex();
  private readonly listeners = new Set<(event: GitEvent) => void>();
  private readonly status: WorktreeStatus;
  private readonly author: GitIdentity;
  private readonly now: () => Date;
  private checkpoint: Checkpoint | null = null;
  private readonly unsubscribe: () => void;
  private snapshot: Promise<string | null> = Promise.resolve(null);

  private constructor(
    readonly repo: GitRepository,
    private readonly writeSet: WriteSet,
    readonly repository: RepositoryState,
    options: GitServiceOptions,
  ) {
    this.status = new WorktreeStatus(repo);
    this.author = safeIdentity(options.author ?? DEFAULT_AUTHOR);
    this.now = options.now ?? (() => new Date());
    this.unsubscribe = repo.vault.onChange((change) => this.status.noteChange(change));
  }

  /**
   * Opens the vault's repository, creating it (branch `main`, Recursa's `.gitignore` lines) when
   * there is none, and finishing an update a crash interrupted. For a new repository the existing
   * content is committed in the background: `whenSnapshotDone()` waits for it.
   */
  static async open(vault: VaultPort, writeSet: WriteSet, options: GitServiceOptions): Promise<GitService> {
    const dotGit = await vault.stat('.git');
    if (dotGit?.kind === 'file') {
      throw new GitUnavailableError('this vault\'s ".git" is a file pointing to a repository elsewhere (a worktree or submodule), which Recursa cannot reach through the vault.');
    }
    const state = await ensureRepository(vault, { configDir: options.configDir });
    const repo = new GitRepository(vault, options.lockWait);
    await recoverLockedUpdate(vault, repo.gitdir);
    const service = new GitService(repo, writeSet, state, options);
    writeSet.keepOriginals(service);
    if (state.created && options.snapshot !== false) service.startSnapshot(options.sliceMs);
    return service;
  }

  onEvent(listener: (event: GitEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the snapshot commit's hash (null when there was nothing to commit or no snapshot). */
  whenSnapshotDone(): Promise<string | null> {
    return this.snapshot;
  }

  close(): void {
    this.unsubscribe();
    this.writeSet.keepOriginals(null);
  }

  /** `OriginalStore`: keeps a file's current bytes as a blob before the agent first changes it. */
  async save(path: string): Promise<string> {
    return this.repo.store.write('blob', await this.repo.vault.readBinary(path));
  }

  /** Commits exactly the agent's write-set; the user's other changes stay out. */
  commitAgentChanges(message: string, run: string): Promise<string> {
    return this.serial(async () => {
      const paths = this.writeSet.paths();
      if (paths.length === 0) throw new NothingToCommitError();
      const result = await this.commit(paths, agentCommitMessage(message, run));
      // Nothing differed from HEAD: the write-set stays, so a discard can still put back what the
      // agent overwrote (a user's uncommitted edit it returned to the committed text, say).
      if (result === null) throw new NothingToCommitError();
      for (const path of paths) this.writeSet.delete(path);
      this.checkpoint = null;
      return result.hash;
    });
  }

  log(path: string, max: number): Promise<LogEntry[]> {
    return gitLog(this.repo, path, max);
  }

  async diff(path: string, from?: string, to?: string): Promise<string> {
    const base = from === undefined ? (await this.repo.head()).oid : await resolveRevision(this.repo, from, 'fromCommit');
    const target = to === undefined ? null : await resolveRevision(this.repo, to, 'toCommit');
    return diffFiles(this.repo, path, base, target);
  }

  changedFiles(): Promise<string[]> {
    return this.serial(() => this.status.changedFiles());
  }

  /** Checks every file again (the background confirmation of the event-driven answer). */
  verifyChangedFiles(): Promise<string[]> {
    return this.serial(async () => {
      this.status.invalidate();
      return this.status.changedFiles();
    });
  }

  /** Remembers the current content of every file the agent has touched. */
  saveCheckpoint(): Promise<boolean> {
    return this.serial(async () => {
      const saved = new Map<string, string | null>();
      for (const path of this.writeSet.paths()) {
        const stat = await this.repo.vault.stat(path);
        saved.set(path, stat?.kind === 'file' ? await this.save(path) : null);
      }
      this.checkpoint = saved;
      return true;
    });
  }

  /**
   * Puts the files the agent touched back as they were at the last checkpoint (files it first
   * touched after the checkpoint go back to how they were before). False when there is no checkpoint.
   */
  revertToLastCheckpoint(): Promise<boolean> {
    return this.serial(async () => {
      const checkpoint = this.checkpoint;
      if (checkpoint === null) return false;
      await this.restore('revertToLastCheckpoint', (path) => (checkpoint.has(path) ? (checkpoint.get(path) as string | null) : this.originalOf(path)));
      return true;
    });
  }

  /** Returns every file the agent touched since its last commit to how it was before. False when there was nothing. */
  discardChanges(): Promise<boolean> {
    return this.serial(async () => {
      if (this.writeSet.size === 0) return false;
      await this.restore('discardChanges', (path) => this.originalOf(path));
      this.writeSet.clear();
      this.checkpoint = null;
      return true;
    });
  }

  /** A new commit that undoes an agent commit; refused when later commits or uncommitted edits touch the same files. */
  revertCommit(revision: string, run: string): Promise<string> {
    return this.serial(async () => {
      const hash = await resolveRevision(this.repo, revision, 'hash');
      const commit = await this.repo.readCommit(hash);
      const { message, run: original } = readAgentTrailer(commit.message);
      if (original === null) {
        throw new InvalidArgumentError('hash', 'a commit the agent made (its message has a Recursa-Run trailer)', hash.slice(0, 7));
      }
      if (commit.parents.length !== 1) throw new InvalidArgumentError('hash', 'a commit with one parent', `${hash.slice(0, 7)} (a merge or the first commit)`);
      const parentTree = await this.repo.treeOf(commit.parents[0] as string);
      const paths = await diffTrees(this.repo, parentTree, commit.tree);
      const headTree = await this.repo.treeOf((await this.repo.head()).oid);
      const later: string[] = [];
      const uncommitted: string[] = [];
      for (const path of paths) {
        const inCommit = (await this.repo.trees.lookup(commit.tree, path))?.oid ?? null;
        const inHead = (await this.repo.trees.lookup(headTree, path))?.oid ?? null;
        if (inCommit !== inHead) later.push(path);
        else if ((await this.worktreeOid(path)) !== inHead || this.writeSet.has(path)) uncommitted.push(path);
      }
      if (later.length > 0) throw new RevertConflictError(hash, later, 'changed again in later commits');
      if (uncommitted.length > 0) throw new RevertConflictError(hash, uncommitted, 'have uncommitted changes');
      for (const path of paths) await this.writeBlob(path, (await this.repo.trees.lookup(parentTree, path))?.oid ?? null);
      const subject = message.split('\n', 1)[0] ?? '';
      const result = await this.commit(paths, agentCommitMessage(`Revert "${subject}"\n\nThis reverts commit ${hash}.`, run));
      if (result === null) throw new NothingToCommitError();
      return result.hash;
    });
  }

  private async commit(paths: readonly string[], message: string): Promise<CommitResult | null> {
    const staged = await stageFiles(this.repo, paths);
    const result = await commitStaged(this.repo, staged, message, signatureNow(this.author, this.now()));
    if (result !== null) {
      const { message: text, run } = readAgentTrailer(message);
      this.emit({ type: 'commit', hash: result.hash, message: text, run, paths: result.changed });
    }
    return result;
  }

  private startSnapshot(sliceMs: number | undefined): void {
    this.snapshot = this.serial(async () => {
      try {
        const result = await commitInitialSnapshot(this.repo, {
          message: `${SNAPSHOT_MESSAGE}\n`,
          signature: signatureNow(this.author, this.now()),
          writeSet: this.writeSet,
          sliceMs,
          onProgress: (progress) => this.emit({ type: 'snapshot-progress', progress }),
        });
        this.emit({ type: 'snapshot-done', hash: result?.hash ?? null });
        return result?.hash ?? null;
      } catch (error) {
        this.emit({ type: 'snapshot-failed', error: error instanceof Error ? error : new Error(String(error)) });
        throw error;
      }
    });
  }

  private originalOf(path: string): string | null {
    const entry = this.writeSet.get(path);
    return entry?.existedBefore === true ? entry.original : null;
  }

  /** Writes each write-set path back to `target(path)`, after making sure nobody else changed any of them. */
  private async restore(operation: string, target: (path: string) => string | null): Promise<void> {
    const paths = this.writeSet.paths();
    const edited = await this.writeSet.changedByOthers(paths);
    if (edited.length > 0) throw new UserEditsError(operation, edited);
    const unknown = paths.filter((path) => this.writeSet.get(path)?.existedBefore === true && this.writeSet.get(path)?.original === null);
    if (unknown.length > 0) {
      throw new GitUnavailableError(`${operation} cannot restore ${unknown.map((path) => `"${path}"`).join(', ')}: their content from before the agent changed them was not kept (they were changed before history was opened). Nothing was restored.`);
    }
    for (const path of paths) await this.writeBlob(path, target(path));
    await this.writeSet.refresh(paths);
  }

  private async writeBlob(path: string, oid: string | null): Promise<void> {
    const vault = this.repo.vault;
    if (oid === null) {
      if ((await vault.stat(path))?.kind === 'file') await vault.remove(path);
      return;
    }
    if ((await this.worktreeOid(path)) === oid) return;
    await vault.writeBinary(path, await this.repo.store.readBlob(oid));
  }

  private async worktreeOid(path: string): Promise<string | null> {
    const stat = await this.repo.vault.stat(path);
    return stat?.kind === 'file' ? hashObject('blob', await this.repo.vault.readBinary(path)) : null;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run('git', task);
  }

  private emit(event: GitEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not break git work.
      }
    }
  }
}
