import type { GitService } from '../../core/git/GitService';
import { diffTrees } from '../../core/git/worktreeStatus';

/** The files a run's commits changed, sorted, each once. */
export async function filesOfCommits(git: GitService, commits: readonly string[]): Promise<string[]> {
  const files = new Set<string>();
  for (const hash of commits) {
    const commit = await git.repo.readCommit(hash);
    const parentTree = await git.repo.treeOf(commit.parents[0] ?? null);
    for (const path of await diffTrees(git.repo, parentTree, commit.tree)) files.add(path);
  }
  return [...files].sort();
}

/** The unified diff of one file over a run's commits: from before the first to after the last. */
export async function diffOfRun(git: GitService, commits: readonly string[], path: string): Promise<string> {
  const first = commits[0];
  const last = commits.at(-1);
  if (first === undefined || last === undefined) return '';
  const parent = (await git.repo.readCommit(first)).parents[0];
  if (parent === undefined) return '';
  return git.diff(path, parent, last);
}
