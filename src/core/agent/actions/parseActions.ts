import { parseResponse } from '../protocolParser';
import type { RawAction } from './types';

/** A model's answer in the action protocol. */
export interface ParsedActionsResponse {
  think: string;
  actions: RawAction[];
  reply: string | null;
  /** True when there is a think, an action or a reply. */
  usable: boolean;
}

const ACTIONS_BLOCK = /<actions\s*>([\s\S]*?)(?:<\/actions\s*>|$)/gi;
const ACTION_BLOCK = /<action\s*>([\s\S]*?)(?:<\/action\s*>|(?=<action\s*>)|$)/gi;
const FIELD = /<([a-z_]+)\s*>([\s\S]*?)<\/\1\s*>/gi;
const FIELDS = new Set(['kind', 'target_path', 'source_path', 'content']);
/** Answers with more actions than this are cut; the executor says so. */
export const MAX_ACTIONS = 20;

/**
 * Reads `<actions><action><kind>…</kind><target_path>…</target_path>…</action>…</actions>`, plus
 * `<think>` and `<reply>` around it. Simple XML only: no attributes, one level of fields; field
 * text may use `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` or a CDATA section. A block left open
 * at the end of the answer is read to the end. Never throws.
 */
export function parseActionsResponse(text: string): ParsedActionsResponse {
  const actions: RawAction[] = [];
  let rest = text;
  const blocks = [...text.matchAll(ACTIONS_BLOCK)];
  if (blocks.length > 0) {
    for (const block of blocks) actions.push(...readActions(block[1] ?? ''));
    rest = text.replace(ACTIONS_BLOCK, '\n');
  } else if (/<action\s*>/i.test(text)) {
    // Forgiving: actions without the <actions> wrapper.
    actions.push(...readActions(text));
    rest = text.replace(ACTION_BLOCK, '\n');
  }
  const parsed = parseResponse(rest);
  const think = parsed.thinks.at(-1) ?? '';
  return { think, actions, reply: parsed.reply, usable: think !== '' || actions.length > 0 || parsed.reply !== null };
}

function readActions(text: string): RawAction[] {
  const actions: RawAction[] = [];
  for (const match of text.matchAll(ACTION_BLOCK)) {
    const body = match[1] ?? '';
    if (body.trim() === '') continue;
    const action: RawAction = { unknown: [] };
    for (const field of readFields(body)) {
      if (!FIELDS.has(field.name)) action.unknown.push(field.name);
      else if (action[field.name as keyof Omit<RawAction, 'unknown'>] === undefined) action[field.name as keyof Omit<RawAction, 'unknown'>] = field.value;
    }
    actions.push(action);
  }
  return actions;
}

/** Fields in order; `<content>` runs to its own close tag, whatever tags it holds. */
function readFields(body: string): { name: string; value: string }[] {
  const fields: { name: string; value: string }[] = [];
  const contentOpen = /<content\s*>/i.exec(body);
  let scan = body;
  if (contentOpen !== null) {
    const start = contentOpen.index + contentOpen[0].length;
    const close = body.toLowerCase().lastIndexOf('</content');
    const end = close >= start ? close : body.length;
    fields.push({ name: 'content', value: unescape(body.slice(start, end), false) });
    const after = close >= start ? body.indexOf('>', close) + 1 : body.length;
    scan = body.slice(0, contentOpen.index) + body.slice(after);
  }
  for (const match of scan.matchAll(FIELD)) fields.push({ name: (match[1] ?? '').toLowerCase(), value: unescape(match[2] ?? '', true) });
  return fields;
}

function unescape(text: string, trim: boolean): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(text);
  const value = cdata !== null
    ? (cdata[1] ?? '')
    : text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '');
  return trim ? value.trim() : value.replace(/^\r?\n/, '').replace(/\r?\n[ \t]*$/, '');
}
