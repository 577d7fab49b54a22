import { InvalidArgumentError, NotFoundError } from '../errors';
import { walkFiles } from '../ports';
import { requirePath } from '../validate';
import type { MemContext } from './MemContext';

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
  const from = requirePath(oldPath, ctx.policy);
  const to = requirePath(newPath, ctx.policy);
  if (from === to) {
    if ((await ctx.vault.stat(from)) === null) throw new NotFoundError(from);
    return true;
  }
  if (to.toLowerCase().startsWith(`${from.toLowerCase()}/`)) {
    throw new InvalidArgumentError('newPath', `a path outside "${from}"`, `"${to}", inside it`);
  }
  const info = await ctx.vault.stat(from);
  if (info === null) throw new NotFoundError(from);
  const moved = info.kind === 'file' ? [from] : await walkFiles(ctx.vault, from);
  const arriving = moved.map((path) => to + path.slice(from.length));
  await ctx.writeSet.track([...moved, ...arriving], () => ctx.vault.rename(from, to));
  return true;
}
