import { InvalidArgumentError, NotFoundError } from '../errors';
import { entriesAt } from './fileAccess';
import type { MemContext } from './MemContext';
import { refuseProtectedFiles, resolvePath } from './resolvePath';

/**
 * Renames or moves a file or folder, creating the destination's parent folders. Never replaces
 * an existing file: delete it first if that is really intended. Links to the note in other notes
 * are not rewritten by this call.
 *
 * @param oldPath Vault-relative path of the existing file or folder.
 * @param newPath Vault-relative destination path.
 * @returns `true` once it is moved.
 * @throws NotFound if nothing is at `oldPath`; AlreadyExists if `newPath` is taken; InvalidArgument
 *   when moving a folder into itself; PathRefused for a refused path.
 * @example
 * await mem.rename('Inbox/meeting.md', 'Meetings/2026-11-21 Planning.md');
 */
export async function rename(ctx: MemContext, oldPath: string, newPath: string): Promise<boolean> {
  const from = await resolvePath(ctx, oldPath, 'remove');
  const to = await resolvePath(ctx, newPath, 'write');
  if (from === to) {
    if ((await ctx.vault.stat(from)) === null) throw new NotFoundError(from);
    return true;
  }
  if (to.toLowerCase().startsWith(`${from.toLowerCase()}/`)) {
    throw new InvalidArgumentError('newPath', `a path outside "${from}"`, `"${to}", inside it`);
  }
  const moved = await entriesAt(ctx, from);
  if (moved === null) throw new NotFoundError(from);
  const arriving = moved.map((path) => to + path.slice(from.length));
  refuseProtectedFiles(ctx, [...moved, ...arriving], from);
  await ctx.writeSet.track([...moved, ...arriving], () => ctx.vault.rename(from, to));
  return true;
}
