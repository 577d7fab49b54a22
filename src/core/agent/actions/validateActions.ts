import { ACTION_KINDS, type Action, type ActionKind, type RawAction } from './types';

const MAX_PATH_CHARS = 600;
const MAX_CONTENT_CHARS = 100_000;
const AREAS = ['/working_memory', '/storage'];

/** An action's validation: the action, or why it cannot run. */
export type Validated = { ok: true; action: Action } | { ok: false; error: string; raw: RawAction };

/**
 * Checks one action before anything runs: a known kind, the fields that kind needs (`target_path`
 * always, `source_path` for `mv`, `content` for `set` and `search`), no unknown fields, and paths
 * under `/working_memory/` or `/storage/`. The path policy of the vault applies later, in `mem`.
 */
export function validateAction(raw: RawAction): Validated {
  const fail = (error: string): Validated => ({ ok: false, error, raw });
  const kind = (raw.kind ?? '').trim().toLowerCase();
  if (kind === '') return fail(`<kind> is missing; use one of ${ACTION_KINDS.join(', ')}.`);
  if (!ACTION_KINDS.includes(kind as ActionKind)) return fail(`unknown kind "${kind.slice(0, 40)}"; use one of ${ACTION_KINDS.join(', ')}.`);
  if (raw.unknown.length > 0) return fail(`unknown field${raw.unknown.length > 1 ? 's' : ''} <${raw.unknown.slice(0, 5).join('>, <')}>; an action has only <kind>, <target_path>, <source_path> and <content>.`);
  const target = checkPath(raw.target_path, 'target_path');
  if (typeof target !== 'string') return fail(target.error);
  const action: Action = { kind: kind as ActionKind, target_path: target };
  if (kind === 'mv') {
    const source = checkPath(raw.source_path, 'source_path');
    if (typeof source !== 'string') return fail(source.error);
    action.source_path = source;
  } else if (raw.source_path !== undefined) {
    return fail(`<source_path> belongs to mv only.`);
  }
  if (kind === 'set' || kind === 'search') {
    if (raw.content === undefined) return fail(`${kind} needs <content> (${kind === 'set' ? 'the value' : 'the words to search for'}).`);
    if (raw.content.length > MAX_CONTENT_CHARS) return fail(`<content> has ${raw.content.length} characters; the limit is ${MAX_CONTENT_CHARS}.`);
    if (kind === 'search' && raw.content.trim() === '') return fail('search needs words in <content>.');
    action.content = raw.content;
  } else if (raw.content !== undefined && raw.content.trim() !== '') {
    return fail(`<content> belongs to set and search only.`);
  }
  return { ok: true, action };
}

function checkPath(value: string | undefined, field: string): string | { error: string } {
  if (value === undefined || value.trim() === '') return { error: `<${field}> is missing.` };
  const path = value.trim().replace(/\/{2,}/g, '/');
  if (path.length > MAX_PATH_CHARS) return { error: `<${field}> is longer than ${MAX_PATH_CHARS} characters.` };
  const area = AREAS.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  if (area === undefined) return { error: `<${field}> "${path.slice(0, 80)}" must start with /working_memory/ or /storage/.` };
  return path.replace(/\/+$/, '') || area;
}
