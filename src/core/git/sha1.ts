/**
 * SHA-1 through Web Crypto, which Obsidian's renderer (desktop and mobile) and Node both provide
 * natively: far faster than a JS implementation on the megabyte-sized index files of large vaults.
 */
export async function sha1(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX[byte];
  return out;
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
