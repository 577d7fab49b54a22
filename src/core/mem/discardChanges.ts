import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * Abandons the agent's uncommitted work: every file it wrote, renamed or deleted since its last
 * commit goes back to how it was before (files it created are removed). Only the agent's files:
 * the user's own uncommitted edits elsewhere are kept, and if the user changed one of the agent's
 * files meanwhile, nothing is restored and the error names the files.
 *
 * @returns `true` once restored; `false` if the agent had nothing uncommitted.
 * @throws UserEdits if the user changed a file the agent touched; GitUnavailable if the vault has
 *   no history.
 * @example
 * if (!looksRight) await mem.discardChanges();
 */
export async function discardChanges(ctx: MemContext): Promise<boolean> {
  return requireGit(ctx).discardChanges();
}
