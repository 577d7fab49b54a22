import git from 'isomorphic-git';
import { GitBusyError, GitUnavailableError, isRecursaError } from '../errors';
import type { GitService } from '../git/GitService';
import { DEFAULT_AUTHOR } from '../git/GitService';
import { safeIdentity, signatureNow, type GitIdentity, type Signature } from '../git/commitObjects';
import type { StagedFile } from '../git/commitFiles';
import { GIT_ROOT } from '../git/gitFs';
import { LockedUpdate } from '../git/lockedUpdate';
import { hashBlob } from '../git/objectHash';
import { moveBranch, updateRef, type BranchMoveStep } from '../git/moveBranch';
import { resolveRef } from '../git/refs';
import type { GitRepository } from '../git/repository';
import { applyRestore } from '../git/restorePlan';
import { updateTree, type BlobRef } from '../git/treeEdit';
import { resolveLinks } from '../paths/resolveLinks';
import { HttpTransportError } from '../ports/http';
import { decodeText } from '../text/decodeText';
import { redactSecrets } from '../text/redactSecrets';
import { sortByCodePoints } from '../util/compareCodePoints';
import { assumingRemoteHead } from './assumingRemoteHead';
import { commitsBetween, isAncestor, mergeBases } from './commitGraph';
import { conflictCopyName } from './conflictCopyName';
import type { GitHttpClient } from './gitHttpClient';
import { mergeTrees, type FileMap } from './mergeTrees';
import { NotGitServerError, RemoteHttpError, sendPack } from './sendPack';
import { stripCredentials } from './remoteConfig';
import { SyncError } from './SyncError';
import { transportFs } from './transportFs';

/** The points a sync passes, in order (for crash tests). */
export type SyncStep = 'fetched' | 'file-written' | 'merge-committed' | BranchMoveStep | 'pushed';

export interface SyncOptions {
  /** The remote's URL, without credentials. */
  url: string;
  /** The HTTP client for this platform (isomorphic-git's shape): fetch and push both go through it. */
  http: GitHttpClient;
  /** HTTP Basic: a user name and a token or password. A fetch sends them when the remote asks; a push, with each of its requests. */
  credentials?: { username: string; password: string } | null;
  /** The remote's name in `.git/config`, for the remote-tracking branch. Default `origin`. */
  remote?: string;
  /** Who signs merge commits when the repository's `user.name` is not set. Default `Recursa`. */
  identity?: GitIdentity;
  /** The clock (merge commits, conflict copies' dates). */
  now?: () => Date;
  onStep?: (step: SyncStep) => void | Promise<void>;
  /**
   * Progress of long fetches and pushes: a fetch's as isomorphic-git reports it (`Receiving
   * objects`, 120 of 800…), a push's `Counting objects`, `Compressing objects`, `Writing objects`,
   * then the remote's own phases.
   */
  onProgress?: (progress: SyncProgress) => void;
}

/** One progress report: the phase (the server's, isomorphic-git's or the push's words), and how far along it is. */
export interface SyncProgress {
  phase: string;
  loaded: number;
  /** 0 when the total is not known. */
  total: number;
}

/** What a sync did. */
export interface SyncResult {
  ok: true;
  /** Commits fetched that were new here. */
  fetched: number;
  /** Commits pushed. */
  pushed: number;
  /** Whether a merge commit joined both sides (false for a fast-forward or nothing to join). */
  merged: boolean;
  /** Notes both sides changed in the same places (or binary files): ours stays, the remote's version is beside it. */
  conflicts: string[];
  /** The conflict copies made, in the order of `conflicts` then `uncommitted`. */
  copies: string[];
  /**
   * Files the remote changed that hold edits not committed here: left as they are, with the
   * remote's version saved beside each as a conflict copy (both are in the history from then on:
   * compare them and merge by hand, as for `conflicts`).
   */
  uncommitted: string[];
}

const NO_CREDENTIALS_HINT = 'set RECURSA_GIT_USERNAME and RECURSA_GIT_TOKEN (a personal access token) and try again';

