import { NotFoundError } from '../errors';
import { walkFiles } from '../ports';
import { requirePath } from '../validate';
import type { MemContext } from './MemContext';

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
  const path = requirePath(filePath, ctx.policy);
  const info = await ctx.vault.stat(path);
  if (info === null) throw new NotFoundError(path);
  const files = info.kind === 'file' ? [path] : await walkFiles(ctx.vault, path);
  await ctx.writeSet.track(files, () => ctx.vault.remove(path));
  return true;
}
