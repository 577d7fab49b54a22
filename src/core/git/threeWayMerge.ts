import { diffArrays } from 'diff';

/** One change of a text against the common base: base lines `[start, end)` become `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/**
 * Line-wise three-way merge, as diff3 defines it: the changes from `base` to `ours` and from
 * `base` to `theirs` are combined where they touch different lines; where both change the same
 * or adjacent lines (and not identically) there is a conflict and the result is null.
 * Line endings are part of each line, so a missing final newline is kept as it was.
 *
 * @example
 * mergeLines('a\nb\nc\n', 'A\nb\nc\n', 'a\nb\nC\n'); // 'A\nb\nC\n'
 */
export function mergeLines(base: string, ours: string, theirs: string): string | null {
  if (ours === theirs || theirs === base) return ours;
  if (ours === base) return theirs;
  const baseLines = splitLines(base);
  const mine = hunksOf(baseLines, splitLines(ours));
  const other = hunksOf(baseLines, splitLines(theirs));
  const out: string[] = [];
  let at = 0;
  let i = 0;
  let j = 0;
  while (i < mine.length || j < other.length) {
    const a = mine[i];
    const b = other[j];
    let next: Hunk;
    if (a !== undefined && b !== undefined && a.start <= b.end && b.start <= a.end) {
      // Both sides touch the same stretch: only the very same change merges.
      if (a.start !== b.start || a.end !== b.end || a.lines.join('') !== b.lines.join('')) return null;
      next = a;
      i++;
      j++;
    } else if (b === undefined || (a !== undefined && a.start < b.start)) {
      next = a as Hunk;
      i++;
    } else {
      next = b;
      j++;
    }
    for (; at < next.start; at++) out.push(baseLines[at] as string);
    out.push(...next.lines);
    at = next.end;
  }
  for (; at < baseLines.length; at++) out.push(baseLines[at] as string);
  return out.join('');
}

/** The change from `base` to `other`, as hunks over base lines in order. */
function hunksOf(base: readonly string[], other: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(base as string[], other as string[])) {
    if (!part.added && !part.removed) {
      if (open !== null) hunks.push(open);
      open = null;
      at += part.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else {
      open.lines.push(...part.value);
    }
  }
  if (open !== null) hunks.push(open);
  return hunks;
}

/** Lines with their endings (`\n`, `\r\n`); the last one may have none. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}
