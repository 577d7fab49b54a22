import type { NoteTag, ParsedNote } from './noteTypes';

/** Characters a tag is made of: letters, digits, marks, emoji, and `-`, `_`, `/`. */
const TAG_BODY = /(?:[\p{L}\p{N}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}_\-/]|\u200d)+/uy;
const ONLY_DIGITS = /^\p{Nd}+$/u;
const WHITESPACE_CHAR = /\s/u;
const TAG_SEPARATORS = /[\s,]+/u;

/** `#tag` after whitespace or at the start of the line, not only digits. */
export function readTags(rest: string, lineNo: number, note: ParsedNote): void {
  for (let at = rest.indexOf('#'); at !== -1; at = rest.indexOf('#', at + 1)) {
    if (at > 0 && !WHITESPACE_CHAR.test(rest.charAt(at - 1))) continue;
    TAG_BODY.lastIndex = at + 1;
    const match = TAG_BODY.exec(rest);
    if (match === null) continue;
    const tag = match[0];
    if (!ONLY_DIGITS.test(tag)) note.tags.push({ tag, line: lineNo });
    at += tag.length;
  }
}

/** Tags in a frontmatter value: separated by commas or whitespace, with or without '#'. */
export function splitTags(text: string, line: number): NoteTag[] {
  const tags: NoteTag[] = [];
  for (const part of text.split(TAG_SEPARATORS)) {
    const tag = part.replace(/^#+/, '');
    if (tag !== '' && !ONLY_DIGITS.test(tag)) tags.push({ tag, line });
  }
  return tags;
}
