import { readAgentTrailer } from './commitObjects';
import type { GitRepository } from './repository';
import { TREE_MODE } from './treeObjects';

export interface LogEntry {
  hash: string;
  /** The commit message, without the run trailer Recursa adds. */
  message: string;
  /** When it was authored (the date `git log` shows), ISO 8601 in UTC. */
  date: string;
  author: string;
  /** The agent run that made the commit, or null for commits that are not the agent's. */
  run: string | null;
}

/**
 * `git log -n max [-- path]`: commits newest first (by commit time, as git orders them). With a
 * path, only commits that changed it, with git's default history simplification: a merge that
 * kept one parent's version of the path is skipped and only that parent is followed.
 */
export async function gitLog(repo: GitRepository, path: string, max: number): Promise<LogEntry[]> {
  const start = (await repo.head()).oid;
  if (start === null || max <= 0) return [];
  const entries: LogEntry[] = [];
  const queued = new Set<string>([start]);
  const queue: { oid: string; time: number; order: number }[] = [];
  let order = 0;
  const push = async (oid: string): Promise<void> => {
    const commit = await repo.readCommit(oid);
    queue.push({ oid, time: commit.committer.timestamp, order: order++ });
  };
  await push(start);
  while (queue.length > 0 && entries.length < max) {
    queue.sort((a, b) => b.time - a.time || a.order - b.order);
    const { oid } = queue.shift() as { oid: string };
    const commit = await repo.readCommit(oid);
    let follow = commit.parents;
    let include = true;
    if (path !== '') {
      const mine = await entryAt(repo, commit.tree, path);
      const theirs = await Promise.all(commit.parents.map(async (parent) => entryAt(repo, (await repo.readCommit(parent)).tree, path)));
      const same = theirs.findIndex((entry) => entry === mine);
      if (same >= 0) {
        include = false;
        follow = [commit.parents[same] as string];
      } else {
        include = mine !== null || theirs.some((entry) => entry !== null);
      }
    }
    if (include) {
      const { message, run } = readAgentTrailer(commit.message);
      entries.push({ hash: oid, message, date: new Date(commit.author.timestamp * 1000).toISOString(), author: commit.author.name, run });
    }
    for (const parent of follow) {
      if (queued.has(parent)) continue;
      queued.add(parent);
      await push(parent);
    }
  }
  return entries;
}

/** `mode:oid` of the file or folder at `path` in a tree, or null; comparable with `===`. */
async function entryAt(repo: GitRepository, tree: string, path: string): Promise<string | null> {
  const segments = path.split('/');
  let current = tree;
  for (let i = 0; i < segments.length; i++) {
    const entry = (await repo.trees.read(current)).find((candidate) => candidate.name === segments[i]);
    if (entry === undefined) return null;
    if (i === segments.length - 1) return `${entry.mode}:${entry.oid}`;
    if (entry.mode !== TREE_MODE) return null;
    current = entry.oid;
  }
  return null;
}
