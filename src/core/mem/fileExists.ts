import { resolvePath } from './resolvePath';
import type { MemContext } from './MemContext';

/**
 * Tells whether a file or folder exists at the path.
 *
 * @param filePath Vault-relative path.
 * @returns `true` if a file or folder is there, else `false`.
 * @throws PathRefused for a refused path (a refused path is an error, not `false`).
 * @example
 * if (!(await mem.fileExists('Daily/2026-11-21.md'))) await mem.writeFile('Daily/2026-11-21.md', '# 2026-11-21\n');
 */
export async function fileExists(ctx: MemContext, filePath: string): Promise<boolean> {
  const path = await resolvePath(ctx, filePath, 'read');
  return ctx.vault.exists(path);
}
