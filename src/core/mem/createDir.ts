import { resolvePath } from './resolvePath';
import type { MemContext } from './MemContext';

/**
 * Creates a folder and any missing parents; succeeds if it already exists. (Files are written
 * with their parents created anyway, so this is rarely needed.)
 *
 * @param directoryPath Vault-relative folder path.
 * @returns `true` once the folder exists.
 * @throws WrongKind if a file is in the way; PathRefused for a refused path.
 * @example
 * await mem.createDir('Projects/2026/Q4');
 */
export async function createDir(ctx: MemContext, directoryPath: string): Promise<boolean> {
  const path = await resolvePath(ctx, directoryPath, 'write');
  await ctx.vault.mkdir(path);
  return true;
}
