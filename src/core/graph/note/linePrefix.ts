import { CHAR_CODES, isDigit, isSpaceOrTab, skipSpaces } from './characters';

const { OPEN_BRACKET, CLOSE_BRACKET, CLOSE_PAREN } = CHAR_CODES;

/** Skips indentation, blockquote markers and (when `listItem`) one list marker and task box. */
export function skipLinePrefix(line: string, listItem: boolean): number {
  let at = skipSpaces(line, 0);
  while (line.charCodeAt(at) === 0x3e /* > */) at = skipSpaces(line, at + 1);
  if (!listItem) return at;
  const afterMarker = listMarkerEnd(line, at);
  if (afterMarker === at) return at;
  at = afterMarker;
  if (line.charCodeAt(at) === OPEN_BRACKET && line.charCodeAt(at + 2) === CLOSE_BRACKET && isSpaceOrTab(line.charCodeAt(at + 3))) {
    at = skipSpaces(line, at + 3);
  }
  return at;
}

/** The position after `- `, `* `, `+ `, `1. ` or `1) ` (and its spaces) at `at`, else `at`. */
function listMarkerEnd(line: string, at: number): number {
  const c = line.charCodeAt(at);
  if ((c === 0x2d || c === 0x2a || c === 0x2b) && isSpaceOrTab(line.charCodeAt(at + 1))) return skipSpaces(line, at + 1);
  let digits = at;
  while (digits - at < 9 && isDigit(line.charCodeAt(digits))) digits += 1;
  if (digits === at) return at;
  const d = line.charCodeAt(digits);
  if ((d === 0x2e || d === CLOSE_PAREN) && isSpaceOrTab(line.charCodeAt(digits + 1))) return skipSpaces(line, digits + 1);
  return at;
}
