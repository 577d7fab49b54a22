import { InvalidArgumentError } from '../errors';
import type { LogEntry } from '../git/history';
import { describeValue, requirePath } from '../validate';
import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

const MAX_COMMITS = 200;

/**
 * The history of a file, a folder, or the whole vault: the commits that changed it, newest first.
 * Use it to learn when and why something changed. Commits the agent made carry the id of the run
 * that made them in `run`; the user's own commits have `run: null`.
 *
 * @param filePath Vault-relative path of a file or folder; `""` for the whole vault. A deleted
 *   file still has its history.
 * @param maxCommits How many commits to return at most (1–200). Default 5.
 * @returns `{hash, message, date, author, run}` per commit; `date` is ISO 8601 in UTC. An empty
 *   array when the path never appeared in a commit.
 * @throws InvalidArgument for a bad `maxCommits`; PathRefused for a refused path; GitUnavailable
 *   if the vault has no history.
 * @example
 * const [last] = await mem.gitLog('Projects/Plan.md', 1);
 * return last ? `${last.date}: ${last.message}` : 'never committed';
 */
export async function gitLog(ctx: MemContext, filePath?: string, maxCommits?: number): Promise<LogEntry[]> {
  const path = requirePath(filePath ?? '', ctx.policy, { allowRoot: true });
  const max = maxCommits ?? 5;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_COMMITS) {
    throw new InvalidArgumentError('maxCommits', `a whole number from 1 to ${MAX_COMMITS}`, typeof max === 'number' ? String(max) : describeValue(max));
  }
  return requireGit(ctx).log(path, max);
}
