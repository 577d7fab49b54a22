import { InvalidArgumentError } from '../errors';
import { readHead } from '../git/refs';
import { folderPath, memoryNotePath, newMemoryId } from '../memory/memoryLayout';
import { renderMemoryNote, type MemorySource } from '../memory/memoryNote';
import { normalizeTags } from '../memory/normalizeTags';
import { describeValue, requirePath, requireString } from '../validate';
import { checkContent, verifyWritten } from './fileAccess';
import type { MemContext } from './MemContext';
import { resolvePath } from './resolvePath';

const MAX_CONTENT_CHARS = 20_000;
const MAX_TAGS = 20;

/**
 * Saves a memory that lasts beyond this conversation: a dated note in the memory folder
 * (`Memories/YYYY-MM-DD/HHMMSS_xxxx.md`) with an id, the time, normalized tags and where it came
 * from (conversation, run, the open note, the vault's HEAD commit). It is committed like any
 * other change. Use it proactively — when you finish a task, make a decision, learn a fact about
 * the user or the vault, or solve a tricky problem — without being asked. Write Markdown that
 * stands on its own: what, why, which notes, what to watch out for.
 *
 * @param content The memory, in Markdown (at most 20,000 characters).
 * @param tags Optional tags for filtering later; lower-cased, spaces and `_` become `-`, other
 *   symbols are dropped.
 * @returns `{id, path}`: the memory's id (`mem_` and 16 hex characters) and its note.
 * @throws InvalidArgument for empty or overlong content or bad tags; InvalidContent if the note
 *   breaks a format rule (Logseq mode); PathRefused if the memory folder setting is refused.
 * @example
 * await mem.remember('The user prefers weekly reviews on Friday; see [[Weekly review]].', ['preferences', 'reviews']);
 */
export async function remember(ctx: MemContext, content: string, tags?: string[]): Promise<{ id: string; path: string }> {
  const text = requireString(content, 'content', { maxLength: MAX_CONTENT_CHARS }).trim();
  if (text === '') throw new InvalidArgumentError('content', 'the memory, in words', 'an empty string');
  if (tags !== undefined && (!Array.isArray(tags) || tags.length > MAX_TAGS || !tags.every((tag) => typeof tag === 'string' && tag.length <= 100))) {
    throw new InvalidArgumentError('tags', `an array of at most ${MAX_TAGS} tag strings (100 characters each)`, describeValue(tags));
  }
  // Resolved first (the folder may be reached through a link): the names drawn below are new ones in it.
  const folder = await resolvePath(ctx, folderPath(ctx.options.memoryFolder), 'write', { allowRoot: true });
  const now = new Date();
  // Memories of the same second differ by a random suffix; one taken by a call still writing
  // (its note not on disk yet) counts as taken, or two calls could draw it and one note be lost.
  const pending = pendingPaths(ctx.vault);
  let path = memoryNotePath(folder, now);
  // Pending is checked after the stat: another call may have taken the name while it ran.
  for (let attempt = 0; (await ctx.vault.stat(path)) !== null || pending.has(path); attempt++) {
    if (attempt >= 8) throw new InvalidArgumentError('content', 'a memory the vault has room for', `${path} and every other name tried already exist`);
    path = memoryNotePath(folder, now);
  }
  path = requirePath(path, ctx.policy);
  pending.add(path);
  try {
    return await writeMemory(ctx, path, now, text, tags);
  } finally {
    pending.delete(path);
  }
}

const pendingByVault = new WeakMap<object, Set<string>>();

function pendingPaths(vault: object): Set<string> {
  let pending = pendingByVault.get(vault);
  if (pending === undefined) pendingByVault.set(vault, (pending = new Set()));
  return pending;
}

async function writeMemory(ctx: MemContext, path: string, now: Date, text: string, tags: string[] | undefined): Promise<{ id: string; path: string }> {
  const id = newMemoryId();
  const body = ctx.options.logseq ? asLogseqBlock(text) : text;
  const note = renderMemoryNote({ id, timestamp: now.toISOString(), tags: normalizeTags(tags ?? []), source: await sourceOf(ctx), content: body });
  checkContent(ctx, path, note);
  await ctx.writeSet.track([path], () => ctx.vault.write(path, note));
  await verifyWritten(ctx, path, note);
  return { id, path };
}

/** In a Logseq graph every line belongs to a block: the memory becomes one, unless it is an outline already. */
function asLogseqBlock(text: string): string {
  if (text.startsWith('- ')) return text;
  return text
    .split('\n')
    .map((line, at) => (at === 0 ? `- ${line}` : line.trim() === '' ? '' : `  ${line}`))
    .join('\n');
}

async function sourceOf(ctx: MemContext): Promise<MemorySource> {
  let note: string | null = null;
  try {
    note = ctx.session.activeNote?.() ?? null;
  } catch {
    note = null;
  }
  let commit: string | null = null;
  if (ctx.git !== null) commit = await readHead(ctx.vault).then((head) => head.oid, () => null);
  return { conversation: ctx.session.conversationId ?? null, run: ctx.session.runId, note, commit };
}
