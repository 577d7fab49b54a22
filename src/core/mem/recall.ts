import { InvalidArgumentError, throwIfCancelled } from '../errors';
import { folderPath } from '../memory/memoryLayout';
import { memoryTime, readMemoryNote, type MemoryRecord } from '../memory/memoryNote';
import { normalizeTags } from '../memory/normalizeTags';
import { parseSince } from '../memory/parseSince';
import { plainMatch } from '../memory/plainMatch';
import { readOne, scanMemories } from '../memory/scanMemories';
import { describeValue, requirePath, requireString } from '../validate';
import type { MemContext } from './MemContext';

/** One memory found by `recall`. */
export interface RecalledMemory {
  id: string;
  /** The note, relative to its vault. */
  path: string;
  /** ISO 8601. */
  timestamp: string;
  tags: string[];
  /** The memory's text (long ones are cut, ending with `…`). */
  content: string;
  /** The vault it is in: null for this vault, else the other vault's name. */
  vault: string | null;
  /** Relevance when a query was given (higher is better), else null. */
  score: number | null;
}

export interface RecallResult {
  memories: RecalledMemory[];
  /** The vaults searched: `this vault` and, with `scope: 'all'`, the others' names. */
  searched: string[];
  /** Anything the caller should know about the search, e.g. that `scope: 'all'` was not available. */
  note: string | null;
}

const MAX_CONTENT_CHARS = 4000;
/** Hits asked of the index before the `since` filter and the limit. */
const INDEX_HITS = 200;

/**
 * Searches your memories (the notes `mem.remember` wrote, and any the user put in the memory
 * folder). Use it at the start of a task: check what you, or an earlier run, already learned.
 * With a query: fuzzy full text (typos and word prefixes match), best first; without one: newest
 * first. Tags match any; `since` keeps memories from that moment on. `scope: 'all'` also searches
 * the memory of every other vault Recursa opened on this device (desktop and command line; on
 * mobile only this vault, and `note` says so).
 *
 * @param options `query` (words), `tags` (any of them), `since` (`"12h"`, `"1d"`, `"2w"`,
 *   `"today"`, `"yesterday"` or an ISO date), `limit` (1–100, default 10), `scope` (`"vault"`,
 *   the default, or `"all"`).
 * @returns `{memories, searched, note}`; each memory is `{id, path, timestamp, tags, content, vault, score}`.
 * @throws InvalidArgument for a bad option (a bad `since` lists the accepted forms).
 * @example
 * const { memories } = await mem.recall({ query: 'weekly review', since: '2w', limit: 5 });
 */
