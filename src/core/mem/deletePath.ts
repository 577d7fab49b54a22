import { NotFoundError } from '../errors';
import { entriesAt } from './fileAccess';
import type { MemContext } from './MemContext';
import { refuseProtectedFiles, resolvePath } from './resolvePath';

/**
 * Deletes a file, or a folder with everything in it. In Obsidian the deletion follows the user's
 * "Deleted files" setting (system trash or the vault's `.trash`), and the deletion is recorded so
 * it is part of the next commit — it can be undone from history.
 *
 * @param filePath Vault-relative path of a file or folder; the vault root cannot be deleted.
 * @returns `true` once it is gone.
 * @throws NotFound if nothing is at the path; PathRefused for a refused path (including the root).
 * @example
 * await mem.deletePath('Inbox/duplicate.md');
 */
export async function deletePath(ctx: MemContext, filePath: string): Promise<boolean> {
  const path = await resolvePath(ctx, filePath, 'remove');
  const files = await entriesAt(ctx, path);
  if (files === null) throw new NotFoundError(path);
  refuseProtectedFiles(ctx, files, path);
  await ctx.writeSet.track(files, () => ctx.vault.remove(path));
  return true;
}
