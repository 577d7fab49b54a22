import { InvalidContentError } from '../errors/InvalidContentError';
import { splitFrontmatter } from './frontmatter';

/** `key:: value` (or `key::` alone): Logseq's property syntax. */
const PROPERTY = /^[A-Za-z0-9_-]+::(?:[ \t]|$)/;
/** A block's first line after its indentation: `- text`, or `-` alone (an empty block). */
const BLOCK_START = /^-(?: |[ \t]*$)/;
/** A fenced code opener: three or more backticks or tildes; a backtick info string holds no backtick. */
const FENCE_OPENER = /^(?:(`{3,})[^`]*|(~{3,}).*)$/;
/**
 * Columns are measured with tab stops every 2 columns, so one tab is one level and is as wide as
 * `- `: in a tab-indented page, a block at N tabs has its text at N tabs + 2 spaces (what Logseq
 * writes) or, equally, N + 1 tabs.
 */
const TAB_STOP = 2;

interface Block {
  /** 1-based line of the block's first line. */
  line: number;
  level: number;
  /** Column of the block's text: its indentation plus the width of `- `. */
  contentColumn: number;
  /** True until a continuation line that is not a property: block properties go first. */
  propertiesOpen: boolean;
}

interface Fence {
  line: number;
  marker: string;
}

interface Indentation {
  kind: 'tab' | 'space';
  /** Spaces per level, for a space-indented page. */
  unit: number;
  /** The line that decided `kind` and `unit`. */
  line: number;
}

/**
 * Checks that a Logseq page is a well-formed outline: every content line is a block (`- text`) or
 * a continuation line indented to its block's text; page properties (`key:: value`) only at the
 * top, block properties only right after a block's first line; indentation with tabs or spaces,
 * not both, one level at a time. Lines inside a fenced code block are free-form but must stay
 * indented inside their block. Frontmatter, if any, is skipped (`validateFrontmatter` checks it).
 * One pass over the content.
 *
 * @param path The page's path, for the error.
 * @param content The whole page.
 * @throws InvalidContent with rule `logseq-outside-block`, `logseq-indentation` or
 *   `logseq-property-position`, naming the first offending line.
 */
