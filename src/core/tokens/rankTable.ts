/**
 * A byte-pair encoding's ranks by token bytes, in typed arrays: every token's bytes in one buffer
 * and an open-addressing hash table of token numbers, sized once. A `Map` of 100,000 strings made
 * a string per token and was rehashed as it grew; on a phone its collections and rehashes each
 * held the main thread for 40-70 ms, and it took several times the memory.
 *
 * Keys are looked up as strings of one character per byte, between two offsets, so that the merge
 * of a piece's bytes cuts no strings.
 */
export class RankTable {
  private readonly bytes: Uint8Array;
  /** Token `i`'s bytes are `bytes[starts[i]]` up to `bytes[starts[i + 1]]`. */
  private readonly starts: Uint32Array;
  private readonly ranks: Uint32Array;
  /** Token number plus one, at its hash's slot or the next free one after it; 0 is free. */
  private readonly slots: Uint32Array;
  private readonly mask: number;
  /** Tokens added. */
  size = 0;

  /** Room for `tokens` tokens of `bytes` bytes in all. */
  constructor(tokens: number, bytes: number) {
    this.bytes = new Uint8Array(bytes);
    this.starts = new Uint32Array(tokens + 1);
    this.ranks = new Uint32Array(tokens);
    let slots = 16;
    while (slots < tokens * 2) slots *= 2;
    this.slots = new Uint32Array(slots);
    this.mask = slots - 1;
  }

  /**
   * Adds a token whose bytes are base64 `text` from `from` to `to`, with `rank`; a token added
   * again takes the later rank. Throws on what is not base64.
   */
  addBase64(text: string, from: number, to: number, rank: number): void {
    const token = this.size;
    if (token === this.ranks.length) throw new Error('The rank table is full.');
    const start = this.starts[token] as number;
    const end = decodeBase64(text, from, to, this.bytes, start);
    let slot = hashBytes(this.bytes, start, end) & this.mask;
    for (let held = this.slots[slot] as number; held !== 0; held = this.slots[slot] as number) {
      if (this.sameBytes(held - 1, start, end)) {
        this.ranks[held - 1] = rank;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot] = token + 1;
    this.ranks[token] = rank;
    this.starts[token + 1] = end;
    this.size++;
  }

  /** The rank of the token whose bytes are `key`'s characters from `from` to `to`. */
  get(key: string, from = 0, to = key.length): number | undefined {
    let hash = FNV_OFFSET;
    for (let at = from; at < to; at++) hash = Math.imul(hash ^ key.charCodeAt(at), FNV_PRIME);
    let slot = hash & this.mask;
    for (let held = this.slots[slot] as number; held !== 0; held = this.slots[slot] as number) {
      const start = this.starts[held - 1] as number;
      if ((this.starts[held] as number) - start === to - from && this.matches(key, from, start, to - from)) return this.ranks[held - 1];
      slot = (slot + 1) & this.mask;
    }
    return undefined;
  }

  private matches(key: string, from: number, start: number, length: number): boolean {
    for (let i = 0; i < length; i++) if (this.bytes[start + i] !== key.charCodeAt(from + i)) return false;
    return true;
  }

  private sameBytes(token: number, start: number, end: number): boolean {
    const at = this.starts[token] as number;
    if ((this.starts[token + 1] as number) - at !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (this.bytes[at + i] !== this.bytes[start + i]) return false;
    return true;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let at = from; at < to; at++) hash = Math.imul(hash ^ (bytes[at] as number), FNV_PRIME);
  return hash;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTETS = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) SEXTETS[BASE64.charCodeAt(i)] = i;

/** Decodes base64 `text` from `from` to `to` (padded or not) into `out` at `at`; returns where it stopped writing. */
function decodeBase64(text: string, from: number, to: number, out: Uint8Array, at: number): number {
  let end = to;
  while (end > from && text.charCodeAt(end - 1) === 0x3d) end--;
  let bits = 0;
  let held = 0;
  for (let i = from; i < end; i++) {
    const code = text.charCodeAt(i);
    const sextet = code < 128 ? (SEXTETS[code] as number) : -1;
    if (sextet < 0) throw new Error(`"${text.slice(from, to)}" is not base64.`);
    bits = (bits << 6) | sextet;
    held += 6;
    if (held >= 8) {
      held -= 8;
      out[at++] = (bits >> held) & 0xff;
    }
  }
  return at;
}
