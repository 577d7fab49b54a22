import { BacktickRuns } from './backtickRuns';
import { CHAR_CODES } from './characters';

const { BACKSLASH, BACKTICK } = CHAR_CODES;

/*
 * A masked span has each of its characters replaced by a mask character, so positions still match
 * the original line. The masks are code points 0 to 2: not whitespace, and never part of a key.
 */
export const COMMENT_MASK = '\u0000';
export const CODE_MASK = '\u0001';
export const LINK_MASK = '\u0002';

const MAY_OPEN_CODE_OR_COMMENT = /[`<%]/;

/** A comment left open at the end of a line, carried over to the next one. */
export interface CommentState {
  open: 'html' | 'percent' | null;
}

/**
 * Masks inline code spans (a run of N backticks up to the next run of exactly N on the line) and
 * comments, carrying an unclosed comment over to the next line in `comment`.
 */
export function maskCodeAndComments(line: string, comment: CommentState): string {
  if (comment.open === null && !MAY_OPEN_CODE_OR_COMMENT.test(line)) return line;
  const ranges: [number, number, string][] = [];
  let runs: BacktickRuns | null = null;
  let at = 0;
  let commentStart = 0;
  while (at < line.length) {
    if (comment.open !== null) {
      const closer = comment.open === 'html' ? '-->' : '%%';
      const end = line.indexOf(closer, at);
      if (end === -1) {
        ranges.push([commentStart, line.length, COMMENT_MASK]);
        return applyMask(line, ranges);
      }
      addRange(ranges, commentStart, end + closer.length, COMMENT_MASK);
      comment.open = null;
      at = end + closer.length;
      continue;
    }
    const c = line.charCodeAt(at);
    if (c === BACKSLASH) {
      at += 2;
    } else if (c === BACKTICK) {
      let end = at;
      while (line.charCodeAt(end) === BACKTICK) end += 1;
      runs ??= new BacktickRuns(line);
      const closing = runs.next(end - at, end);
      if (closing === -1) {
        at = end;
      } else {
        ranges.push([at, closing + (end - at), CODE_MASK]);
        at = closing + (end - at);
      }
    } else if (c === 0x3c /* < */ && line.startsWith('<!--', at)) {
      comment.open = 'html';
      commentStart = at;
      at += 4;
    } else if (c === 0x25 /* % */ && line.charCodeAt(at + 1) === 0x25) {
      comment.open = 'percent';
      commentStart = at;
      at += 2;
    } else {
      at += 1;
    }
  }
  if (comment.open !== null) ranges.push([commentStart, line.length, COMMENT_MASK]);
  return applyMask(line, ranges);
}

/** Adds a masked range, joined to the one before when they touch (`%%%%%%…` stays one range). */
function addRange(ranges: [number, number, string][], start: number, end: number, mask: string): void {
  const last = ranges[ranges.length - 1];
  if (last !== undefined && last[1] === start && last[2] === mask) last[1] = end;
  else ranges.push([start, end, mask]);
}

/** `line` with each `[start, end, mask]` range (in order, not overlapping) replaced by its mask character. */
export function applyMask(line: string, ranges: readonly (readonly [number, number, string])[]): string {
  if (ranges.length === 0) return line;
  let out = '';
  let last = 0;
  for (const [start, end, mask] of ranges) {
    out += line.slice(last, start) + mask.repeat(end - start);
    last = end;
  }
  return out + line.slice(last);
}

/** The original text from `from` to `to` without the parts inside comments. */
export function visibleText(line: string, masked: string, from: number, to: number): string {
  let at = masked.indexOf(COMMENT_MASK, from);
  if (at === -1 || at >= to) return line.slice(from, to);
  let out = line.slice(from, at);
  while (at < to) {
    while (at < to && masked.charAt(at) === COMMENT_MASK) at += 1;
    const next = masked.indexOf(COMMENT_MASK, at);
    const end = next === -1 || next > to ? to : next;
    out += line.slice(at, end);
    at = end;
  }
  return out;
}
