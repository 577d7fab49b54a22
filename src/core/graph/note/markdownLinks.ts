import { BracketTable } from './bracketTable';
import { CHAR_CODES } from './characters';
import type { Located, NoteLink } from './noteTypes';
import { Scanner } from './scanner';

const { BACKSLASH, OPEN_BRACKET, CLOSE_BRACKET, OPEN_PAREN, CLOSE_PAREN } = CHAR_CODES;

/** A URI scheme (`https:`, `mailto:`, `obsidian:`, `file:`…) or a protocol-relative `//host`. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
/** A backslash-escaped ASCII punctuation character in a link destination. */
const ESCAPED_PUNCTUATION = /\\([!-/:-@[-`{-~])/g;
const SPACE_OR_TAB = /[ \t]/g;

/**
 * Markdown links `[text](dest)` and images `![alt](dest)`, CommonMark style: the destination is
 * `<…>` or a run without spaces whose parentheses balance, optionally followed by a title. Every
 * link is returned in `ranges` (for masking); external ones are left out of `links`.
 */
export function findMarkdownLinks(masked: string, line: string, lineNo: number): { links: Located<NoteLink>[]; ranges: [number, number][] } {
  const result: { links: Located<NoteLink>[]; ranges: [number, number][] } = { links: [], ranges: [] };
  if (!masked.includes('](')) return result;
  const scanner = new Scanner(masked);
  const parens = new BracketTable(masked, OPEN_PAREN, CLOSE_PAREN);
  const openers: number[] = [];
  for (let at = 0; at < masked.length; at += 1) {
    const c = masked.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 1;
      continue;
    }
    if (c === OPEN_BRACKET) openers.push(at);
    if (c !== CLOSE_BRACKET) continue;
    const opener = openers.pop();
    if (opener === undefined || masked.charCodeAt(at + 1) !== OPEN_PAREN) continue;
    const destination = readDestination(masked, line, at + 2, scanner, parens);
    if (destination === null) continue;
    const start = opener > 0 && masked.charCodeAt(opener - 1) === 0x21 ? opener - 1 : opener;
    result.ranges.push([start, destination.end]);
    const link = markdownLink(destination.raw, line.slice(opener + 1, at).trim(), lineNo);
    if (link !== null) result.links.push({ column: start, item: link });
    // A link cannot contain another link, so brackets opened before this one no longer open links.
    openers.length = 0;
    at = destination.end - 1;
  }
  return result;
}

/** The destination (`<…>` or bare) and optional title after `](` at `from`, through its `)`; null if none is there. */
function readDestination(masked: string, line: string, from: number, scanner: Scanner, parens: BracketTable): { raw: string; end: number } | null {
  let at = scanner.skipSpaces(from);
  let raw: string;
  if (masked.charCodeAt(at) === 0x3c /* < */) {
    const close = scanner.next('>', at + 1);
    if (close === -1) return null;
    raw = line.slice(at + 1, close);
    at = close + 1;
  } else if (masked.charCodeAt(at) === CLOSE_PAREN) {
    return { raw: '', end: at + 1 };
  } else {
    const space = scanner.next(SPACE_OR_TAB, at);
    const close = parens.closer(at, space === -1 ? masked.length : space);
    let end: number;
    if (close !== -1) end = close;
    else if (space !== -1 && parens.balanced(at, space)) end = space;
    else return null;
    raw = line.slice(at, end);
    at = end;
  }
  at = scanner.skipSpaces(at);
  if (masked.charCodeAt(at) === CLOSE_PAREN) return { raw, end: at + 1 };
  const quote = masked.charAt(at);
  const closer = quote === '"' || quote === "'" ? quote : quote === '(' ? ')' : null;
  if (closer === null) return null;
  const titleEnd = scanner.next(closer, at + 1);
  if (titleEnd === -1) return null;
  at = scanner.skipSpaces(titleEnd + 1);
  return masked.charCodeAt(at) === CLOSE_PAREN ? { raw, end: at + 1 } : null;
}

function markdownLink(raw: string, text: string, lineNo: number): NoteLink | null {
  const destination = raw.trim().replace(ESCAPED_PUNCTUATION, '$1');
  if (destination === '' || EXTERNAL.test(destination)) return null;
  const hash = destination.indexOf('#');
  const target = decode(hash === -1 ? destination : destination.slice(0, hash)).trim();
  const subpath = hash === -1 ? null : decode(destination.slice(hash + 1)).trim() || null;
  if (target === '' && subpath === null) return null;
  return { target, subpath, display: text === '' ? null : text, kind: 'markdown', line: lineNo };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
