import { BracketTable } from './bracketTable';
import { CHAR_CODES } from './characters';
import { skipLinePrefix } from './linePrefix';
import { visibleText } from './masking';
import type { ParsedNote } from './noteTypes';

const { BACKSLASH, OPEN_BRACKET, CLOSE_BRACKET, OPEN_PAREN, CLOSE_PAREN, COLON } = CHAR_CODES;

/** A Dataview/Logseq field filling the line: `key:: value`, also as `- key:: value`. */
export function readLineProperty(line: string, masked: string, rest: string, lineNo: number, note: ParsedNote): boolean {
  const start = skipLinePrefix(rest, true);
  const separator = rest.indexOf('::', start);
  if (separator === -1) return false;
  const key = rest.slice(start, separator).trim();
  if (!isFieldKey(key)) return false;
  note.properties.push({ key, value: visibleText(line, masked, separator + 2, line.length).trim(), line: lineNo, source: 'inline' });
  return true;
}

function isFieldKey(key: string): boolean {
  if (key === '') return false;
  for (let at = 0; at < key.length; at += 1) {
    if (isNeverInKey(key.charCodeAt(at))) return false;
  }
  return true;
}

/** Brackets, parentheses and mask characters (code points 0 to 2) are never part of a key. */
function isNeverInKey(c: number): boolean {
  return c <= 0x02 || c === OPEN_BRACKET || c === CLOSE_BRACKET || c === OPEN_PAREN || c === CLOSE_PAREN;
}

/** Dataview's bracketed inline fields, anywhere in a line: `[key:: value]` and `(key:: value)`. */
export function readBracketFields(line: string, masked: string, rest: string, lineNo: number, note: ParsedNote): void {
  if (!rest.includes('::')) return;
  const square = new BracketTable(rest, OPEN_BRACKET, CLOSE_BRACKET);
  const round = new BracketTable(rest, OPEN_PAREN, CLOSE_PAREN);
  for (let at = 0; at < rest.length; at += 1) {
    const c = rest.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 1;
      continue;
    }
    if (c !== OPEN_BRACKET && c !== OPEN_PAREN) continue;
    const keyEnd = keySeparator(rest, at + 1);
    if (keyEnd === -1) continue;
    const key = rest.slice(at + 1, keyEnd).trim();
    if (key === '') continue;
    const close = (c === OPEN_BRACKET ? square : round).closer(keyEnd + 2);
    if (close === -1) continue;
    note.properties.push({ key, value: visibleText(line, masked, keyEnd + 2, close).trim(), line: lineNo, source: 'inline' });
    at = close;
  }
}

/** The `::` after a bracketed field's key starting at `from`, or -1 if a character no key holds comes first. */
function keySeparator(rest: string, from: number): number {
  for (let at = from; at < rest.length; at += 1) {
    const c = rest.charCodeAt(at);
    if (isNeverInKey(c)) return -1;
    if (c === COLON && rest.charCodeAt(at + 1) === COLON) return at;
  }
  return -1;
}
