import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * Abandons the agent's uncommitted work: every file it wrote, renamed or deleted since its last
 * commit goes back to how it was before (files it created are removed). Only the agent's files:
 * the user's own uncommitted edits elsewhere are kept, and an edit the user made meanwhile to one
 * of the agent's files is kept too (merged line by line); if it touches the same lines the agent
 * changed, nothing is restored and the error names the files.
 *
 * @returns `true` once restored; `false` if the agent had nothing uncommitted.
 * @throws RevertConflict if the user changed the same lines of a file the agent touched (`data.paths`);
 *   GitUnavailable if the vault has no history.
 * @example
 * if (!looksRight) await mem.discardChanges();
 */
export async function discardChanges(ctx: MemContext): Promise<boolean> {
  return requireGit(ctx).discardChanges();
}
