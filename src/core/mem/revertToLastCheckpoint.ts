import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * Puts the files the agent touched back as they were at the last `mem.saveCheckpoint()`: files it
 * changed since then get their checkpoint content back, files it created since then are removed.
 * Never overwrites someone else's edits: a user's edit to one of those files is kept (merged line
 * by line); if it touches the same lines the agent changed, nothing is restored and the error names
 * the files.
 *
 * @returns `true` once restored; `false` if no checkpoint was saved since the last commit.
 * @throws RevertConflict if the user changed the same lines of a file the agent touched (`data.paths`);
 *   GitUnavailable if the vault has no history.
 * @example
 * await mem.saveCheckpoint();
 * // ... risky edits ...
 * await mem.revertToLastCheckpoint();
 */
export async function revertToLastCheckpoint(ctx: MemContext): Promise<boolean> {
  return requireGit(ctx).revertToLastCheckpoint();
}
