import { sortByCodePoints } from '../util/compareCodePoints';
import { readAgentTrailer, readClientTrailer } from './commitObjects';
import type { GitRepository } from './repository';
import { diffTrees } from './worktreeStatus';

/** One commit the agent made (its message carries the `Recursa-Run:` trailer). */
export interface AgentCommit {
  hash: string;
  /** The whole message, without the trailer. */
  message: string;
  /** Its first line. */
  subject: string;
  /** The agent run that made it. */
  run: string;
  /** The MCP client it was made for (its `Recursa-Client` trailer); absent for the plugin's own runs. */
  client?: string;
  /** Its first parent, the state it changed (null for a first commit). */
  parent: string | null;
  /** When it was authored, in milliseconds since the epoch. */
  time: number;
  author: string;
  /** The files it added, changed or deleted, sorted. */
  files: string[];
}

export interface AgentHistory {
  /** Newest first (by commit time, as `git log` orders them). */
  commits: AgentCommit[];
  /** How many agent commits were made since local midnight of `now`. */
  today: number;
  /** Whether the walk stopped at `maxScanned` commits, so older agent commits may be missing. */
  truncated: boolean;
}

export interface AgentHistoryOptions {
  /** Most commits listed. Default 50; 0 lists none and only counts today's. */
  max?: number;
  /** The clock "today" is measured by. */
  now?: Date;
  /** Most commits looked at (the user's own history may be long). Default 5000. */
  maxScanned?: number;
}

/**
 * The agent's commits, newest first, with the files each changed, and how many it made today.
 * Walks history from HEAD the way `git log` does (every parent, by commit time) and stops once it
 * has `max` commits and has passed midnight, or after `maxScanned` commits.
 */
export async function agentHistory(repo: GitRepository, options: AgentHistoryOptions = {}): Promise<AgentHistory> {
  const max = Math.max(0, options.max ?? 50);
  const maxScanned = Math.max(1, options.maxScanned ?? 5_000);
  const now = options.now ?? new Date();
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const result: AgentHistory = { commits: [], today: 0, truncated: false };
  const head = (await repo.head()).oid;
  if (head === null) return result;

  const queued = new Set<string>([head]);
  const queue: { oid: string; time: number; order: number }[] = [];
  let order = 0;
  const push = async (oid: string): Promise<void> => {
    queue.push({ oid, time: (await repo.readCommit(oid)).committer.timestamp * 1000, order: order++ });
  };
  await push(head);
  let scanned = 0;
  while (queue.length > 0) {
    queue.sort((a, b) => b.time - a.time || a.order - b.order);
    const next = queue[0] as { oid: string; time: number };
    if (result.commits.length >= max && next.time < midnight) break;
    if (scanned >= maxScanned) {
      result.truncated = true;
      break;
    }
    queue.shift();
    scanned++;
    const commit = await repo.readCommit(next.oid);
    const { message, run } = readAgentTrailer(commit.message);
    if (run !== null) {
      const time = commit.author.timestamp * 1000;
      if (time >= midnight) result.today++;
      if (result.commits.length < max) {
        const parent = commit.parents[0];
        const files = await diffTrees(repo, parent === undefined ? null : await repo.treeOf(parent), commit.tree);
        result.commits.push({
          hash: next.oid,
          message,
          subject: message.split('\n', 1)[0] ?? '',
          run,
          ...clientOf(commit.message),
          parent: parent ?? null,
          time,
          author: commit.author.name,
          files: sortByCodePoints(files),
        });
      }
    }
    for (const parent of commit.parents) {
      if (queued.has(parent)) continue;
      queued.add(parent);
      await push(parent);
    }
  }
  return result;
}

function clientOf(message: string): { client?: string } {
  const client = readClientTrailer(message);
  return client === null ? {} : { client };
}
