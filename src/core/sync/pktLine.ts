import { concatBytes, type HttpBody } from './httpBody';

/**
 * git's pkt-line framing (`Documentation/gitprotocol-common.txt`): four hex digits giving the
 * length of the line including themselves, then the payload; `0000` is a flush packet (here:
 * null), which ends a section.
 */

export const FLUSH_PKT = new TextEncoder().encode('0000');

/** The longest pkt-line git allows, length digits included. */
const MAX_PKT_LENGTH = 65520;

/** `payload` framed as one pkt-line. */
export function pktLine(payload: string | Uint8Array): Uint8Array {
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  if (bytes.byteLength + 4 > MAX_PKT_LENGTH) throw new Error(`a pkt-line holds at most ${MAX_PKT_LENGTH - 4} bytes`);
  const line = new Uint8Array(bytes.byteLength + 4);
  line.set(new TextEncoder().encode((bytes.byteLength + 4).toString(16).padStart(4, '0')));
  line.set(bytes, 4);
  return line;
}

/** The pkt-lines of `bytes` (null for a flush packet), or null when they do not parse. */
export function pktLines(bytes: Uint8Array): (Uint8Array | null)[] | null {
  const lines: (Uint8Array | null)[] = [];
  let at = 0;
  while (at < bytes.length) {
    const length = lengthAt(bytes, at);
    if (length === null || at + Math.max(length, 4) > bytes.length) return null;
    lines.push(length === 0 ? null : bytes.subarray(at + 4, at + length));
    at += length === 0 ? 4 : length;
  }
  return lines;
}

/** `lines` framed again (null: a flush packet). */
export function joinPktLines(lines: readonly (Uint8Array | null)[]): Uint8Array {
  return concatBytes(lines.map((line) => (line === null ? FLUSH_PKT : pktLine(line))));
}

/**
 * The pkt-lines of a body as its chunks arrive (null for a flush packet), so a server's progress
 * can be shown before its answer is complete. Throws `PktLineError` on bytes that are not
 * pkt-lines and on a body that ends inside one.
 */
export async function* readPktLines(body: HttpBody): AsyncGenerator<Uint8Array | null, void, undefined> {
  let pending: Uint8Array = new Uint8Array(0);
  for await (const chunk of body) {
    pending = pending.byteLength === 0 ? chunk : concatBytes([pending, chunk]);
    let at = 0;
    while (pending.byteLength - at >= 4) {
      const length = lengthAt(pending, at);
      if (length === null) throw new PktLineError(`"${printable(pending.subarray(at, at + 4))}" is not a pkt-line length`);
      if (length === 0) {
        yield null;
        at += 4;
        continue;
      }
      if (pending.byteLength - at < length) break;
      yield pending.subarray(at + 4, at + length);
      at += length;
    }
    pending = pending.subarray(at);
  }
  if (pending.byteLength > 0) throw new PktLineError('the answer ended inside a pkt-line');
}

/** Bytes that should have been pkt-lines and are not. */
export class PktLineError extends Error {
  override readonly name = 'PktLineError';
}

/** The length a pkt-line at `at` announces (0: flush), or null when it is not one. */
function lengthAt(bytes: Uint8Array, at: number): number | null {
  if (at + 4 > bytes.length) return null;
  let length = 0;
  for (let i = at; i < at + 4; i++) {
    const digit = hexDigit(bytes[i] as number);
    if (digit < 0) return null;
    length = length * 16 + digit;
  }
  // 0001 and 0002 are protocol v2's delimiter and response-end packets, which v0 never sends.
  return length === 0 || length >= 4 ? length : null;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

function printable(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => (byte >= 32 && byte < 127 ? String.fromCharCode(byte) : '?')).join('');
}