/**
 * Syncs the vault's current branch with the remote, in the git queue (never beside an agent
 * commit): fetch; integrate — fast-forward, or a merge commit with both parents, never a rebase;
 * push, never forced. Files are written before the branch moves, so a sync cut short leaves the
 * branch where it was and the next one finishes the job. See `SyncResult` for what is reported.
 *
 * @throws SyncError `AuthFailed`, `Unreachable`, `Rejected` (the remote moved while pushing:
 *   sync again), `Conflict` (a file/folder clash, an unsafe path in the remote's tree, a detached
 *   HEAD or another git operation in progress), `GitBusy` (another program holds the repository).
 */
export function syncVaultHistory(service: GitService, options: SyncOptions): Promise<SyncResult> {
  return service.runExclusive(async (repo) => {
    try {
      return await syncRepository(repo, options);
    } catch (error) {
      throw asSyncError(error, options);
    }
  });
}

async function syncRepository(repo: GitRepository, options: SyncOptions): Promise<SyncResult> {
  const remote = options.remote ?? 'origin';
  const now = options.now ?? (() => new Date());
  const step = async (name: SyncStep): Promise<void> => {
    await options.onStep?.(name);
  };
  await repo.requireNoOperationInProgress();
  const head = await repo.head();
  if (head.branch === null) throw new SyncError('Conflict', 'HEAD is detached (no branch is checked out), so there is nothing to sync. Check out a branch and try again.');
  const branch = head.branch;
  const trackingRef = `refs/remotes/${remote}/${branch}`;
  const trackedBefore = await resolveRef(repo.vault, trackingRef, repo.gitdir);
  const who = signatureNow(await identityOf(repo, options.identity), now());

  const transport = transportFs(repo.vault, repo.store.fs);
  const auth = {
    onAuth: () => (options.credentials === null || options.credentials === undefined ? undefined : { username: options.credentials.username, password: options.credentials.password }),
  };
  const onProgress = options.onProgress === undefined ? {} : { onProgress: (event: { phase: string; loaded: number; total?: number }) => options.onProgress?.({ phase: event.phase, loaded: event.loaded, total: event.total ?? 0 }) };
  const common = { fs: transport.fs, http: assumingRemoteHead(options.http, branch), cache: repo.store.cache, dir: GIT_ROOT, gitdir: `/${repo.gitdir}`, url: options.url, remote, ...auth, ...onProgress };
  let theirs: string | null;
  try {
    // `ref` is only what isomorphic-git tells the server it has (one commit, no walk back): the
    // remote-tracking branch, which the server has, rather than the branch, whose unpushed tip it
    // has not — that would make the server send the whole history again.
    const have = trackedBefore === null ? branch : trackingRef;
    theirs = (await git.fetch({ ...common, ref: have, remoteRef: branch, singleBranch: true, tags: false })).fetchHead;
  } catch (error) {
    // The remote has commits, but not on this branch: it gets the branch on push.
    if (codeOf(error) !== 'NotFoundError') throw error;
    theirs = null;
  }
  await step('fetched');
  const fetched = theirs === null ? 0 : (await commitsBetween(repo, [theirs], [head.oid, trackedBefore])).length;
  if (theirs !== null && theirs !== trackedBefore) await updateRef(repo, trackingRef, theirs, who, 'fetch: fast-forward', trackedBefore);

  let ours = head.oid;
  let merged = false;
  let conflicts: string[] = [];
  let copies: string[] = [];
  let uncommitted: string[] = [];
  if (theirs !== null && theirs !== ours && !(ours !== null && (await isAncestor(repo, theirs, ours)))) {
    const outcome = await integrate(repo, { ours, theirs, remote, branch, who, now: now(), step });
    ({ merged, conflicts, copies, uncommitted } = outcome);
    ours = outcome.head;
  }

  let pushed = 0;
  if (ours !== null && ours !== theirs) {
    const commits = await commitsBetween(repo, [ours], [theirs]);
    pushed = commits.length;
    if (pushed > 0) {
      await sendPack(repo, { url: options.url, http: options.http, credentials: options.credentials, branch, ours, theirs, commits, deflate: repo.store.deflate, onProgress: options.onProgress });
      await updateRef(repo, trackingRef, ours, who, 'update by push', theirs);
      await step('pushed');
    }
  }
  return { ok: true, fetched, pushed, merged, conflicts, copies, uncommitted };
}

