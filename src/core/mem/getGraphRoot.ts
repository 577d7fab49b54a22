import type { MemContext } from './MemContext';

/**
 * Tells where the vault lives: its absolute folder on desktop and the command line, its name on
 * mobile. Every `mem` path is relative to this root; never pass the root itself into a path.
 *
 * @returns The vault root.
 * @example
 * const root = await mem.getGraphRoot();
 */
export async function getGraphRoot(ctx: MemContext): Promise<string> {
  return ctx.vault.root;
}
