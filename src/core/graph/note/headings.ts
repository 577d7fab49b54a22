import { isSpaceOrTab } from './characters';
import { visibleText } from './masking';
import type { ParsedNote } from './noteTypes';

/** An ATX heading (`# Title`, up to three spaces before it), read from the masked line; else null. */
export function readHeading(line: string, masked: string, lineNo: number): ParsedNote['headings'][number] | null {
  let at = 0;
  while (at < 3 && masked.charCodeAt(at) === 0x20) at += 1;
  let end = at;
  while (masked.charCodeAt(end) === 0x23 /* # */) end += 1;
  const level = end - at;
  if (level < 1 || level > 6 || !isSpaceOrTab(masked.charCodeAt(end))) return null;
  const text = withoutClosingHashes(visibleText(line, masked, end, line.length).trim());
  return text === '' ? null : { text, level, line: lineNo };
}

/** `# Title ##` → `Title`; `# C#` keeps its `#` (the closing run must follow a space). */
function withoutClosingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x23) end -= 1;
  if (end === text.length) return text;
  if (end === 0) return '';
  return isSpaceOrTab(text.charCodeAt(end - 1)) ? text.slice(0, end).trimEnd() : text;
}