interface Integration {
  ours: string | null;
  theirs: string;
  remote: string;
  branch: string;
  who: Signature;
  now: Date;
  step: (name: SyncStep) => Promise<void>;
}

/** Joins the fetched commit into the branch; resolves to the new head and what was reported. */
async function integrate(repo: GitRepository, job: Integration): Promise<{ head: string; merged: boolean; conflicts: string[]; copies: string[]; uncommitted: string[] }> {
  const { ours, theirs } = job;
  const bases = ours === null ? [] : await mergeBases(repo, ours, theirs);
  const fastForward = ours === null || bases.includes(ours);
  const oursTree = await repo.treeOf(ours);
  const oursFiles = await repo.trees.flatten(oursTree);
  const theirsFiles = await repo.trees.flatten(await repo.treeOf(theirs));
  const baseFiles: FileMap[] = fastForward ? [oursFiles] : await Promise.all(bases.map(async (base) => repo.trees.flatten(await repo.treeOf(base))));
  const plan = await mergeTrees({
    bases: baseFiles,
    ours: oursFiles,
    theirs: theirsFiles,
    readText: async (oid) => decodeText(await repo.store.readBlob(oid)),
    writeText: (text) => repo.store.writeBlob(new TextEncoder().encode(text)),
  });

  // What the work tree holds decides what may be written: never a file with uncommitted edits.
  const index = await repo.index.read();
  const writes = new Map<string, BlobRef | null>();
  const done = new Set<string>();
  const uncommitted: string[] = [];
  const pendingCopies: { path: string; blob: BlobRef }[] = [];
  for (const [path, wanted] of plan.changes) {
    requireSafePath(path);
    const state = await worktreeState(repo, path, oursFiles.get(path) ?? null, wanted, index);
    if (state === 'edited') {
      uncommitted.push(path);
      if (wanted !== null) pendingCopies.push({ path, blob: wanted });
      continue;
    }
    writes.set(path, wanted);
    if (state === 'done') done.add(path);
  }
  const conflicts = plan.conflicts.map((conflict) => conflict.path);
  const copies: string[] = [];
  const taken = new Set<string>([...oursFiles.keys(), ...theirsFiles.keys(), ...writes.keys()]);
  for (const { path, blob } of [...plan.conflicts.map((conflict) => ({ path: conflict.path, blob: conflict.theirs })), ...pendingCopies]) {
    const copy = await freeCopyName(repo, path, blob, job.now, taken);
    taken.add(copy.path);
    copies.push(copy.path);
    writes.set(copy.path, blob);
    if (copy.present) done.add(copy.path);
  }
  requireNoFileFolderClash(oursFiles, writes);

  // Another program holding the index or the branch (a commit under way): say so before any file
  // is touched, rather than after writing them.
  const probe = await LockedUpdate.acquire(repo.vault, repo.gitdir, [`${repo.gitdir}/index`, (await repo.head()).refFile], repo.lockOwner, repo.lockWait);
  await probe.release();

  // The work tree first: a sync cut short here leaves the branch where it was, and the next one
  // finds these files already as planned ('done') and finishes.
  const files: StagedFile[] = [];
  for (const path of sortByCodePoints([...writes.keys()])) {
    const entry = writes.get(path) ?? null;
    if (entry === null) {
      await applyRestore(repo, [{ path, content: null }]);
      files.push({ path, oid: null, stat: null });
    } else {
      const writable = entry.mode === '100644' || entry.mode === '100755';
      if (writable && !done.has(path)) await repo.vault.writeBinary(path, await repo.store.readBlob(entry.oid));
      const stat = writable ? await repo.vault.stat(path) : null;
      files.push({ path, oid: entry.oid, mode: entry.mode, stat: stat?.kind === 'file' ? stat : null });
    }
    await job.step('file-written');
  }

  const simple = fastForward && copies.length === 0 && uncommitted.length === 0;
  let head = theirs;
  if (!simple) {
    const tree = await updateTree(repo.trees, oursTree, writes);
    head = await repo.store.writeCommit({
      tree,
      parents: ours === null ? [theirs] : [ours, theirs],
      author: job.who,
      committer: job.who,
      message: mergeMessage(job, conflicts, uncommitted, copies),
    });
    await job.step('merge-committed');
  }
  const moved = await moveBranch(repo, {
    from: ours,
    to: head,
    files,
    who: job.who,
    message: simple ? 'pull: Fast-forward' : `pull: Merge remote-tracking branch '${job.remote}/${job.branch}'`,
    reached: job.step,
  });
  if (!moved) throw new SyncError('GitBusy', 'another program committed to the branch while it was being synced; the files were merged but not committed. Sync again.');
  return { head, merged: ours !== null && !simple, conflicts, copies, uncommitted };
}