export function validateLogseqBlocks(path: string, content: string): void {
  const bodyStartLine = splitFrontmatter(content)?.bodyStartLine ?? 1;

  let indentation: Indentation | null = null;
  let block: Block | null = null;
  let fence: Fence | null = null;

  let lineNumber = 0;
  let start = 0;
  while (start <= content.length) {
    let end = content.indexOf('\n', start);
    if (end === -1) end = content.length;
    lineNumber += 1;
    const lineStart = start;
    start = end + 1;
    if (lineNumber < bodyStartLine) continue;

    let line = content.slice(lineStart, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (lineNumber === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);

    // Leading whitespace: its visual column and which kinds it uses.
    let index = 0;
    let column = 0;
    let hasTab = false;
    let hasSpace = false;
    for (; index < line.length; index += 1) {
      const char = line[index];
      if (char === ' ') {
        hasSpace = true;
        column += 1;
      } else if (char === '\t') {
        hasTab = true;
        column += TAB_STOP - (column % TAB_STOP);
      } else break;
    }
    const rest = line.slice(index);

    if (fence !== null && block !== null) {
      if (rest.trim() === '') continue;
      if (column < block.contentColumn) {
        throw new InvalidContentError(
          path,
          lineNumber,
          'logseq-outside-block',
          `This line is inside the code fence opened on line ${fence.line} but is indented less than the text of its block (line ${block.line}), so it would leave the block. Indent every line of the code, and the closing ${fence.marker}, at least as far as the block's text (the block's indentation plus two spaces); if the code has ended, close the fence with ${fence.marker} first.`,
        );
      }
      if (isClosingFence(rest, fence.marker)) fence = null;
      continue;
    }

    if (rest.trim() === '') continue;

    if (BLOCK_START.test(rest)) {
      let level = 0;
      if (index > 0) {
        if (block === null) {
          throw new InvalidContentError(path, lineNumber, 'logseq-indentation', 'The first block of the page is indented. Start it at column 0 with "- "; only blocks under another block are indented.');
        }
        if (hasTab && hasSpace) {
          throw new InvalidContentError(
            path,
            lineNumber,
            'logseq-indentation',
            indentation === null
              ? 'This block is indented with a mix of tabs and spaces. Indent blocks with tabs only (one tab per level) or spaces only, the same way on the whole page.'
              : `This block is indented with a mix of tabs and spaces. This page indents with ${describeIndentation(indentation)}; indent this block the same way.`,
          );
        }
        const kind = hasTab ? 'tab' : 'space';
        if (indentation === null) indentation = { kind, unit: kind === 'space' ? index : 1, line: lineNumber };
        if (kind !== indentation.kind) {
          throw new InvalidContentError(
            path,
            lineNumber,
            'logseq-indentation',
            `This block is indented with ${kind === 'tab' ? 'tabs' : 'spaces'}, but this page indents with ${describeIndentation(indentation)} (since line ${indentation.line}). Indent it the same way; a page uses tabs or spaces, not both.`,
          );
        }
        if (index % indentation.unit !== 0) {
          throw new InvalidContentError(
            path,
            lineNumber,
            'logseq-indentation',
            `This block is indented by ${index} spaces, but this page indents by ${indentation.unit} spaces per level (since line ${indentation.line}). Indent it by a multiple of ${indentation.unit} spaces.`,
          );
        }
        level = index / indentation.unit;
      }
      if (block !== null && level > block.level + 1) {
        throw new InvalidContentError(
          path,
          lineNumber,
          'logseq-indentation',
          `This block is ${level - block.level} levels deeper than the block above it (line ${block.line}); a block can be at most one level deeper than the block before it. Remove ${level - block.level - 1} level(s) of indentation, or add the missing parent blocks.`,
        );
      }
      block = { line: lineNumber, level, contentColumn: column + 2, propertiesOpen: true };
      const marker = fenceMarker(rest.slice(1).trimStart());
      if (marker !== null) {
        fence = { line: lineNumber, marker };
        block.propertiesOpen = false;
      }
      continue;
    }

    const isProperty = PROPERTY.test(rest);
    if (block === null) {
      if (isProperty && index === 0) continue; // a page property
      if (isProperty) {
        throw new InvalidContentError(path, lineNumber, 'logseq-property-position', 'Page properties ("key:: value" before the first block) start at column 0. Remove the indentation.');
      }
      throw new InvalidContentError(
        path,
        lineNumber,
        'logseq-outside-block',
        index === 0
          ? 'On a Logseq page every line of content is part of a block. Start the line with "- " to make it a block; only "key:: value" page properties may come before the first block.'
          : 'This line is indented, but there is no block above it to belong to. Start it at column 0 with "- " to make it a block.',
      );
    }

    if (isProperty) {
      if (block.propertiesOpen && column === block.contentColumn) continue; // a block property
      throw new InvalidContentError(
        path,
        lineNumber,
        'logseq-property-position',
        block.propertiesOpen
          ? `A block property must be indented exactly to the text of its block (line ${block.line}): the block's indentation followed by two spaces. Re-indent this line.`
          : `Properties ("key:: value") go either at the very top of the page, before the first block, or on the lines right after a block's first line, before any other text of that block, indented to its text. Move this line there; if it is ordinary text, reword it so it does not start with "${rest.slice(0, rest.indexOf('::') + 2)}".`,
      );
    }

    if (column < block.contentColumn) {
      throw new InvalidContentError(
        path,
        lineNumber,
        'logseq-outside-block',
        index === 0
          ? 'Start the line with "- " to make it a block, or indent it under the block above.'
          : `This line is indented less than the text of the block above (line ${block.line}), so it belongs to no block. Indent it to the block's text (the block's indentation plus two spaces) to continue that block, or start it with "- " to make it a new block.`,
      );
    }
    block.propertiesOpen = false;
    const marker = fenceMarker(rest);
    if (marker !== null) fence = { line: lineNumber, marker };
  }
}

/** The fence marker (``` or ~~~, as long as written) that `text` opens, or null. */
function fenceMarker(text: string): string | null {
  const match = FENCE_OPENER.exec(text);
  if (match === null) return null;
  return match[1] ?? match[2] ?? null;
}

/** A closing fence: the same character, at least as many, then only whitespace. */
function isClosingFence(text: string, marker: string): boolean {
  const char = marker.charAt(0);
  let count = 0;
  while (text.charAt(count) === char) count += 1;
  return count >= marker.length && text.slice(count).trim() === '';
}

function describeIndentation(indentation: Indentation): string {
  return indentation.kind === 'tab' ? 'tabs (one tab per level)' : `${indentation.unit} spaces per level`;
}
