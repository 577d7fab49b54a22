import { NotFoundError } from '../errors';
import { requirePath } from '../validate';
import type { MemContext } from './MemContext';
import { requireGraph } from './requireGraph';

/**
 * The unique link targets of a note: each link resolved to the file it points to, or kept as
 * written when no file matches (an unresolved link, a note that does not exist yet).
 *
 * @param filePath Vault-relative path of a note (`.md`).
 * @returns Sorted targets: vault paths for resolved links, the link text for unresolved ones.
 * @throws NotFound if no note is at the path; PathRefused for a refused path.
 * @example
 * const targets = await mem.getOutgoingLinks('Dr. Aris Thorne.md');
 * // ['AI Research Institute.md', 'Symbolic Reasoning']
 */
export async function getOutgoingLinks(ctx: MemContext, filePath: string): Promise<string[]> {
  const path = requirePath(filePath, ctx.policy);
  const targets = await requireGraph(ctx).outgoingOf(path);
  if (targets === null) throw new NotFoundError(path);
  return targets;
}
