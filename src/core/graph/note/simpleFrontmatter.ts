import type { ParsedNote } from './noteTypes';
import { splitTags } from './tags';
import { coreScalar, NULL_VALUE, UNSURE } from './yamlScalar';

/** A key the YAML parser reads as the same plain string, never as a number, boolean or null. */
const SIMPLE_KEY = /^[\p{L}_](?:[\p{L}\p{N}_ .\-/()]*[\p{L}\p{N}_.\-/()])?$/u;
const NOT_A_STRING_KEY = /^(?:true|false|null|y|n|yes|no|on|off)$/i;
/** A plain scalar the YAML parser keeps as written: no indicator first, no comment, no nested key, no link. */
const SIMPLE_VALUE = /^(?:[\p{L}\p{N}_(.+~/]|-\p{N})(?:(?!: |:$| #|\[\[)[^\t])*$/u;
/** A quoted scalar with no escapes (and so exactly its text between the quotes) and no link. */
const QUOTED_VALUE = /^(?:"((?:(?!\[\[)[^"\\])*)"|'((?:(?!\[\[)[^'])*)')$/;
/** An empty flow list, `[]`: the parser's value for it is an empty list. */
const EMPTY_LIST = /^\[ *\]$/;
const LIST_ITEM = /^( *)- +(.*)$/;
const NESTED_FIELD = /^( +)([^\s:#][^:]*):(?:( .*))?$/;
const LEADING_SPACES = /^ +/;
const TRAILING_SPACES = / +$/;

/** A top-level key: its value, its list items, or its one level of nested fields. */
interface SimpleEntry {
  key: string;
  line: number;
  values: { text: string; line: number }[];
  list: boolean;
  /** The key's own line gave its value: no list item or nested field may follow. */
  complete: boolean;
  map?: { indent: number; fields: Map<string, unknown> };
}

interface SimpleReader {
  entries: SimpleEntry[];
  keys: Set<string>;
  /** The indentation of the current list's items; -1 until its first item. */
  listIndent: number;
}

/**
 * Frontmatter that is only `key: value` lines, simple lists, quoted strings without escapes and
 * empty `[]` lists (most of it, in real vaults) is read directly, the way the YAML parser would
 * read it: the parser costs as much as the rest of indexing a note. Returns false, having read
 * nothing, for anything else.
 */
export function readSimpleFrontmatter(yaml: string, note: ParsedNote): boolean {
  if (hasSubtleCharacters(yaml)) return false;
  const entries = readEntries(yaml);
  if (entries === null) return false;
  for (const entry of entries) addEntry(entry, note);
  return true;
}

/** Tabs, carriage returns, control characters and surrogates: the parser's rules there are subtle. */
function hasSubtleCharacters(yaml: string): boolean {
  for (let at = 0; at < yaml.length; at += 1) {
    const c = yaml.charCodeAt(at);
    if ((c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff) || c >= 0xfeff) return true;
  }
  return false;
}

/** The entries of simple frontmatter, or null at the first line that is not simple. */
function readEntries(yaml: string): SimpleEntry[] | null {
  const reader: SimpleReader = { entries: [], keys: new Set(), listIndent: -1 };
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] as string).replace(TRAILING_SPACES, '');
    if (line === '') continue;
    if (!readLine(reader, line, 1 + i)) return null;
  }
  return reader.entries;
}

/** Reads one non-blank line into `reader`; false if it is not simple. */
function readLine(reader: SimpleReader, line: string, lineNo: number): boolean {
  const item = LIST_ITEM.exec(line);
  if (item !== null) return readListItem(reader, item, lineNo);
  const field = NESTED_FIELD.exec(line);
  if (field !== null) return readNestedField(reader, field);
  return readKey(reader, line, lineNo);
}

function readListItem(reader: SimpleReader, item: RegExpExecArray, line: number): boolean {
  const current = reader.entries[reader.entries.length - 1];
  const indent = (item[1] as string).length;
  const value = scalarText((item[2] as string).replace(TRAILING_SPACES, ''));
  if (current === undefined || current.map !== undefined || current.complete || (reader.listIndent >= 0 && indent !== reader.listIndent) || value === null) return false;
  reader.listIndent = indent;
  current.list = true;
  current.values.push({ text: value, line });
  return true;
}

/** One level of `key: value` under a key with no value of its own (`source:` then `  run: x`). */
function readNestedField(reader: SimpleReader, field: RegExpExecArray): boolean {
  const current = reader.entries[reader.entries.length - 1];
  const indent = (field[1] as string).length;
  const name = field[2] as string;
  const text = (field[3] ?? '').replace(LEADING_SPACES, '');
  if (current === undefined || current.list || current.complete || (current.map !== undefined && current.map.indent !== indent)) return false;
  if (!SIMPLE_KEY.test(name) || NOT_A_STRING_KEY.test(name) || (text !== '' && !SIMPLE_VALUE.test(text))) return false;
  current.map ??= { indent, fields: new Map() };
  const typed = coreScalar(text);
  if (current.map.fields.has(name) || typed === UNSURE) return false;
  current.map.fields.set(name, typed);
  return true;
}

/** A top-level `key: value` or `key:`. */
function readKey(reader: SimpleReader, line: string, lineNo: number): boolean {
  const colon = line.indexOf(':');
  if (colon <= 0) return false;
  const key = line.slice(0, colon);
  const value = line.slice(colon + 1);
  if (!SIMPLE_KEY.test(key) || NOT_A_STRING_KEY.test(key) || reader.keys.has(key)) return false;
  const text = value.replace(LEADING_SPACES, '');
  if (value !== '' && value.charAt(0) !== ' ') return false;
  const entry: SimpleEntry = { key, line: lineNo, values: [], list: false, complete: text !== '' };
  if (EMPTY_LIST.test(text)) entry.list = true;
  else if (text !== '') {
    const scalar = scalarText(text);
    if (scalar === null) return false;
    entry.values.push({ text: scalar, line: lineNo });
  }
  reader.keys.add(key);
  reader.listIndent = -1;
  reader.entries.push(entry);
  return true;
}

/** What the parser makes of a simple scalar (a null as ''), or null if it is not simple. */
function scalarText(text: string): string | null {
  if (SIMPLE_VALUE.test(text)) return NULL_VALUE.test(text) ? '' : text;
  const quoted = QUOTED_VALUE.exec(text);
  return quoted === null ? null : (quoted[1] ?? quoted[2] ?? '');
}

/** An entry as a property, and as tags or aliases for the keys that hold them. */
function addEntry(entry: SimpleEntry, note: ParsedNote): void {
  const value = entry.map === undefined ? entry.values.map((part) => part.text).join(', ') : JSON.stringify(Object.fromEntries(entry.map.fields));
  note.properties.push({ key: entry.key, value, line: entry.line, source: 'frontmatter' });
  const name = entry.key.toLowerCase();
  if (name === 'tags' || name === 'tag') {
    for (const part of entry.values) note.tags.push(...splitTags(part.text, part.line));
  }
  if (name === 'aliases' || name === 'alias') {
    const parts = entry.list ? entry.values.map((part) => part.text) : entry.values.flatMap((part) => part.text.split(','));
    note.aliases.push(...parts.map((part) => part.trim()).filter((part) => part !== ''));
  }
}
