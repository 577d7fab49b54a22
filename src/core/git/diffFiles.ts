import { sortByCodePoints } from '../util/compareCodePoints';
import { hashBlob } from './objectHash';
import { modeString } from './treeObjects';
import type { GitRepository } from './repository';
import { diffTrees } from './worktreeStatus';
import { formatGitDiff, type DiffSide } from './unifiedDiff';

/**
 * `git diff <from> [<to>] -- <path>` as text: `from` defaults to HEAD and `to` to the working
 * tree. `path` may be a file, a folder (every file under it) or `''` (everything). Like git, a
 * comparison with the working tree covers files HEAD or the index knows, not untracked ones.
 */
export async function diffFiles(repo: GitRepository, path: string, from: string | null, to: string | null): Promise<string> {
  const oldTree = await repo.treeOf(from);
  const newTree = to === null ? null : await repo.treeOf(to);
  const inScope = (candidate: string): boolean => path === '' || candidate === path || candidate.startsWith(`${path}/`);
  const paths = new Set<string>();
  if (to === null) {
    for (const file of (await repo.trees.flatten(oldTree)).keys()) if (inScope(file)) paths.add(file);
    for (const file of (await repo.index.read()).byPath.keys()) if (inScope(file)) paths.add(file);
  } else {
    for (const file of await diffTrees(repo, oldTree, newTree)) if (inScope(file)) paths.add(file);
  }
  const parts: string[] = [];
  for (const file of sortByCodePoints([...paths])) {
    const before = await treeSide(repo, oldTree, file);
    const after = to === null ? await worktreeSide(repo, file, before.mode) : await treeSide(repo, newTree, file);
    if (before.oid === after.oid && (before.oid === null || before.mode === after.mode)) continue;
    parts.push(formatGitDiff(before, after));
  }
  return parts.join('');
}

async function treeSide(repo: GitRepository, tree: string | null, path: string): Promise<DiffSide> {
  const blob = await repo.trees.lookup(tree, path);
  if (blob === null) return { path, oid: null, mode: '100644', content: null };
  return { path, oid: blob.oid, mode: blob.mode, content: await repo.store.readBlob(blob.oid) };
}

async function worktreeSide(repo: GitRepository, path: string, fallbackMode: string): Promise<DiffSide> {
  const stat = await repo.vault.stat(path);
  if (stat?.kind !== 'file') return { path, oid: null, mode: fallbackMode, content: null };
  const content = await repo.vault.readBinary(path);
  const entry = (await repo.index.read()).byPath.get(path);
  return { path, oid: await hashBlob(content), mode: entry === undefined ? fallbackMode : modeString(entry.mode), content };
}
