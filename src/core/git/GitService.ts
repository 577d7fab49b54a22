import {
  GitUnavailableError,
  InvalidArgumentError,
  NothingToCommitError,
  RevertConflictError,
} from '../errors';
import type { OriginalStore, WriteSet } from '../mem/WriteSet';
import type { VaultPort } from '../ports';
import { KeyedMutex } from '../util/KeyedMutex';
import git from 'isomorphic-git';
import { agentCommitMessage, readAgentTrailer, safeIdentity, signatureNow, type GitIdentity } from './commitObjects';
import { commitStaged, stageFile, stageFiles, type CommitResult, type StagedFile } from './commitFiles';
import { diffFiles } from './diffFiles';
import { ensureRepository, markSnapshotDone, type RepositoryState } from './ensureRepository';
import { GIT_ROOT } from './gitFs';
import type { Deflate } from './gitObjects';
import { hashBlob } from './objectHash';
import { gitLog, type LogEntry } from './history';
import { IgnoreRules } from './ignoreRules';
import { commitInitialSnapshot, type SnapshotProgress } from './initialSnapshot';
import { recoverAbandonedUpdates, type LockWait } from './lockedUpdate';
import { GitRepository, type GitStep } from './repository';
import { resolveRevision } from './revisions';
import { applyRestore, planRestore, UNKNOWN_BASE } from './restorePlan';
import { diffTrees, WorktreeStatus } from './worktreeStatus';

export const DEFAULT_AUTHOR: GitIdentity = { name: 'Recursa', email: 'recursa@localhost' };

/** Who the user's own edits are committed as when the repository's config names nobody. */
export const DEFAULT_USER_IDENTITY: GitIdentity = { name: 'Your edits (saved by Recursa)', email: 'your-edits@recursa.invalid' };

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
  /**
   * Who the user's uncommitted edits are committed as (before the agent changes those notes),
   * when the repository's own `user.name`/`user.email` are not set. Default `DEFAULT_USER_IDENTITY`.
   */
  userIdentity?: GitIdentity;
  /** Called at each step of a commit and of the first snapshot (for crash tests). */
  onStep?: (step: GitStep) => void | Promise<void>;
  /** The platform's own zlib, where it has one (see `Deflate`); default: pako. */
  deflate?: Deflate;
}

