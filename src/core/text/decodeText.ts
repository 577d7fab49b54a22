/** How far into a file to look for NUL bytes, the same heuristic git uses to call a file binary. */
const SNIFF_BYTES = 8000;

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes file bytes as UTF-8 text, or returns `null` when they are not text (a NUL byte near
 * the start, or invalid UTF-8). A byte-order mark is kept so that the text written back is
 * byte-identical.
 */
export function decodeText(bytes: Uint8Array): string | null {
  const sniff = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < sniff; i++) if (bytes[i] === 0) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Size of a string in UTF-8 bytes, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
