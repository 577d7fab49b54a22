/**
 * Strings made by the JavaScript engine itself from ASCII bytes. Chromium's `TextDecoder`, which
 * Obsidian runs on every platform, returns an external string: each costs a call into the
 * browser, and each one that dies costs the collector work in its pause on the main thread. For
 * the many short strings of a git index (paths, object ids) `String.fromCharCode` makes a plain
 * string several times faster and leaves about half the collection work.
 */

/** Arguments per `fromCharCode` call: far below every engine's limit on arguments. */
const CHUNK = 4096;

/** Whether every byte is below 0x80: such bytes are the same text in ASCII, Latin-1 and UTF-8. */
export function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) >= 0x80) return false;
  return true;
}

/** The bytes as text, one character per byte (Latin-1); exactly their UTF-8 text when `isAscii`. */
export function latin1String(bytes: Uint8Array): string {
  return charCodeString(bytes);
}

/** Code units as text, one character each: bytes read as Latin-1, or UTF-16 code units. */
export function charCodeString(units: Uint8Array | Uint16Array): string {
  if (units.length <= CHUNK) return String.fromCharCode.apply(null, units as unknown as number[]);
  let text = '';
  for (let at = 0; at < units.length; at += CHUNK) text += String.fromCharCode.apply(null, units.subarray(at, at + CHUNK) as unknown as number[]);
  return text;
}
