/**
 * The character codes the line readers scan for. A reader copies the ones it needs into its own
 * constants (`const { BACKSLASH } = CHAR_CODES`): under Vitest's module transform a read of an
 * imported binding is a property read, and the per-character loops would run about twice as slow.
 */
export const CHAR_CODES = {
  BACKSLASH: 0x5c,
  BACKTICK: 0x60,
  OPEN_BRACKET: 0x5b,
  CLOSE_BRACKET: 0x5d,
  OPEN_PAREN: 0x28,
  CLOSE_PAREN: 0x29,
  COLON: 0x3a,
} as const;

export function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The first position at or after `at` that is not a space or tab. */
export function skipSpaces(line: string, at: number): number {
  let position = at;
  while (isSpaceOrTab(line.charCodeAt(position))) position += 1;
  return position;
}
