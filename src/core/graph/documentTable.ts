import type { Slicer } from '../util/Slicer';
import { FIELD_COUNT } from './postings';

/**
 * The documents of a full-text index by number: each one's path, whether it is live, and its
 * field lengths, with the sums the ranking averages. Numbers `0…` are the snapshot's documents in
 * its order; a document added later gets the next number. A number is never reused: a removed
 * document's postings in the snapshot still carry it, and are skipped as they are read.
 */
export class DocumentTable {
  private paths: string[];
  private live: Uint8Array;
  private lengths: Uint32Array;
  private readonly numbers = new Map<string, number>();
  private readonly lengthSums = new Float64Array(FIELD_COUNT);
  private liveCount = 0;
  private snapshotRemoved = 0;

  private constructor(
    paths: readonly string[],
    lengths: Uint32Array,
    /** How many of the numbers are the snapshot's. */
    readonly snapshotSize: number,
  ) {
    this.paths = [...paths];
    this.live = new Uint8Array(paths.length);
    this.lengths = lengths;
  }

  static empty(): DocumentTable {
    return new DocumentTable([], new Uint32Array(0), 0);
  }

  /** The snapshot's documents (`fieldLengths`: `FIELD_COUNT` per document), all live, numbered in slices. */
  static async of(paths: readonly string[], fieldLengths: Uint32Array, slicer: Slicer): Promise<DocumentTable> {
    const table = new DocumentTable(paths, fieldLengths, paths.length);
    for (let number = 0; number < paths.length; number += 1) {
      table.enliven(number);
      if ((number & 0x3ff) === 0x3ff) await slicer.maybeYield();
    }
    return table;
  }

  /** Numbers issued so far, live or not: every document number is below it. */
  get size(): number {
    return this.paths.length;
  }

  /** Live documents. */
  get count(): number {
    return this.liveCount;
  }

  /** Whether every snapshot document is still live (its postings need no checking as they are read). */
  get snapshotWhole(): boolean {
    return this.snapshotRemoved === 0;
  }

  /** Whether nothing was added or removed since the snapshot. */
  get unchanged(): boolean {
    return this.snapshotRemoved === 0 && this.paths.length === this.snapshotSize;
  }

  numberOf(path: string): number | undefined {
    return this.numbers.get(path);
  }

  pathOf(number: number): string {
    return this.paths[number] as string;
  }

  isLive(number: number): boolean {
    return this.live[number] === 1;
  }

  fieldLength(number: number, field: number): number {
    return this.lengths[number * FIELD_COUNT + field] as number;
  }

  /** The field's mean length over the live documents. */
  averageLength(field: number): number {
    return this.liveCount === 0 ? 0 : (this.lengthSums[field] as number) / this.liveCount;
  }

  /** A new, live document (the path must not be live already); its number. */
  add(path: string, fieldLengths: readonly number[]): number {
    const number = this.paths.length;
    this.paths.push(path);
    if (number >= this.live.length) this.grow(number + 1);
    this.lengths.set(fieldLengths.slice(0, FIELD_COUNT), number * FIELD_COUNT);
    this.enliven(number);
    return number;
  }

  /** Takes the document out; its number, or undefined when it was not live. */
  remove(path: string): number | undefined {
    const number = this.numbers.get(path);
    if (number === undefined) return undefined;
    this.numbers.delete(path);
    this.live[number] = 0;
    this.liveCount -= 1;
    for (let field = 0; field < FIELD_COUNT; field += 1) this.lengthSums[field] = (this.lengthSums[field] as number) - this.fieldLength(number, field);
    if (number < this.snapshotSize) this.snapshotRemoved += 1;
    return number;
  }

  private enliven(number: number): void {
    this.numbers.set(this.paths[number] as string, number);
    this.live[number] = 1;
    this.liveCount += 1;
    for (let field = 0; field < FIELD_COUNT; field += 1) this.lengthSums[field] = (this.lengthSums[field] as number) + this.fieldLength(number, field);
  }

  /** Room for `size` documents and then some: edits add one at a time. */
  private grow(size: number): void {
    const capacity = Math.max(size, Math.ceil(this.live.length * 1.25) + 64);
    const live = new Uint8Array(capacity);
    live.set(this.live);
    this.live = live;
    const lengths = new Uint32Array(capacity * FIELD_COUNT);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }
}