/**
 * `clean`: the file is as the branch has it (safe to replace); `done`: it already holds what the
 * merge wants (an earlier sync was cut short); `edited`: anything else — uncommitted edits, a
 * staged change, a link on the way — so it is left alone.
 */
async function worktreeState(
  repo: GitRepository,
  path: string,
  ours: BlobRef | null,
  wanted: BlobRef | null,
  index: Awaited<ReturnType<GitRepository['index']['read']>>,
): Promise<'clean' | 'done' | 'edited'> {
  const resolution = await resolveLinks(repo.vault, path, { followLast: false });
  if (resolution.kind !== 'inside' || resolution.path !== path) return 'edited';
  if ((await repo.vault.readLink(path)) !== null) return 'edited';
  const stat = await repo.vault.stat(path);
  if (stat?.kind === 'folder') return 'edited';
  const disk = stat === null ? null : await hashBlob(await repo.vault.readBinary(path));
  if (disk === (wanted?.oid ?? null)) return 'done';
  if (index.conflicted.has(path)) return 'edited';
  const entry = index.byPath.get(path);
  const indexed = ours === null ? entry === undefined : entry?.oid === ours.oid;
  return indexed && disk === (ours?.oid ?? null) ? 'clean' : 'edited';
}

/** A free name for the conflict copy of `path`, or the one an earlier, interrupted sync already wrote. */
async function freeCopyName(repo: GitRepository, path: string, blob: BlobRef, date: Date, taken: ReadonlySet<string>): Promise<{ path: string; present: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const candidate = conflictCopyName(path, date, attempt);
    if (taken.has(candidate)) continue;
    if ((await repo.vault.readLink(candidate)) !== null) continue;
    const stat = await repo.vault.stat(candidate);
    if (stat === null) return { path: candidate, present: false };
    if (stat.kind === 'file' && (await hashBlob(await repo.vault.readBinary(candidate))) === blob.oid) return { path: candidate, present: true };
  }
}

/** Paths from the remote's tree are written into the vault: none may climb out or reach `.git`. */
function requireSafePath(path: string): void {
  const segments = path.split('/');
  const bad = segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.toLowerCase() === '.git');
  if (bad || path.includes('\\') || path.includes('\0')) {
    throw new SyncError('Conflict', `the remote's history holds a path Recursa will not write into the vault: ${JSON.stringify(path)}. Nothing was changed.`, { path });
  }
}

