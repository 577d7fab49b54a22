import { latin1String } from '../text/asciiString';

/**
 * SHA-1 through Web Crypto, which Obsidian's renderer (desktop and mobile) and Node both provide
 * natively: far faster than a JS implementation on the megabyte-sized index files of large vaults.
 */
export async function sha1(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
}

const HEX_DIGITS = new TextEncoder().encode('0123456789abcdef');
/** Reused for the 40 digits of an object id, the length asked for nearly always. */
const idDigits = new Uint8Array(40);

export function toHex(bytes: Uint8Array): string {
  return hexAt(bytes, 0, bytes.length);
}

/** `length` bytes from `offset` as hex digits: one flat string, with no concatenation on the way. */
export function hexAt(bytes: Uint8Array, offset: number, length: number): string {
  const digits = length === 20 ? idDigits : new Uint8Array(2 * length);
  for (let k = 0; k < length; k++) {
    const byte = bytes[offset + k] as number;
    digits[2 * k] = HEX_DIGITS[byte >> 4] as number;
    digits[2 * k + 1] = HEX_DIGITS[byte & 15] as number;
  }
  return latin1String(digits);
}

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX_VALUE[d.toString(16).charCodeAt(0)] = d;
  HEX_VALUE[d.toString(16).toUpperCase().charCodeAt(0)] = d;
}

/**
 * Writes the bytes an id's hex spells (40 digits: 20 bytes) into `out` at `offset`, with no array
 * in between; false, with the bytes written undefined, when `hex` is not 40 hex digits.
 */
export function writeHex(out: Uint8Array, offset: number, hex: string): boolean {
  if (hex.length !== 40) return false;
  for (let k = 0; k < 20; k++) {
    const high = HEX_VALUE[hex.charCodeAt(2 * k)] ?? -1;
    const low = HEX_VALUE[hex.charCodeAt(2 * k + 1)] ?? -1;
    if (high < 0 || low < 0) return false;
    out[offset + k] = (high << 4) | low;
  }
  return true;
}
