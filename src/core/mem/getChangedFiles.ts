import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * Every file that differs from the last commit: created, modified, deleted, or staged by a git
 * tool — by the agent or by the user. Answers instantly from the vault's change events.
 *
 * @returns Sorted vault-relative paths; `[]` when everything is committed.
 * @throws GitUnavailable if the vault has no history.
 * @example
 * const pending = await mem.getChangedFiles();
 * if (pending.length > 0) return `uncommitted: ${pending.join(', ')}`;
 */
export async function getChangedFiles(ctx: MemContext): Promise<string[]> {
  return requireGit(ctx).changedFiles();
}
