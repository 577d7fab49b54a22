import { InvalidArgumentError } from '../errors';
import type { SearchHit } from '../graph/GraphIndex';
import { describeValue, requirePath, requireString } from '../validate';
import type { MemContext } from './MemContext';
import { requireGraph } from './requireGraph';

export interface SearchRequestOptions {
  limit?: number;
  folder?: string;
  tags?: string[];
  fuzzy?: number;
}

/**
 * Full-text search with options, for finding the right notes before reading them: each hit has
 * its path, a relevance score, and a short snippet around the best match.
 *
 * @param query Words to look for.
 * @param options `limit` (1–100, default 10), `folder` (only notes under it), `tags` (notes with
 *   any of them), `fuzzy` (typo tolerance 0–0.5, default 0.2).
 * @returns `{path, score, snippet}` per hit, best first.
 * @throws InvalidArgument for a bad query or option; PathRefused for a refused folder.
 * @example
 * const hits = await mem.search('quarterly plan', { folder: 'Projects', limit: 5 });
 */
export async function search(ctx: MemContext, query: string, options?: SearchRequestOptions): Promise<SearchHit[]> {
  const text = requireString(query, 'query', { nonEmpty: true, maxLength: 1000 });
  const raw = (options ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidArgumentError('options', 'an object', describeValue(options));
  const limit = raw.limit ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidArgumentError('options.limit', 'a whole number from 1 to 100', describeValue(limit));
  const fuzzy = raw.fuzzy ?? 0.2;
  if (typeof fuzzy !== 'number' || !(fuzzy >= 0 && fuzzy <= 0.5)) throw new InvalidArgumentError('options.fuzzy', 'a number from 0 to 0.5', describeValue(fuzzy));
  const folder = raw.folder === undefined ? undefined : requirePath(raw.folder, ctx.policy, { allowRoot: true });
  const tags = raw.tags === undefined ? undefined : raw.tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.length > 50 || !tags.every((tag) => typeof tag === 'string' && tag.length <= 200))) {
    throw new InvalidArgumentError('options.tags', 'an array of at most 50 tag strings', describeValue(tags));
  }
  return requireGraph(ctx).searchText(text, { limit, fuzzy, folder, tags: tags as string[] | undefined, signal: ctx.run?.signal });
}
