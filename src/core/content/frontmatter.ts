import { parse, YAMLParseError } from 'yaml';
import { utf8Length } from '../text/decodeText';
import { InvalidContentError } from '../errors/InvalidContentError';

/** Frontmatter over this many UTF-8 bytes is refused without being parsed. */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;

/** The opening fence: exactly `---` on the first line, trailing spaces or tabs tolerated. */
const OPENING_FENCE = /^---[ \t]*$/;
/** The closing fence: the next line that is exactly `---` or `...`, trailing spaces or tabs tolerated. */
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*$/;

type FrontmatterScan =
  | { kind: 'none' }
  | { kind: 'unclosed' }
  | { kind: 'closed'; yaml: string; closingLine: number };

/**
 * Finds the frontmatter the way Obsidian does: the first line (after an optional BOM) is `---`
 * and a later line is `---` or `...`. CRLF is tolerated. Reads only as far as the closing fence,
 * one line at a time.
 */
function scanFrontmatter(content: string): FrontmatterScan {
  let start = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  let end = content.indexOf('\n', start);
  if (!OPENING_FENCE.test(lineText(content, start, end))) return { kind: 'none' };

  const yamlLines: string[] = [];
  let lineNumber = 1;
  while (end !== -1) {
    start = end + 1;
    end = content.indexOf('\n', start);
    lineNumber += 1;
    const line = lineText(content, start, end);
    if (CLOSING_FENCE.test(line)) return { kind: 'closed', yaml: yamlLines.join('\n'), closingLine: lineNumber };
    yamlLines.push(line);
  }
  return { kind: 'unclosed' };
}

