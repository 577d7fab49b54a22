import { NotFoundError, WrongKindError } from '../errors';
import { isProtectedPath } from '../paths/pathPolicy';
import { sortByCodePoints } from '../util/compareCodePoints';
import { resolvePath } from './resolvePath';
import type { MemContext } from './MemContext';

/**
 * Lists the files and folders directly inside a folder (not recursive). Entries are full
 * vault-relative paths, ready to pass to other `mem` methods; folders end with `/`. Folders the
 * agent may not touch (the config folder, `.git`, `.trash`) are left out.
 *
 * @param directoryPath Vault-relative folder path; omit it (or pass `""`) for the vault root.
 * @returns Sorted paths, e.g. `["Projects/", "Projects/Plan.md"]` style entries of that folder.
 * @throws NotFound if the folder does not exist; WrongKind if the path is a file; PathRefused for
 *   a refused path.
 * @example
 * const entries = await mem.listFiles('Projects');
 * const notes = entries.filter((p) => p.endsWith('.md'));
 */
export async function listFiles(ctx: MemContext, directoryPath?: string): Promise<string[]> {
  const path = await resolvePath(ctx, directoryPath ?? '', 'read', { allowRoot: true });
  const info = await ctx.vault.stat(path);
  if (info === null) throw new NotFoundError(path);
  if (info.kind === 'file') throw new WrongKindError(path, 'folder');
  const { files, folders } = await ctx.vault.list(path);
  const visible = (entry: string): boolean => !isProtectedPath(entry, ctx.policy);
  return sortByCodePoints([...folders.filter(visible).map((folder) => `${folder}/`), ...files.filter(visible)]);
}
