import { isRecursaError } from '../../errors';
import type { Mem } from '../../mem/createMem';
import type { ActionJournal } from './ActionJournal';
import { MAX_ACTIONS } from './parseActions';
import type { Action, ActionResult, RawAction } from './types';
import { validateAction, type Validated } from './validateActions';

export interface ActionRunnerOptions {
  /** Characters of fetched data shown per action; longer text is cut with a note. Default 2000. */
  resultChars?: number;
}

/** Runs a model's actions and numbers their results. */
export interface ActionRunner {
  run(actions: readonly RawAction[], runId: string): Promise<ActionResult[]>;
}

const WM = '/working_memory';
const STORAGE = '/storage';

/**
 * The executor of the action protocol: validates every action first (one invalid action and none
 * run), then runs them in order through `mem` — `/working_memory/…` through
 * `mem.workingMemory`, `/storage/…` through the file and search methods, so the path policy,
 * the write-set and the limits apply as they do to code. A failed action does not stop the
 * next; every result, error or not, gets the next cumulative number and goes to the log.
 */
export function createActionRunner(mem: Mem, journal: ActionJournal, options: ActionRunnerOptions = {}): ActionRunner {
  const resultChars = options.resultChars ?? 2000;
  return {
    run: (actions, runId) =>
      journal.record(runId, async (nextIndex) => {
        const checked: Validated[] = actions.map((raw, at) => (at < MAX_ACTIONS ? validateAction(raw) : { ok: false, error: `at most ${MAX_ACTIONS} actions per answer; send the rest next turn.`, raw }));
        const allValid = checked.every((entry) => entry.ok);
        const results: ActionResult[] = [];
        const summaries: (string | undefined)[] = [];
        for (const entry of checked) {
          const base = {
            index: nextIndex(),
            timestamp: new Date().toISOString(),
            kind: entry.ok ? entry.action.kind : (entry.raw.kind ?? '').trim().slice(0, 20),
            target_path: entry.ok ? entry.action.target_path : (entry.raw.target_path ?? '').trim().slice(0, 600),
          };
          const source = entry.ok ? entry.action.source_path : entry.raw.source_path?.trim().slice(0, 600);
          const result: ActionResult = source === undefined ? { ...base, status: 'error' } : { ...base, source_path: source, status: 'error' };
          summaries.push(entry.ok ? entry.action.content : entry.raw.content);
          if (!entry.ok) result.error = `invalid action: ${entry.error} No action in this answer was run.`;
          else if (!allValid) result.error = 'not run: another action in this answer is invalid. Fix it and send the actions again.';
          else {
            try {
              const outcome = await runOne(mem, entry.action, resultChars);
              result.status = 'success';
              if (outcome.message !== undefined) result.message = outcome.message;
              if (outcome.data !== undefined) result.data = outcome.data;
            } catch (error) {
              result.error = describeError(error);
            }
          }
          results.push(result);
        }
        return { results, summaries };
      }),
  };
}

interface Outcome {
  message?: string;
  data?: unknown;
}

async function runOne(mem: Mem, action: Action, resultChars: number): Promise<Outcome> {
  const target = action.target_path;
  const inWm = (path: string): boolean => path === WM || path.startsWith(`${WM}/`);
  switch (action.kind) {
    case 'set':
      if (inWm(target)) return sized('Set', await mem.workingMemory('set', wmPath(target), valueOf(action.content ?? '')));
      return { message: `Wrote ${await writeStorage(mem, target, action.content ?? '')}.` };
    case 'get':
      if (inWm(target)) return { data: cut(await mem.workingMemory('get', wmPath(target)), resultChars) };
      return { data: cut(await readStorage(mem, target), resultChars) };
    case 'ls':
      if (inWm(target)) return { data: await mem.workingMemory('list', wmPath(target)) };
      return { data: await listStorage(mem, target) };
    case 'rm':
      if (inWm(target)) return sized('Removed', await mem.workingMemory('remove', wmPath(target)));
      return { message: `Deleted ${await removeStorage(mem, target)}.` };
    case 'search':
      if (inWm(target)) return { data: searchWorkingMemory(await mem.workingMemory('get', wmPath(target)), wmPath(target), action.content ?? '') };
      return { data: await searchStorage(mem, target, action.content ?? '') };
    case 'mv':
      return move(mem, action.source_path ?? '', target, inWm);
  }
}

async function move(mem: Mem, source: string, target: string, inWm: (path: string) => boolean): Promise<Outcome> {
  if (inWm(source) && inWm(target)) return sized('Moved', await mem.workingMemory('move', wmPath(source), wmPath(target)));
  if (!inWm(source) && !inWm(target)) {
    const from = await resolveStorage(mem, source);
    if (from === null) throw new Error(`nothing at ${source}.`);
    const to = from.kind === 'file' && !hasExtension(vaultPath(target)) ? `${vaultPath(target)}${extensionOf(from.path)}` : vaultPath(target);
    await mem.rename(from.path, to);
    return { message: `Moved ${from.path} to ${to}.` };
  }
  if (inWm(source)) {
    const value = await mem.workingMemory('get', wmPath(source));
    const file = noteFor(vaultPath(target));
    if (await mem.fileExists(file)) throw new Error(`${file} already exists in storage; choose another path or rm it first.`);
    await mem.writeFile(file, typeof value === 'string' ? ensureNewline(value) : `${JSON.stringify(value, null, 2)}\n`);
    const size = await mem.workingMemory('remove', wmPath(source));
    return sized(`Moved to storage as ${file}`, size);
  }
  const from = await resolveStorage(mem, source);
  if (from?.kind !== 'file') throw new Error(from === null ? `nothing at ${source}.` : `${source} is a folder; only a note can move into working memory.`);
  const text = await mem.readFile(from.path);
  const size = await mem.workingMemory('set', wmPath(target), valueOf(text));
  await mem.deletePath(from.path);
  return sized(`Moved ${from.path} into working memory`, size);
}

