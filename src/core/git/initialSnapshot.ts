import type { WriteSet } from '../mem/WriteSet';
import { walkFiles } from '../ports';
import { Slicer } from '../util/Slicer';
import type { Signature } from './commitObjects';
import { commitStaged, type CommitResult, type StagedFile } from './commitFiles';
import { IgnoreRules } from './ignoreRules';
import type { GitRepository } from './repository';

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
  const all = await walkFiles(repo.vault, '', (folder) => folder !== repo.gitdir);
  const ignore = await IgnoreRules.load(repo.vault, all.filter((path) => path === '.gitignore' || path.endsWith('/.gitignore')), repo.gitdir);
  const files = all.filter((path) => !ignore.isIgnored(path));
  options.onProgress({ done: 0, total: files.length });
  const staged: StagedFile[] = [];
  for (const path of files) {
    const touched = options.writeSet.get(path);
    if (touched === undefined) {
      const stat = await repo.vault.stat(path);
      if (stat?.kind === 'file') {
        const bytes = await repo.vault.readBinary(path);
        staged.push({ path, oid: await repo.store.write('blob', bytes), stat: { ...stat, size: bytes.byteLength } });
      }
    } else if (touched.existedBefore && touched.original !== null) {
      staged.push({ path, oid: touched.original, stat: null });
    }
    if (await slicer.maybeYield()) options.onProgress({ done: staged.length, total: files.length });
  }
  options.onProgress({ done: files.length, total: files.length });
  return commitStaged(repo, staged, options.message, options.signature);
}
