import { skipLinePrefix } from './linePrefix';

/** An open fenced code block: its fence character and how many of them opened it. */
export interface Fence {
  char: string;
  length: number;
}

/** A fence opener (three or more backticks or tildes), also inside a list item or blockquote. */
export function fenceOpener(line: string): Fence | null {
  const at = skipLinePrefix(line, true);
  const char = line.charAt(at);
  if (char !== '`' && char !== '~') return null;
  let end = at;
  while (line.charAt(end) === char) end += 1;
  if (end - at < 3) return null;
  // ```a``` on one line is inline code, not a fence: a backtick info string holds no backtick.
  if (char === '`' && line.includes('`', end)) return null;
  return { char, length: end - at };
}

/** A closing fence: the same character, at least as many, then only whitespace. */
export function closesFence(line: string, fence: Fence): boolean {
  const at = skipLinePrefix(line, false);
  let end = at;
  while (line.charAt(end) === fence.char) end += 1;
  return end - at >= fence.length && line.slice(end).trim() === '';
}
