import { requirePath } from '../validate';
import type { MemContext } from './MemContext';
import { requireGraph } from './requireGraph';

/**
 * Every note that links to a file, by any form of link: `[[Page]]`, `[[Page|alias]]`,
 * `[[Page#Heading]]`, embeds `![[Page]]`, markdown links `[text](Page.md)`, and links in
 * frontmatter — resolved the way Obsidian resolves them (by name, by path, through aliases).
 * For a note that does not exist yet, the notes whose links name it.
 *
 * @param filePath Vault-relative path of the note (or any file) being linked to.
 * @returns Sorted paths of the notes linking to it; `[]` when none do.
 * @throws PathRefused for a refused path.
 * @example
 * const linking = await mem.getBacklinks('People/Ada Lovelace.md');
 */
export async function getBacklinks(ctx: MemContext, filePath: string): Promise<string[]> {
  const path = requirePath(filePath, ctx.policy);
  return requireGraph(ctx).backlinksOf(path);
}
