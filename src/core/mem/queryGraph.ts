import type { QueryMatch } from '../graph/queryLanguage';
import { requireString } from '../validate';
import type { MemContext } from './MemContext';
import { requireGraph } from './requireGraph';

/**
 * Finds notes by their structure with a small query language. Terms: `(property key:: value)`,
 * `(property key)`, `(outgoing-link [[Page]])` (notes linking to Page), `(backlink [[Page]])`
 * (notes Page links to), `(tag #x)` (nested tags included), `(path "folder/")`,
 * `(content "text")`; combine with `AND`, `OR`, `NOT` and parentheses. Case-insensitive.
 *
 * @param query The query, e.g. `(property type:: person) AND (tag #project)`.
 * @returns `{filePath, matches}` per note, sorted by path; `matches` are the lines that matched.
 * @throws InvalidArgument for a malformed query (the message gives the column and what was expected).
 * @example
 * const people = await mem.queryGraph('(property affiliation:: AI Research Institute) AND (outgoing-link [[Symbolic Reasoning]])');
 */
export async function queryGraph(ctx: MemContext, query: string): Promise<QueryMatch[]> {
  return requireGraph(ctx).query(requireString(query, 'query', { nonEmpty: true, maxLength: 2000 }), { signal: ctx.run?.signal });
}
