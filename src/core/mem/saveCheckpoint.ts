import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * Saves the current content of every file the agent has touched since its last commit, so
 * `mem.revertToLastCheckpoint()` can return to this point. Call it before a risky change. The
 * user's files are not part of it; a commit ends the checkpoint.
 *
 * @returns `true` once saved.
 * @throws GitUnavailable if the vault has no history.
 * @example
 * await mem.saveCheckpoint();
 * await mem.writeFile('Index.md', rebuiltIndex);
 * if (!(await mem.readFile('Index.md')).includes('## People')) await mem.revertToLastCheckpoint();
 */
export async function saveCheckpoint(ctx: MemContext): Promise<boolean> {
  return requireGit(ctx).saveCheckpoint();
}