/** A path that would be a file on one side and a folder on the other cannot be written. */
function requireNoFileFolderClash(ours: FileMap, writes: ReadonlyMap<string, BlobRef | null>): void {
  const files = new Set(ours.keys());
  for (const [path, entry] of writes) {
    if (entry === null) files.delete(path);
    else files.add(path);
  }
  for (const path of files) {
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash);
      if (files.has(folder)) {
        throw new SyncError('Conflict', `"${folder}" is a file on one side and a folder on the other. Rename one of them, commit, and sync again. Nothing was changed.`, { path: folder });
      }
    }
  }
}

function mergeMessage(job: Integration, conflicts: readonly string[], uncommitted: readonly string[], copies: readonly string[]): string {
  const lines = [`Merge remote-tracking branch '${job.remote}/${job.branch}'`];
  const pairs = [...conflicts, ...uncommitted].map((path, i) => `- ${path} -> ${copies[i] ?? ''}`);
  if (conflicts.length > 0) lines.push('', 'Both sides changed these in the same places; the remote\'s version is kept beside each:', ...pairs.slice(0, conflicts.length));
  if (uncommitted.length > 0) lines.push('', 'These had uncommitted edits here and were left as they are; the remote\'s version is kept beside each:', ...pairs.slice(conflicts.length));
  return `${lines.join('\n')}\n`;
}

/** The repository's own `user.name`/`user.email` when set, else `fallback` (Recursa). */
async function identityOf(repo: GitRepository, fallback: GitIdentity | undefined): Promise<GitIdentity> {
  const read = (path: string) => git.getConfig({ fs: repo.store.fs, dir: GIT_ROOT, gitdir: `/${repo.gitdir}`, path }).catch(() => undefined) as Promise<unknown>;
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  const base = safeIdentity(fallback ?? DEFAULT_AUTHOR);
  if (typeof name !== 'string' || name.trim() === '') return base;
  return safeIdentity({ name, email: typeof email === 'string' ? email : base.email });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Every failure as a `SyncError` (or `GitBusy`), its message free of credentials. */
function asSyncError(error: unknown, options: SyncOptions): Error {
  // The token only: the user name is no secret (and often part of the URL a message names).
  const secrets = [options.credentials?.password];
  const clean = (text: string): string => redactSecrets(text, secrets);
  const url = stripCredentials(options.url).url;
  if (error instanceof SyncError) return new SyncError(error.code, clean(error.message), error.data);
  if (error instanceof GitBusyError) return error;
  if (error instanceof GitUnavailableError) return new SyncError('Conflict', clean(error.message));
  if (error instanceof HttpTransportError) return new SyncError('Unreachable', clean(`cannot reach the remote ${url}: ${error.message}`));
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'HttpError' || error instanceof RemoteHttpError) {
    const status = error instanceof RemoteHttpError ? error.status : (error as { data?: { statusCode?: unknown } }).data?.statusCode;
    if (status === 401 || status === 403) {
      const hint = options.credentials === null || options.credentials === undefined ? NO_CREDENTIALS_HINT : 'check the user name and token (and that the token may read and write the repository)';
      return new SyncError('AuthFailed', clean(`the remote ${url} refused access (HTTP ${String(status)}): ${hint}.`), { status });
    }
    return new SyncError('Unreachable', clean(`the remote ${url} answered HTTP ${String(status)}; check the URL.`), { status });
  }
  if (code === 'UserCanceledError') return new SyncError('AuthFailed', clean(`the remote ${url} asked for credentials: ${NO_CREDENTIALS_HINT}.`));
  if (code === 'PushRejectedError' || code === 'GitPushError') {
    return new SyncError('Rejected', clean(`the remote refused the push (${message}): it has commits this vault has not merged yet. Sync again to merge them.`));
  }
  if (code === 'SmartHttpError' || code === 'UrlParseError' || code === 'UnknownTransportError' || code === 'ParseError' || error instanceof NotGitServerError) {
    return new SyncError('Unreachable', clean(`the remote ${url} did not answer as a git server: ${message}`));
  }
  if (isRecursaError(error)) {
    error.message = clean(error.message);
    return error;
  }
  return new Error(clean(message));
}