function sized(what: string, size: unknown): Outcome {
  const info = size as { size?: number; limit?: number };
  return { message: `${what} (${info.size ?? '?'} of ${info.limit ?? '?'} characters of working memory used).` };
}

function wmPath(path: string): string {
  return path.slice(WM.length) || '/';
}

function vaultPath(path: string): string {
  return path.slice(STORAGE.length).replace(/^\/+/, '');
}

function hasExtension(path: string): boolean {
  return /\.[^/.]+$/.test(path.slice(path.lastIndexOf('/') + 1));
}

function extensionOf(path: string): string {
  return /\.[^/.]+$/.exec(path)?.[0] ?? '';
}

/** A storage path names a note: `a/b` is `a/b.md` unless it has an extension of its own. */
function noteFor(path: string): string {
  return hasExtension(path) ? path : `${path}.md`;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** JSON objects and lists become structure, as in lkjagent; everything else stays text. */
function valueOf(content: string): unknown {
  const text = content.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return content;
    }
  }
  return content;
}

async function resolveStorage(mem: Mem, storagePath: string): Promise<{ kind: 'file' | 'folder'; path: string } | null> {
  const path = vaultPath(storagePath);
  if (path === '') return { kind: 'folder', path };
  try {
    await mem.listFiles(path);
    return { kind: 'folder', path };
  } catch (error) {
    if (isRecursaError(error) && error.code === 'WrongKind') return { kind: 'file', path };
    if (!(isRecursaError(error) && error.code === 'NotFound')) throw error;
  }
  if (!hasExtension(path) && (await mem.fileExists(`${path}.md`))) return { kind: 'file', path: `${path}.md` };
  return null;
}

async function writeStorage(mem: Mem, storagePath: string, content: string): Promise<string> {
  const existing = await resolveStorage(mem, storagePath);
  if (existing?.kind === 'folder') throw new Error(`${storagePath} is a folder; set a note inside it.`);
  const file = existing?.path ?? noteFor(vaultPath(storagePath));
  if (file === '') throw new Error('set needs a note path under /storage/.');
  await mem.writeFile(file, ensureNewline(content));
  return file;
}

async function readStorage(mem: Mem, storagePath: string): Promise<unknown> {
  const found = await resolveStorage(mem, storagePath);
  if (found === null) throw new Error(`nothing at ${storagePath}; ls its folder to see what is there.`);
  return found.kind === 'folder' ? listStorage(mem, storagePath) : mem.readFile(found.path);
}

async function listStorage(mem: Mem, storagePath: string): Promise<string[]> {
  const found = await resolveStorage(mem, storagePath);
  if (found === null) throw new Error(`nothing at ${storagePath}.`);
  if (found.kind === 'file') throw new Error(`${storagePath} is a note; get it instead.`);
  const prefix = found.path === '' ? '' : `${found.path}/`;
  const entries = (await mem.listFiles(found.path)).map((entry) => entry.slice(prefix.length));
  return entries.length > 200 ? [...entries.slice(0, 200), `… ${entries.length - 200} more`] : entries;
}

async function removeStorage(mem: Mem, storagePath: string): Promise<string> {
  const found = await resolveStorage(mem, storagePath);
  if (found === null || found.path === '') throw new Error(found === null ? `nothing at ${storagePath}.` : 'the whole storage cannot be removed.');
  await mem.deletePath(found.path);
  return found.path;
}

async function searchStorage(mem: Mem, storagePath: string, query: string): Promise<{ path: string; snippet: string }[]> {
  const folder = vaultPath(storagePath);
  const hits = await mem.search(query.slice(0, 1000), { limit: 10, ...(folder === '' ? {} : { folder }) });
  return hits.map((hit) => ({ path: `${STORAGE}/${hit.path}`, snippet: hit.snippet }));
}

function searchWorkingMemory(value: unknown, base: string, query: string): { path: string; value: string }[] {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word !== '');
  const found: { path: string; value: string }[] = [];
  const visit = (node: unknown, path: string): void => {
    if (found.length >= 20) return;
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
      if (words.some((word) => name.toLowerCase().includes(word))) found.push({ path: `${WM}${path}`, value: '(node)' });
      for (const [key, child] of Object.entries(node)) visit(child, `${path === '/' ? '' : path}/${key}`);
      return;
    }
    const text = typeof node === 'string' ? node : JSON.stringify(node);
    if (words.some((word) => name.toLowerCase().includes(word) || text.toLowerCase().includes(word))) found.push({ path: `${WM}${path}`, value: text.slice(0, 200) });
  };
  visit(value, base);
  return found;
}

function cut(value: unknown, chars: number): unknown {
  if (typeof value === 'string') return value.length > chars ? `${value.slice(0, chars)}… [${value.length - chars} more characters cut: get a smaller part, or search]` : value;
  const text = JSON.stringify(value);
  return text.length > chars ? `${text.slice(0, chars)}… [${text.length - chars} more characters cut]` : value;
}

function describeError(error: unknown): string {
  if (isRecursaError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
