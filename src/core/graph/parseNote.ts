import { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_DEPTH, nestingDepth, splitFrontmatter } from '../content/frontmatter';
import { utf8Length } from '../text/decodeText';
import type { ParsedNote } from './note/noteTypes';
import { readBody } from './note/readBody';
import { readSimpleFrontmatter } from './note/simpleFrontmatter';
import { readYamlFrontmatter } from './note/yamlFrontmatter';

export type { NoteLink, NoteProperty, NoteTag, ParsedNote } from './note/noteTypes';

/**
 * Extracts a note's links, tags, properties, aliases and headings the way Obsidian reads them;
 * nothing inside fenced or inline code, HTML comments or `%% %%` comments counts. Pure and
 * linear in the length of the note (a dense 1 MB note takes tens of milliseconds); never throws.
 * Frontmatter that is invalid YAML, over `MAX_FRONTMATTER_BYTES` or nested over 64 levels gives
 * no properties, tags, aliases or links; the body is read all the same.
 *
 * Simplifications: an inline code span ends on its line; indented (4-space) code blocks are
 * read as text, since in outlines that indentation is nesting; in frontmatter only quoted
 * wikilinks count (unquoted, `[[x]]` is a YAML list, as Obsidian warns).
 *
 * @param text The whole note.
 * @returns The note's structure; lines are 0-based lines of `text`.
 * @example
 * parseNote('---\ntags: [a]\n---\n# Plan\nSee [[Other#Goals|goals]] #b\nstatus:: open');
 * // links: [{ target: 'Other', subpath: 'Goals', display: 'goals', kind: 'wikilink', line: 4 }]
 * // tags: [{ tag: 'a', line: 1 }, { tag: 'b', line: 4 }], headings: [{ text: 'Plan', level: 1, line: 3 }]
 * // properties: tags ('a', frontmatter) and status ('open', inline)
 */
export function parseNote(text: string): ParsedNote {
  const note: ParsedNote = { links: [], tags: [], properties: [], aliases: [], headings: [], bodyStart: 0 };
  const lines = text.split('\n');
  let bodyStart = 0;
  const frontmatter = splitFrontmatter(text);
  if (frontmatter !== null) {
    bodyStart = frontmatter.bodyStartLine - 1;
    readFrontmatter(frontmatter.yaml, note);
  }
  note.bodyStart = frontmatter === null ? (text.charCodeAt(0) === 0xfeff ? 1 : 0) : Math.min(offsetOfLine(lines, bodyStart), text.length);
  readBody(lines, bodyStart, note);
  return note;
}

/** Simple frontmatter is read directly; the rest, unless too large or too deep, by the YAML parser. */
function readFrontmatter(yaml: string, note: ParsedNote): void {
  if (yaml.length > MAX_FRONTMATTER_BYTES || utf8Length(yaml) > MAX_FRONTMATTER_BYTES) return;
  if (readSimpleFrontmatter(yaml, note)) return;
  if (nestingDepth(yaml) > MAX_FRONTMATTER_DEPTH) return;
  readYamlFrontmatter(yaml, note);
}

function offsetOfLine(lines: readonly string[], line: number): number {
  let offset = 0;
  for (let i = 0; i < line; i++) offset += (lines[i] as string).length + 1;
  return offset;
}
