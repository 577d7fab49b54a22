import { requireString } from '../validate';
import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * Undoes a commit the agent made, with a new commit that reverses it (history is never
 * rewritten). Later changes to other lines of the same files are kept (a line-wise 3-way merge);
 * the user's uncommitted edits to those files are first committed as the user's own. Refused —
 * with nothing changed — when later changes touch the same lines, when the agent has uncommitted
 * changes to those files, or when the commit is not the agent's.
 *
 * @param hash The commit to undo: a hash (7+ characters) or `HEAD`.
 * @returns The hash of the new commit.
 * @throws RevertConflict when later changes touch the same lines (`data.paths`); InvalidArgument when the commit
 *   is not an agent commit; NotFound for an unknown commit; GitUnavailable if the vault has no history.
 * @example
 * const [last] = await mem.gitLog('', 1);
 * if (last.run !== null) await mem.revertCommit(last.hash);
 */
export async function revertCommit(ctx: MemContext, hash: string): Promise<string> {
  const revision = requireString(hash, 'hash', { nonEmpty: true, maxLength: 100 });
  return requireGit(ctx).revertCommit(revision, ctx.session.runId, ctx.session.client ?? null);
}