export type GitEvent =
  | { type: 'snapshot-progress'; progress: SnapshotProgress }
  | { type: 'snapshot-done'; hash: string | null }
  | { type: 'snapshot-failed'; error: Error }
  | { type: 'commit'; hash: string; message: string; run: string | null; paths: string[]; ignored?: string[] }
  /** A lock file older than `LockWait.staleAfterMs` was taken as abandoned and removed. */
  | { type: 'stale-lock-removed'; lock: string; ageMs: number }
  /** An update a stopped process left half done was finished or undone. */
  | { type: 'recovered'; detail: string };

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
  /** Operations running or queued, and who waits for none to be left. */
  private pending = 0;
  private started = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly listeners = new Set<(event: GitEvent) => void>();
  private readonly status: WorktreeStatus;
  private readonly author: GitIdentity;
  private readonly userIdentity: GitIdentity;
  private readonly now: () => Date;
  private checkpoint: Checkpoint | null = null;
  private readonly unsubscribe: () => void;
  private snapshot: Promise<string | null> = Promise.resolve(null);
  /** `done` also when there was no snapshot to make (an existing repository); `missing` when it failed or was not asked for. */
  private snapshotState: 'running' | 'done' | 'missing' = 'done';
  /** What opening the repository found and fixed (leftovers of stopped processes), for the user to be told. */
  readonly startupEvents: GitEvent[] = [];

  private constructor(
    readonly repo: GitRepository,
    private readonly writeSet: WriteSet,
    readonly repository: RepositoryState,
    options: GitServiceOptions,
  ) {
    this.status = new WorktreeStatus(repo);
    this.author = safeIdentity(options.author ?? DEFAULT_AUTHOR);
    this.userIdentity = safeIdentity(options.userIdentity ?? DEFAULT_USER_IDENTITY);
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
    const events: GitEvent[] = [];
    let service: GitService | null = null;
    const tell = (event: GitEvent): void => {
      if (service === null) events.push(event);
      else service.emit(event);
    };
    const repo = new GitRepository(vault, {
      lockWait: options.lockWait,
      onStep: options.onStep,
      deflate: options.deflate,
      onStaleLock: (lock, ageMs) => tell({ type: 'stale-lock-removed', lock, ageMs }),
    });
    const head = await repo.head().catch(() => null);
    const locks = [`${repo.gitdir}/index.lock`, `${repo.gitdir}/HEAD.lock`, ...(head === null ? [] : [`${head.refFile}.lock`])];
    for (const detail of await recoverAbandonedUpdates(vault, repo.gitdir, repo.lockOwner, options.lockWait, locks)) tell({ type: 'recovered', detail });
    service = new GitService(repo, writeSet, state, options);
    service.startupEvents.push(...events);
    writeSet.keepOriginals(service);
    if (state.created && options.snapshot !== false) service.startSnapshot(options.sliceMs);
    else if (state.created) service.snapshotState = 'missing';
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
    this.repo.index.close();
  }


  /**
   * `OriginalStore`: before the agent first changes `paths`, keeps their content — and commits the
   * user's uncommitted edits to any of them first, under the user's name, so the agent's commit
   * holds only the agent's change and reverting it gives the user's version back.
   */
  async saveOriginals(paths: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const staged = await stageFiles(this.repo, paths);
    const originals = new Map<string, string>();
    for (const file of staged) if (file.oid !== null) originals.set(file.path, file.oid);
    // While the first snapshot runs, it commits these files as they were before the agent touched
    // them (their originals): the user's edits are in it, and the agent need not wait for it.
    if (staged.length > 0 && this.snapshotState === 'done') await this.serial(() => this.commitUserEdits(staged));
    return originals;
  }

  /** `OriginalStore`: keeps what the agent left at `paths`, which is what its commit records. */
  saveWritten(paths: readonly string[]): Promise<ReadonlyMap<string, string | null>> {
    return this.blobsOf(paths);
  }

  /** Commits exactly the agent's write-set — what the agent wrote, even if the user edited since; the user's other changes stay out. */
  commitAgentChanges(message: string, run: string, client: string | null = null): Promise<string> {
    return this.serial(async () => {
      const paths = this.writeSet.paths();
      if (paths.length === 0) throw new NothingToCommitError();
      const { files, ignored } = await this.agentFiles(paths);
      const result = files.length === 0 ? null : await this.commit(files, agentCommitMessage(message, run, client), this.author, ignored);
      // Nothing differed from HEAD: the write-set stays, so a discard can still put back what the
      // agent overwrote (a user's uncommitted edit it returned to the committed text, or an
      // ignored file it deleted, say).
      if (result === null) throw new NothingToCommitError(ignored);
      for (const file of files) this.writeSet.delete(file.path);
      for (const path of ignored) this.writeSet.delete(path);
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
      this.checkpoint = await this.blobsOf(this.writeSet.paths());
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

  /**
   * A new commit that undoes an agent commit, merged (3-way) into the files as they are now: the
   * user's uncommitted edits to those files are committed first as the user's, later changes that
   * do not overlap are kept, and overlapping ones refuse the revert with nothing written.
   */
  revertCommit(revision: string, run: string, client: string | null = null): Promise<string> {
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
      const pending = paths.filter((path) => this.writeSet.has(path));
      if (pending.length > 0) throw new RevertConflictError(hash, pending, 'have uncommitted changes by the agent (commit or discard them first)');
      const current = await stageFiles(this.repo, paths);
      const now = new Map(current.map((file) => [file.path, file.oid]));
      const plan = await planRestore(this.repo, paths, async (path) => ({
        base: (await this.repo.trees.lookup(commit.tree, path))?.oid ?? null,
        target: (await this.repo.trees.lookup(parentTree, path))?.oid ?? null,
        current: now.get(path) ?? null,
      }));
      if (plan.conflicts.length > 0) throw new RevertConflictError(hash, plan.conflicts, 'were changed since, in the same places');
      // The revert commit must hold only the revert: the user's edits to these files go first, as theirs.
      await this.commitUserEdits(current);
      await applyRestore(this.repo, plan.writes);
      const subject = message.split('\n', 1)[0] ?? '';
      const files = await stageFiles(this.repo, plan.writes.map((write) => write.path));
      const result = await this.commit(files, agentCommitMessage(`Revert "${subject}"\n\nThis reverts commit ${hash}.`, run, client), this.author);
      if (result === null) throw new NothingToCommitError();
      return result.hash;
    });
  }

  /** The files of the agent's write-set as its commit records them, and those ignore rules keep out. */
  private async agentFiles(paths: readonly string[]): Promise<{ files: StagedFile[]; ignored: string[] }> {
    const headTree = await this.repo.treeOf((await this.repo.head()).oid);
    const rules = await IgnoreRules.forPaths(this.repo.vault, paths, this.repo.gitdir);
    const files: StagedFile[] = [];
    const ignored: string[] = [];
    for (const path of paths) {
      if (rules.isIgnored(path) && (await this.repo.trees.lookup(headTree, path)) === null) {
        ignored.push(path);
        continue;
      }
      const entry = this.writeSet.get(path);
      if (entry?.written === undefined) {
        files.push(await stageFile(this.repo, path));
        continue;
      }
      // What the agent wrote; the index may describe the file on disk only if it holds exactly that
      // (a restore that kept a user's edit leaves other bytes with the agent's fingerprint).
      const stat = entry.written === null ? null : await this.repo.vault.stat(path);
      const same = stat?.kind === 'file' && (await hashBlob(await this.repo.vault.readBinary(path))) === entry.written;
      files.push({ path, oid: entry.written, stat: same ? stat : null });
    }
    return { files, ignored };
  }

  /** Commits, under the user's identity, those of `files` (the vault's current content) that differ from HEAD and are not ignored. */
  private async commitUserEdits(files: readonly StagedFile[]): Promise<void> {
    const headTree = await this.repo.treeOf((await this.repo.head()).oid);
    const candidates = files.filter((file) => file.oid !== null);
    if (candidates.length === 0) return;
    const rules = await IgnoreRules.forPaths(this.repo.vault, candidates.map((file) => file.path), this.repo.gitdir);
    const edited: StagedFile[] = [];
    for (const file of candidates) {
      const committed = await this.repo.trees.lookup(headTree, file.path);
      if (committed === null ? !rules.isIgnored(file.path) : committed.oid !== file.oid) edited.push(file);
    }
    if (edited.length === 0) return;
    const names = edited.map((file) => file.path);
    const subject = names.length === 1 ? `Your edits to "${names[0]}", saved before the agent changed it` : `Your edits to ${names.length} notes, saved before the agent changed them`;
    const body = names.length === 1 ? '' : `\n\n${names.map((name) => `- ${name}`).join('\n')}`;
    await this.commit(edited, `${subject}${body}\n`, await this.userSignatureIdentity());
  }

  /** The repository's own `user.name`/`user.email` when set, else the configured stand-in. */
  private async userSignatureIdentity(): Promise<GitIdentity> {
    const read = (path: string) =>
      git.getConfig({ fs: this.repo.store.fs, dir: GIT_ROOT, gitdir: `/${this.repo.gitdir}`, path }).catch(() => undefined) as Promise<unknown>;
    const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
    if (typeof name !== 'string' || name.trim() === '') return this.userIdentity;
    return safeIdentity({ name, email: typeof email === 'string' ? email : this.userIdentity.email });
  }

  private async commit(files: readonly StagedFile[], message: string, identity: GitIdentity, ignored: string[] = []): Promise<CommitResult | null> {
    const result = await commitStaged(this.repo, files, message, signatureNow(identity, this.now()));
    if (result !== null) {
      const { message: text, run } = readAgentTrailer(message);
      this.emit({ type: 'commit', hash: result.hash, message: text, run, paths: result.changed, ...(ignored.length > 0 ? { ignored } : {}) });
    }
    return result;
  }

  private startSnapshot(sliceMs: number | undefined): void {
    this.snapshotState = 'running';
    this.snapshot = this.serial(async () => {
      try {
        await this.repo.reached('snapshot-started');
        // A snapshot committed by a process that stopped before it could say so.
        const head = (await this.repo.head()).oid;
        if (head !== null) {
          await markSnapshotDone(this.repo.vault);
          this.snapshotState = 'done';
          this.emit({ type: 'snapshot-done', hash: head });
          return head;
        }
        const result = await commitInitialSnapshot(this.repo, {
          message: `${SNAPSHOT_MESSAGE}\n`,
          signature: signatureNow(this.author, this.now()),
          writeSet: this.writeSet,
          sliceMs,
          onProgress: (progress) => this.emit({ type: 'snapshot-progress', progress }),
        });
        await markSnapshotDone(this.repo.vault);
        this.snapshotState = 'done';
        this.emit({ type: 'snapshot-done', hash: result?.hash ?? null });
        return result?.hash ?? null;
      } catch (error) {
        this.snapshotState = 'missing';
        this.emit({ type: 'snapshot-failed', error: error instanceof Error ? error : new Error(String(error)) });
        throw error;
      }
    });
  }

  private originalOf(path: string): string | null {
    const entry = this.writeSet.get(path);
    return entry?.existedBefore === true ? entry.original : null;
  }

  /**
   * Writes each write-set path back to `target(path)`, merged (3-way) with any edit the user made
   * after the agent wrote it; refuses with nothing written when an edit overlaps what is undone.
   */
  private async restore(operation: string, target: (path: string) => string | null): Promise<void> {
    const paths = this.writeSet.paths();
    const unknown = paths.filter((path) => this.writeSet.get(path)?.existedBefore === true && this.writeSet.get(path)?.original === null);
    if (unknown.length > 0) {
      throw new GitUnavailableError(`${operation} cannot restore ${unknown.map((path) => `"${path}"`).join(', ')}: their content from before the agent changed them was not kept (they were changed before history was opened). Nothing was restored.`);
    }
    const current = await this.blobsOf(paths);
    const edited = new Set(await this.writeSet.changedByOthers(paths));
    const plan = await planRestore(this.repo, paths, async (path) => {
      const written = this.writeSet.get(path)?.written;
      const now = current.get(path) ?? null;
      // Without the agent's blob, only a file nobody touched since can be put back.
      const base = written !== undefined ? written : edited.has(path) ? UNKNOWN_BASE : now;
      return { base, target: target(path), current: now };
    });
    if (plan.conflicts.length > 0) throw new RevertConflictError(operation, plan.conflicts, 'were changed since the agent wrote them, in the same places');
    await applyRestore(this.repo, plan.writes);
    await this.writeSet.refresh(paths);
    for (const path of paths) this.writeSet.setWritten(path, target(path));
  }

  /** Each path's content now, stored as a blob: its id, or null for no file. */
  private async blobsOf(paths: readonly string[]): Promise<Map<string, string | null>> {
    return new Map((await stageFiles(this.repo, paths)).map((file) => [file.path, file.oid]));
  }

  /**
   * Runs `task` on the repository in the git queue: after every operation queued before it, and
   * before any queued after (sync uses it, so it never interleaves with the agent's commits).
   */
  runExclusive<T>(task: (repo: GitRepository) => Promise<T>): Promise<T> {
    return this.serial(() => task(this.repo));
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    this.started++;
    const result = this.queue.run('git', task);
    const settle = (): void => {
      if (--this.pending > 0) return;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    };
    result.then(settle, settle);
    return result;
  }

  /** How many git operations have been asked for so far: a change in it says git was used meanwhile. */
  get operationsStarted(): number {
    return this.started;
  }

  /** Resolves once no git operation runs or waits (background work gives way to commits with it). */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
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
