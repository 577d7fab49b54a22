import { closesFence, fenceOpener, type Fence } from './codeFences';
import { readHeading } from './headings';
import { readBracketFields, readLineProperty } from './inlineFields';
import { findMarkdownLinks } from './markdownLinks';
import { applyMask, LINK_MASK, maskCodeAndComments, type CommentState } from './masking';
import type { Located, NoteLink, ParsedNote } from './noteTypes';
import { readTags } from './tags';
import { findWikilinks } from './wikilinks';

/*
 * How the body is read, one line at a time, in linear time:
 * 1. Fenced code blocks are skipped whole.
 * 2. Inline code spans and comments (`<!-- -->`, `%% %%`, both may span lines) are masked: their
 *    characters are replaced by a mask character, so positions still match the original line.
 * 3. Wikilinks are found in the masked line and masked in turn, then markdown links (whole
 *    `[text](dest)`, external or not), so tags and inline fields never match inside a link.
 * 4. Headings, tags and inline fields are read from what is left; text is always sliced from the
 *    original line (without comments), so a value keeps its inline code.
 * Mask characters are not whitespace, so `x`#tag` is no tag, and no key may contain one.
 */

/** Reads the body's headings, links, tags and inline fields into `note`, from line `bodyStart` on. */
export function readBody(lines: readonly string[], bodyStart: number, note: ParsedNote): void {
  let fence: Fence | null = null;
  const comment: CommentState = { open: null };
  for (let lineNo = bodyStart; lineNo < lines.length; lineNo += 1) {
    let line = lines[lineNo] ?? '';
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (lineNo === 0) line = stripBom(line);

    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (comment.open === null) {
      fence = fenceOpener(line);
      if (fence !== null) continue;
    }

    const masked = maskCodeAndComments(line, comment);
    readLine(line, masked, lineNo, note);
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function readLine(line: string, masked: string, lineNo: number, note: ParsedNote): void {
  const heading = readHeading(line, masked, lineNo);
  if (heading !== null) note.headings.push(heading);

  const rest = readLinks(line, masked, lineNo, note);
  readTags(rest, lineNo, note);
  if (heading === null && readLineProperty(line, masked, rest, lineNo, note)) return;
  readBracketFields(line, masked, rest, lineNo, note);
}

/**
 * Adds the line's links to `note`, in the order they stand; returns the masked line with the links
 * masked too. Every link opens with `[`: most lines have none, and are read without the arrays a
 * search for links makes (an index build reads every line of the vault).
 */
function readLinks(line: string, masked: string, lineNo: number, note: ParsedNote): string {
  if (!masked.includes('[')) return masked;
  const wikilinks = findWikilinks(masked, line, lineNo);
  const linkMasked = wikilinks.length === 0 ? masked : applyMask(masked, wikilinks.map((found) => [found.column, found.end, LINK_MASK] as const));
  const markdown = findMarkdownLinks(linkMasked, line, lineNo);
  // Wikilinks are found in the order they stand; markdown links nested in brackets may not be.
  const links: Located<NoteLink>[] = markdown.links.length === 0 ? wikilinks : [...wikilinks, ...markdown.links].sort((a, b) => a.column - b.column);
  for (const found of links) note.links.push(found.item);
  return markdown.ranges.length === 0 ? linkMasked : applyMask(linkMasked, markdown.ranges.map(([start, end]) => [start, end, LINK_MASK] as const));
}
