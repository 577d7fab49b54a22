import type { Located, NoteLink } from './noteTypes';

/**
 * Wikilinks and embeds in `scan` (a line, masked or not); the parts are read from `source`. A
 * link ends at the first `]]`; of several `[[` before it, the last one opens it.
 */
export function findWikilinks(scan: string, source: string, lineNo: number): (Located<NoteLink> & { end: number })[] {
  const found: (Located<NoteLink> & { end: number })[] = [];
  let from = 0;
  for (;;) {
    const first = scan.indexOf('[[', from);
    if (first === -1) break;
    const close = scan.indexOf(']]', first + 2);
    if (close === -1) break;
    const open = scan.lastIndexOf('[[', close - 2);
    const embed = open > 0 && scan.charCodeAt(open - 1) === 0x21; /* ! */
    const link = wikilink(source.slice(open + 2, close), embed, lineNo);
    const start = embed ? open - 1 : open;
    if (link !== null) found.push({ column: start, end: close + 2, item: link });
    from = close + 2;
  }
  return found;
}

/** `Page#Heading|alias` → its parts; `\|` (a pipe escaped inside a table) separates the alias too. */
function wikilink(content: string, embed: boolean, lineNo: number): NoteLink | null {
  let targetPart = content;
  let display: string | null = null;
  const bar = content.indexOf('|');
  if (bar !== -1) {
    targetPart = content.slice(0, bar);
    if (targetPart.endsWith('\\')) targetPart = targetPart.slice(0, -1);
    display = content.slice(bar + 1).trim() || null;
  }
  const hash = targetPart.indexOf('#');
  const target = (hash === -1 ? targetPart : targetPart.slice(0, hash)).trim();
  const subpath = hash === -1 ? null : targetPart.slice(hash + 1).trim() || null;
  if (target === '' && subpath === null) return null;
  return { target, subpath, display, kind: embed ? 'embed' : 'wikilink', line: lineNo };
}
