/**
 * Z85 (ZeroMQ RFC 32): four bytes in five printable characters, with no quote, backslash or
 * backtick, so its text needs no escaping inside a string literal. It packs bytes into text about 6%
 * tighter than base64.
 */
export const Z85_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

const DIGITS = new Int8Array(128).fill(-1);
for (let i = 0; i < Z85_ALPHABET.length; i++) DIGITS[Z85_ALPHABET.charCodeAt(i)] = i;

/** The bytes `text` encodes; its length must be a multiple of five. */
export function z85Decode(text: string): Uint8Array {
  if (text.length % 5 !== 0) throw new Error(`Z85 text must come in groups of five characters; this has ${text.length}`);
  const bytes = new Uint8Array((text.length / 5) * 4);
  const view = new DataView(bytes.buffer);
  for (let at = 0, out = 0; at < text.length; at += 5, out += 4) {
    let value = 0;
    for (let i = at; i < at + 5; i++) {
      const code = text.charCodeAt(i);
      const digit = code < 128 ? DIGITS[code] ?? -1 : -1;
      if (digit < 0) throw new Error(`"${text[i] ?? ''}" at ${i} is not a Z85 character`);
      value = value * 85 + digit;
    }
    if (value > 0xffff_ffff) throw new Error(`the group at ${at} is larger than four bytes`);
    view.setUint32(out, value);
  }
  return bytes;
}
