/** What `TermTable.numberOf` gives for a word it has not been told about. */
export const UNSEEN = -1;

/**
 * Words to numbers, looked up by a range of a string: a build meets each word of every note (26
 * million at 50,000 notes, 158,000 of them distinct), and a `Map` would need a string made for
 * each. Open addressing with linear probing over FNV-1a hashes of the UTF-16 code units; the
 * table stays at most half full.
 */
export class TermTable {
  private slots = new Int32Array(1 << 12);
  private readonly words: string[] = [];
  private readonly numbers: number[] = [];
  private hashes = new Int32Array(1 << 11);

  get size(): number {
    return this.words.length;
  }

  /** The number given for `source` from `start` to `end` (whose `wordHash` is `hash`), or `UNSEEN`. */
  numberOf(source: string, start: number, end: number, hash = wordHash(source, start, end)): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (this.slots[slot] as number) - 1;
      if (entry < 0) return UNSEEN;
      if (this.hashes[entry] === hash && sameText(this.words[entry] as string, source, start, end)) return this.numbers[entry] as number;
    }
  }

  /** Gives `word` (not in the table yet) its `number`. */
  set(word: string, number: number): void {
    const entry = this.words.length;
    if (entry >= this.hashes.length) this.hashes = grown(this.hashes, entry * 2);
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    const hash = wordHash(word, 0, word.length);
    this.words.push(word);
    this.numbers.push(number);
    this.hashes[entry] = hash;
    this.place(entry, hash);
  }

  /** Every word with its number, in the order they were set. */
  *entries(): Generator<[string, number]> {
    for (let entry = 0; entry < this.words.length; entry += 1) yield [this.words[entry] as string, this.numbers[entry] as number];
  }

  private place(entry: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let entry = 0; entry < this.words.length; entry += 1) this.place(entry, this.hashes[entry] as number);
  }
}

/** FNV-1a over UTF-16 code units, as an Int32Array keeps it: `EMPTY_HASH`, then `hashStep` for each. */
export const EMPTY_HASH = 0x811c9dc5 | 0;

export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** The hash of `source` from `start` to `end`. */
export function wordHash(source: string, start: number, end: number): number {
  let hash = EMPTY_HASH;
  for (let at = start; at < end; at += 1) hash = hashStep(hash, source.charCodeAt(at));
  return hash;
}

function sameText(word: string, source: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let at = 0; at < word.length; at += 1) if (word.charCodeAt(at) !== source.charCodeAt(start + at)) return false;
  return true;
}

function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}