/** The text of the line from `start` to `end` (an index of `\n`, or -1 for the last line), without a trailing `\r`. */
function lineText(content: string, start: number, end: number): string {
  const line = end === -1 ? content.slice(start) : content.slice(start, end);
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * Splits off a note's frontmatter.
 *
 * @param content The whole note.
 * @returns The YAML between the fences (lines joined with `\n`, CRLF normalized) and the 1-based
 *   line number of the first line after the closing fence; `null` when the note has no
 *   frontmatter, including when the opening `---` is never closed (Obsidian then shows no
 *   properties either; `validateFrontmatter` refuses that case).
 * @example
 * splitFrontmatter('---\ntags: [a]\n---\nBody'); // { yaml: 'tags: [a]', bodyStartLine: 4 }
 */
export function splitFrontmatter(content: string): { yaml: string; bodyStartLine: number } | null {
  const scan = scanFrontmatter(content);
  return scan.kind === 'closed' ? { yaml: scan.yaml, bodyStartLine: scan.closingLine + 1 } : null;
}

/** Frontmatter nested deeper than this is not parsed (real properties nest a few levels at most). */
export const MAX_FRONTMATTER_DEPTH = 64;

/**
 * An upper estimate of how deeply the YAML nests: flow brackets, and block levels by indentation
 * (compact `- - x` items counted). The parser recurses per level, and deep enough recursion can
 * take the whole process down in some hosts (V8 aborts when it compiles a regex near the stack
 * limit), so deep documents are not parsed at all.
 */
export function nestingDepth(yaml: string): number {
  let deepest = 0;
  let flow = 0;
  const indents: number[] = [];
  for (const line of yaml.split('\n')) {
    let at = 0;
    while (line.charAt(at) === ' ' || line.charAt(at) === '\t') at += 1;
    if (at === line.length) continue;
    while (indents.length > 0 && (indents[indents.length - 1] ?? 0) >= at) indents.pop();
    indents.push(at);
    let compact = 0;
    while ((line.charAt(at) === '-' || line.charAt(at) === '?') && (line.charAt(at + 1) === ' ' || line.charAt(at + 1) === '\t')) {
      compact += 1;
      at += 1;
      while (line.charAt(at) === ' ' || line.charAt(at) === '\t') at += 1;
    }
    deepest = Math.max(deepest, indents.length + compact);
    for (; at < line.length; at += 1) {
      const c = line.charAt(at);
      if (c === '[' || c === '{') deepest = Math.max(deepest, (flow += 1));
      else if ((c === ']' || c === '}') && flow > 0) flow -= 1;
    }
  }
  return deepest;
}

/**
 * Checks that a note's frontmatter, if it has any, is what Obsidian reads as properties: closed,
 * valid YAML 1.2 (the core schema, which builds no JavaScript objects; duplicate keys refused), at most
 * `MAX_FRONTMATTER_BYTES`, and a mapping (or empty). A note without frontmatter always passes;
 * `---` further down is a thematic break, not frontmatter.
 *
 * @param path The note's path, for the error.
 * @param content The whole note.
 * @throws InvalidContent with rule `frontmatter-unclosed` (line 1), `frontmatter-yaml` (the line
 *   of the YAML error in the file; line 1 when the frontmatter is too large or too deep) or
 *   `frontmatter-not-mapping` (line 2).
 */
export function validateFrontmatter(path: string, content: string): void {
  const scan = scanFrontmatter(content);
  if (scan.kind === 'none') return;
  if (scan.kind === 'unclosed') {
    throw new InvalidContentError(
      path,
      1,
      'frontmatter-unclosed',
      'The first line "---" opens frontmatter, but no later line is "---" to close it. Add a line "---" after the properties; if you meant a horizontal rule, put a line of text before it.',
    );
  }
  if (scan.yaml.length > MAX_FRONTMATTER_BYTES || utf8Length(scan.yaml) > MAX_FRONTMATTER_BYTES) {
    throw new InvalidContentError(
      path,
      1,
      'frontmatter-yaml',
      `The frontmatter is larger than ${MAX_FRONTMATTER_BYTES} bytes (64 KiB), so it was not parsed. Keep frontmatter to short properties and move long text into the body of the note.`,
    );
  }

  if (nestingDepth(scan.yaml) > MAX_FRONTMATTER_DEPTH) {
    throw new InvalidContentError(
      path,
      1,
      'frontmatter-yaml',
      `The frontmatter nests deeper than ${MAX_FRONTMATTER_DEPTH} levels, so it was not parsed. Properties nest a few levels at most: flatten it, or move the data into the body of the note.`,
    );
  }

  let data: unknown;
  try {
    // Warnings (an unknown tag such as `!!js/function`, read as plain text) are not errors;
    // `logLevel` keeps them off the console.
    data = parse(scan.yaml, { logLevel: 'error', maxAliasCount: 100 });
  } catch (error) {
    throw yamlError(path, scan.yaml, scan.closingLine, error);
  }
  if (data === null || data === undefined || isPlainObject(data)) return;
  throw new InvalidContentError(
    path,
    2,
    'frontmatter-not-mapping',
    `The frontmatter is ${describeValue(data)}, not a set of properties. Write it as "key: value" lines, one property per line (for example "tags: [a, b]"), or remove the frontmatter.`,
  );
}

function yamlError(path: string, yaml: string, closingLine: number, error: unknown): InvalidContentError {
  const hint = 'Fix the YAML between the two "---" lines (quote values that contain ": " or start with a special character such as [, {, *, &, !, | or >), or remove the frontmatter.';
  const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '') : '';
  // The YAML starts on line 2 of the file; nothing may point past the closing fence.
  const yamlLine = error instanceof YAMLParseError ? (error.linePos?.[0].line ?? 1) : unresolvedAliasLine(yaml, reason);
  const line = Math.min(1 + yamlLine, closingLine);
  return new InvalidContentError(path, line, 'frontmatter-yaml', `The frontmatter is not valid YAML: ${reason || 'it could not be parsed'}. ${hint}`);
}

/** The parser reports an unresolved alias (`*name`) without a position; find its line. */
function unresolvedAliasLine(yaml: string, reason: string): number {
  const name = /alias.*: (\S+)$/i.exec(reason)?.[1];
  const at = name === undefined ? -1 : yaml.indexOf(`*${name}`);
  return at === -1 ? 1 : yaml.slice(0, at).split('\n').length;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a single text value';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a single true/false value';
  if (value instanceof Date) return 'a single date';
  return 'not a mapping';
}