export async function recall(ctx: MemContext, options?: { query?: string; tags?: string[]; since?: string; limit?: number; scope?: 'vault' | 'all' }): Promise<RecallResult> {
  const raw = (options ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidArgumentError('options', 'an object', describeValue(options));
  const query = raw.query === undefined || raw.query === null ? '' : requireString(raw.query, 'options.query', { maxLength: 1000 }).trim();
  const rawTags = raw.tags ?? [];
  if (!Array.isArray(rawTags) || rawTags.length > 50 || !rawTags.every((tag) => typeof tag === 'string' && tag.length <= 200)) {
    throw new InvalidArgumentError('options.tags', 'an array of at most 50 tag strings', describeValue(rawTags));
  }
  const tags = normalizeTags(rawTags as string[]);
  const since = raw.since === undefined || raw.since === null ? null : parseSince(raw.since);
  const limit = raw.limit ?? 10;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) throw new InvalidArgumentError('options.limit', 'a whole number from 1 to 100', describeValue(limit));
  const scope = raw.scope ?? 'vault';
  if (scope !== 'vault' && scope !== 'all') throw new InvalidArgumentError('options.scope', '"vault" or "all"', describeValue(scope));

  const folder = requirePath(folderPath(ctx.options.memoryFolder), ctx.policy, { allowRoot: true });
  const exclude = new Set<string>();
  try {
    exclude.add(requirePath(ctx.options.workingMemoryNote, ctx.policy));
  } catch {
    // A refused working-memory setting names no note to leave out.
  }
  const keep = (record: MemoryRecord): boolean => (since === null || record.time >= since) && (tags.length === 0 || hasAnyTag(record.tags, tags));
  const found: { record: MemoryRecord; score: number | null; vault: string | null }[] = [];
  const searched = ['this vault'];
  let note: string | null = null;

  if (query !== '' && ctx.graph !== null && scope === 'vault') {
    for (const hit of await ctx.graph.searchText(query, { limit: INDEX_HITS, folder, tags: tags.length > 0 ? tags : undefined, fuzzy: 0.2, signal: ctx.run?.signal })) {
      // Hits come best first: read notes only until the limit is filled.
      if (found.length >= limit) break;
      if (exclude.has(hit.path)) continue;
      const record = await readOne(ctx.vault, hit.path);
      if (record !== null && (since === null || record.time >= since)) found.push({ record, score: hit.score, vault: null });
    }
  } else if (query === '' && ctx.graph !== null && scope === 'vault' && (await newestFromIndex(ctx, folder, exclude, since, limit, keep, found))) {
    // Read only the newest notes the index names.
  } else {
    for (const record of await scanMemories(ctx.vault, folder, exclude)) if (keep(record)) found.push({ record, score: null, vault: null });
  }

  if (scope === 'all') {
    const registry = ctx.vaultRegistry ?? null;
    if (registry === null) {
      note = 'scope "all" is not available on this device (no registry of vaults, as on mobile): only this vault was searched.';
    } else {
      for (const vault of await registry.list()) {
        if (vault.root === ctx.vault.root) continue;
        searched.push(vault.name);
        throwIfCancelled(ctx.run?.signal, 'recall');
        for (const file of await registry.readMemoryFiles(vault)) {
          if (exclude.has(file.path)) continue;
          const record = readMemoryNote(file.path, file.text, file.mtime);
          if (keep(record)) found.push({ record, score: null, vault: vault.name });
        }
      }
    }
  }

  let ranked = found;
  if (query !== '' && (ctx.graph === null || scope === 'all')) {
    ranked = found
      .map((entry) => ({ ...entry, score: plainMatch(entry.record.content, query) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || b.record.time - a.record.time);
  } else if (query === '') {
    ranked = found.sort((a, b) => b.record.time - a.record.time);
  }
  return {
    memories: ranked.slice(0, limit).map(({ record, score, vault }) => ({
      id: record.id,
      path: record.path,
      timestamp: record.timestamp,
      tags: record.tags,
      content: record.content.length > MAX_CONTENT_CHARS ? `${record.content.slice(0, MAX_CONTENT_CHARS - 1)}…` : record.content,
      vault,
      score,
    })),
    searched,
    note,
  };
}

/**
 * Newest first without reading every memory: the index gives each note's time (its `timestamp`
 * property, file name or mtime, as `readMemoryNote` reads them), and notes are read from the
 * newest until `limit` pass `keep`. False, having added nothing, when a note's time as read differs
 * from the index's (a hand-written timestamp YAML reads as a number or date): the caller scans.
 */
async function newestFromIndex(
  ctx: MemContext,
  folder: string,
  exclude: ReadonlySet<string>,
  since: number | null,
  limit: number,
  keep: (record: MemoryRecord) => boolean,
  found: { record: MemoryRecord; score: number | null; vault: string | null }[],
): Promise<boolean> {
  const graph = ctx.graph;
  if (graph === null) return false;
  const candidates = (await graph.notesIn(folder))
    .filter((note) => !exclude.has(note.path))
    .map((note) => {
      const timestamp = note.properties.find((property) => property.source === 'frontmatter' && property.key === 'timestamp')?.value;
      return { path: note.path, time: memoryTime(timestamp, note.path, note.mtime) };
    })
    .sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : 1));
  const picked: MemoryRecord[] = [];
  for (const candidate of candidates) {
    if (picked.length >= limit || (since !== null && candidate.time < since)) break;
    const record = await readOne(ctx.vault, candidate.path);
    if (record === null) continue;
    if (record.time !== candidate.time) return false;
    if (keep(record)) picked.push(record);
  }
  for (const record of picked) found.push({ record, score: null, vault: null });
  return true;
}

function hasAnyTag(noteTags: readonly string[], wanted: readonly string[]): boolean {
  return wanted.some((tag) => noteTags.some((noteTag) => noteTag === tag || noteTag.startsWith(`${tag}/`)));
}
