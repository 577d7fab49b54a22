import { isRecursaError } from '../../core/errors';
import type { GitService } from '../../core/git/GitService';
import { hashBlob } from '../../core/git/objectHash';
import { formatGitDiff } from '../../core/git/unifiedDiff';
import type { WriteSet } from '../../core/mem/WriteSet';
import type { VaultPort } from '../../core/ports';

/** One file of a review: how it was before the run, and what the user decided. */
export interface ReviewFile {
  path: string;
  existedBefore: boolean;
  /** Blob id of the content before the run (null: there was no file). */
  original: string | null;
  decision: 'pending' | 'kept' | 'undone';
}

/** A review as saved in the plugin's folder, so it survives Obsidian closing. */
export interface ReviewRecord {
  runId: string;
  request: string;
  files: ReviewFile[];
}

export interface ReviewDeps {
  git: GitService;
  writeSet: WriteSet;
  port: VaultPort;
  /** Where the open review is saved (`<plugin folder>/review.json`). */
  file: string;
}

/** How a review ended: the commit of the kept files (null when none was kept). */
export interface ReviewResult {
  commit: string | null;
  kept: string[];
  undone: string[];
}

/**
 * The changes of one run in review mode: they stay in the work tree, uncommitted, until the user
 * keeps or undoes each file. Undo puts back the exact content from before the run (or removes a
 * file the run created); once every file is decided, the kept ones are committed as the run's
 * commit. The open review is saved after every step, so a restart shows it again.
 */
export class ReviewSession {
  private constructor(
    private readonly deps: ReviewDeps,
    readonly record: ReviewRecord,
  ) {}

  /** A review of `paths`, the run's uncommitted changes, with the content each had before. */
  static async start(deps: ReviewDeps, runId: string, request: string, paths: readonly string[]): Promise<ReviewSession> {
    const files: ReviewFile[] = [];
    for (const path of paths) {
      const entry = deps.writeSet.get(path);
      const existedBefore = entry?.existedBefore ?? false;
      const original = existedBefore ? (entry?.original ?? (await headBlob(deps.git, path))) : null;
      files.push({ path, existedBefore, original, decision: 'pending' });
    }
    const session = new ReviewSession(deps, { runId, request, files });
    await session.save();
    return session;
  }

  /** The review left open when Obsidian closed, if any. */
  static async restore(deps: ReviewDeps): Promise<ReviewSession | null> {
    if (!(await deps.port.exists(deps.file))) return null;
    try {
      const record = JSON.parse(await deps.port.readText(deps.file)) as ReviewRecord;
      if (typeof record.runId !== 'string' || !Array.isArray(record.files)) return null;
      return new ReviewSession(deps, record);
    } catch {
      return null;
    }
  }

  get files(): readonly ReviewFile[] {
    return this.record.files;
  }

  get open(): boolean {
    return this.record.files.some((file) => file.decision === 'pending');
  }

  /** The file's change as a unified diff, from before the run to now. */
  async diff(path: string): Promise<string> {
    const file = this.fileOf(path);
    const before = file.original === null ? null : await this.deps.git.repo.store.readBlob(file.original);
    const after = (await this.deps.port.exists(path)) ? await this.deps.port.readBinary(path) : null;
    return formatGitDiff(
      { path, oid: file.original, mode: '100644', content: before },
      { path, oid: after === null ? null : await hashBlob(after), mode: '100644', content: after },
    );
  }

  /** Puts the file back exactly as it was before the run. */
  async undo(path: string): Promise<ReviewResult | null> {
    const file = this.fileOf(path);
    if (file.decision !== 'pending') return null;
    await this.putBack(file);
    this.deps.writeSet.delete(path);
    file.decision = 'undone';
    return this.settle();
  }

  async keep(path: string): Promise<ReviewResult | null> {
    const file = this.fileOf(path);
    if (file.decision !== 'pending') return null;
    file.decision = 'kept';
    return this.settle();
  }

  async keepAll(): Promise<ReviewResult | null> {
    for (const file of this.record.files) if (file.decision === 'pending') file.decision = 'kept';
    return this.settle();
  }

  async undoAll(): Promise<ReviewResult | null> {
    let result: ReviewResult | null = null;
    for (const file of this.record.files) if (file.decision === 'pending') result = await this.undo(file.path);
    return result;
  }

  /** Saves the review, or once every file is decided, commits the kept ones and forgets it. */
  private async settle(): Promise<ReviewResult | null> {
    if (this.open) {
      await this.save();
      return null;
    }
    const kept = this.record.files.filter((file) => file.decision === 'kept').map((file) => file.path);
    const undone = this.record.files.filter((file) => file.decision === 'undone').map((file) => file.path);
    let commit: string | null = null;
    if (kept.length > 0) {
      for (const path of kept) if (!this.deps.writeSet.has(path)) await this.recordAgain(this.fileOf(path));
      try {
        commit = await this.deps.git.commitAgentChanges(reviewMessage(this.record, kept.length), this.record.runId);
      } catch (error) {
        if (!isRecursaError(error) || error.code !== 'NothingToCommit') throw error;
      }
    }
    if (await this.deps.port.exists(this.deps.file)) await this.deps.port.remove(this.deps.file);
    return { commit, kept, undone };
  }

  private async save(): Promise<void> {
    await this.deps.port.write(this.deps.file, JSON.stringify(this.record, null, 2));
  }

  private fileOf(path: string): ReviewFile {
    const file = this.record.files.find((candidate) => candidate.path === path);
    if (file === undefined) throw new Error(`"${path}" is not part of this review.`);
    return file;
  }

  private async putBack(file: ReviewFile): Promise<void> {
    if (file.original !== null) await this.deps.port.writeBinary(file.path, await this.deps.git.repo.store.readBlob(file.original));
    else if (await this.deps.port.exists(file.path)) await this.deps.port.remove(file.path);
  }

  /**
   * After a restart the write-set no longer knows the file: it is put back as it was and the
   * agent's version written again under the write-set's record, so the commit takes it as the
   * agent's (and nothing of the user's).
   */
  private async recordAgain(file: ReviewFile): Promise<void> {
    const agentVersion = (await this.deps.port.exists(file.path)) ? await this.deps.port.readBinary(file.path) : null;
    await this.putBack(file);
    await this.deps.writeSet.track([file.path], async () => {
      if (agentVersion !== null) await this.deps.port.writeBinary(file.path, agentVersion);
      else if (await this.deps.port.exists(file.path)) await this.deps.port.remove(file.path);
    });
  }
}

async function headBlob(git: GitService, path: string): Promise<string | null> {
  const tree = await git.repo.treeOf((await git.repo.head()).oid);
  return (await git.repo.trees.lookup(tree, path))?.oid ?? null;
}

/** The kept files' commit: the request's first line, as the run's own commit would say it. */
export function reviewMessage(record: Pick<ReviewRecord, 'request' | 'files'>, kept: number): string {
  const firstLine = record.request.trim().split('\n', 1)[0] ?? '';
  const subject = firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine;
  const of = kept === record.files.length ? 'all' : `${kept} of ${record.files.length}`;
  return `Recursa: ${subject || 'agent changes'}\n\nKept after review (${of} files changed).\n\nRequest: ${record.request.trim().slice(0, 1000)}`;
}
