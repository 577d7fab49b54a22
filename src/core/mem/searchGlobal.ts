import { requireString } from '../validate';
import type { MemContext } from './MemContext';
import { requireGraph } from './requireGraph';

/**
 * Full-text search over every note, ranked: prefix and typo-tolerant matching, with note titles
 * and headings weighted above the body. For scores, snippets and filters use `mem.search`.
 *
 * @param query Words to look for.
 * @returns Paths of the matching notes, best first (at most 50).
 * @throws InvalidArgument for an empty or overlong query.
 * @example
 * const [best] = await mem.searchGlobal('symbolic reasoning');
 */
export async function searchGlobal(ctx: MemContext, query: string): Promise<string[]> {
  const text = requireString(query, 'query', { nonEmpty: true, maxLength: 1000 });
  return (await requireGraph(ctx).searchText(text, { limit: 50, signal: ctx.run?.signal })).map((hit) => hit.path);
}
