const NONE = -1;
/**
 * The hashes start from a basis of this process's own, so that keys made to share a bucket (note
 * text is anyone's to write) cannot be made ahead of time.
 */
const BASIS = Math.floor(Math.random() * 0x100000000) | 0;
/** Up to this many entries, a lookup compares with each key in turn: most of a vault's sets by name hold one or two. */
const SCANNED = 8;
const NO_NUMBERS = new Int32Array(0);

/**
 * A `Map` from strings that leaves its keys as they are. V8 (in the Chromium the tests run)
 * internalizes a string used as a key of a `Map` or `Set`: the string joins the engine's string
 * table, and stays there as long as it lives. Every full garbage collection visits every entry of
 * that table, old or young (about 75 ns each at desktop speed; a phone is several times slower).
 * A vault's lower-cased paths, link names, aliases, property values and object ids are tens of
 * thousands of strings, and would add as many entries. This table hashes the keys' code units
 * itself (FNV-1a, from a random basis) and compares them with `===`, which leaves them alone.
 *
 * Entries are kept in insertion order, as a `Map` keeps them. Past a few entries they also chain
 * from their hash's bucket; below that, the table is two short arrays. An iteration sees what is
 * deleted or added while it runs, as with a `Map`, except after an addition that makes the table
 * grow: it then goes on over the entries as they were.
 */
export class StringMap<V> implements Map<string, V> {
  /** The hash index, once there are more than `SCANNED` entries: bucket → first entry, entry → next entry and hash. */
  private heads: Int32Array | null = null;
  private next = NO_NUMBERS;
  private hashes = NO_NUMBERS;
  /** Keys by entry, in insertion order; `undefined` where an entry was deleted. */
  private keyList: (string | undefined)[] = [];
  private valueList: (V | undefined)[] = [];
  private live = 0;

  constructor(entries?: Iterable<readonly [string, V]>) {
    if (entries !== undefined) for (const [key, value] of entries) this.set(key, value);
  }

  get size(): number {
    return this.live;
  }

  get(key: string): V | undefined {
    const entry = this.find(key);
    return entry === NONE ? undefined : this.valueList[entry];
  }

  has(key: string): boolean {
    return this.find(key) !== NONE;
  }

  set(key: string, value: V): this {
    const hash = this.heads === null ? null : hashOf(key);
    const found = hash === null ? this.scan(key) : this.lookup(key, hash);
    if (found !== NONE) {
      this.valueList[found] = value;
      return this;
    }
    if (this.keyList.length === Math.max(SCANNED, this.next.length)) this.resize();
    this.keyList.push(key);
    this.valueList.push(value);
    this.live += 1;
    if (this.heads !== null) this.link(this.keyList.length - 1, hash ?? hashOf(key));
    return this;
  }

  /** Deleted entries stay in their bucket's chain, matching no key, until the table is next resized. */
  delete(key: string): boolean {
    const entry = this.find(key);
    if (entry === NONE) return false;
    this.keyList[entry] = undefined;
    this.valueList[entry] = undefined;
    this.live -= 1;
    return true;
  }

  clear(): void {
    if (this.keyList.length === 0) return;
    this.heads = null;
    this.next = NO_NUMBERS;
    this.hashes = NO_NUMBERS;
    this.keyList = [];
    this.valueList = [];
    this.live = 0;
  }

  forEach(callback: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  *entries(): MapIterator<[string, V]> {
    const keys = this.keyList;
    const values = this.valueList;
    for (let entry = 0; entry < keys.length; entry += 1) {
      const key = keys[entry];
      if (key !== undefined) yield [key, values[entry] as V];
    }
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'StringMap';
  }

  private find(key: string): number {
    return this.heads === null ? this.scan(key) : this.lookup(key, hashOf(key));
  }

  private scan(key: string): number {
    const keys = this.keyList;
    for (let entry = 0; entry < keys.length; entry += 1) if (keys[entry] === key) return entry;
    return NONE;
  }

  private lookup(key: string, hash: number): number {
    const heads = this.heads as Int32Array;
    for (let entry = heads[hash & (heads.length - 1)] as number; entry !== NONE; entry = this.next[entry] as number) {
      if (this.hashes[entry] === hash && this.keyList[entry] === key) return entry;
    }
    return NONE;
  }

  private link(entry: number, hash: number): void {
    const heads = this.heads as Int32Array;
    const bucket = hash & (heads.length - 1);
    this.hashes[entry] = hash;
    this.next[entry] = heads[bucket] as number;
    heads[bucket] = entry;
  }

  /**
   * Makes room for more entries, dropping deleted ones: room for twice the live entries (a power
   * of two, for the bucket mask), hashed once that is more than `SCANNED`.
   */
  private resize(): void {
    const keys: (string | undefined)[] = [];
    const values: (V | undefined)[] = [];
    for (let entry = 0; entry < this.keyList.length; entry += 1) {
      if (this.keyList[entry] === undefined) continue;
      keys.push(this.keyList[entry]);
      values.push(this.valueList[entry]);
    }
    this.keyList = keys;
    this.valueList = values;
    if (keys.length * 2 <= SCANNED) {
      this.heads = null;
      this.next = NO_NUMBERS;
      this.hashes = NO_NUMBERS;
      return;
    }
    const capacity = 2 ** Math.ceil(Math.log2(keys.length * 2));
    this.heads = new Int32Array(capacity).fill(NONE);
    this.next = new Int32Array(capacity);
    this.hashes = new Int32Array(capacity);
    for (let entry = 0; entry < keys.length; entry += 1) {
      const key = keys[entry] as string;
      this.link(entry, hashOf(key));
    }
  }
}

/**
 * FNV-1a over the key's UTF-16 code units, from `BASIS`. The word table (`graph/termTable`) has
 * its own copy on purpose: shared, the hash went into a chunk of its own in `main.js`, and the
 * call across chunks in the word scanner's inner loop made a full index build about 30% slower.
 */
function hashOf(key: string): number {
  let hash = BASIS;
  for (let at = 0; at < key.length; at += 1) hash = Math.imul(hash ^ key.charCodeAt(at), 0x01000193);
  return hash;
}

/** A `Set` of strings that leaves them as they are (see `StringMap`). */
export class StringSet implements Set<string> {
  private readonly map: StringMap<true>;

  constructor(values?: Iterable<string>) {
    this.map = new StringMap<true>();
    if (values !== undefined) for (const value of values) this.map.set(value, true);
  }

  get size(): number {
    return this.map.size;
  }

  has(value: string): boolean {
    return this.map.has(value);
  }

  add(value: string): this {
    this.map.set(value, true);
    return this;
  }

  delete(value: string): boolean {
    return this.map.delete(value);
  }

  clear(): void {
    this.map.clear();
  }

  forEach(callback: (value: string, same: string, set: Set<string>) => void, thisArg?: unknown): void {
    for (const value of this.map.keys()) callback.call(thisArg, value, value, this);
  }

  *entries(): SetIterator<[string, string]> {
    for (const value of this.map.keys()) yield [value, value];
  }

  keys(): SetIterator<string> {
    return this.map.keys();
  }

  values(): SetIterator<string> {
    return this.map.keys();
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.map.keys();
  }

  get [Symbol.toStringTag](): string {
    return 'StringSet';
  }
}
