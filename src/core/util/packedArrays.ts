import type { Slicer } from './Slicer';
import { runSteps, runStepsInSlices, type Steps } from './steps';

/** A typed array `packArrays` can hold. */
export type PackedArray = Uint8Array | Uint16Array | Uint32Array;

/** "RCPA" as this machine's byte order writes it: a file from a machine of the other order is refused. */
const MAGIC = 0x41504352;
const KINDS = [Uint8Array, Uint16Array, Uint32Array] as const;

/** What `packArrays` takes: a typed array, or byte arrays packed as one (their concatenation). */
export type PackInput = PackedArray | readonly Uint8Array[];

/**
 * Several typed arrays in one buffer: a count, each array's kind and length, then each array's
 * bytes from a 4-byte boundary, so `unpackArrays` can view them in place, without copying.
 */
export function packArrays(arrays: readonly PackInput[]): Uint8Array {
  return runSteps(packing(arrays));
}

/** `packArrays`, pausing through `slicer` between copies: a large index is hundreds of MB to copy. */
export function packArraysInSlices(arrays: readonly PackInput[], slicer: Slicer): Promise<Uint8Array> {
  return runStepsInSlices(packing(arrays), slicer);
}

/** Packs, pausing (yielding) after each copy. */
function* packing(arrays: readonly PackInput[]): Steps<Uint8Array> {
  const pieces = arrays.map((array) => (Array.isArray(array) ? (array as readonly Uint8Array[]) : [array as PackedArray]));
  const lengths = arrays.map((array, i) => (Array.isArray(array) ? (pieces[i] as Uint8Array[]).reduce((sum, piece) => sum + piece.length, 0) : (array as PackedArray).length));
  let size = 8 + arrays.length * 8;
  arrays.forEach((array, i) => (size = align(size) + (lengths[i] as number) * kindOf(array).BYTES_PER_ELEMENT));
  const bytes = new Uint8Array(align(size));
  const header = new Uint32Array(bytes.buffer, 0, 2 + arrays.length * 2);
  header[0] = MAGIC;
  header[1] = arrays.length;
  let at = 8 + arrays.length * 8;
  for (const [i, array] of arrays.entries()) {
    header[2 + i * 2] = KINDS.indexOf(kindOf(array));
    header[3 + i * 2] = lengths[i] as number;
    at = align(at);
    for (const piece of pieces[i] as PackedArray[]) {
      bytes.set(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength), at);
      at += piece.byteLength;
      yield;
    }
  }
  return bytes;
}

function kindOf(array: PackInput): (typeof KINDS)[number] {
  if (Array.isArray(array)) return Uint8Array;
  return KINDS.find((kind) => array instanceof kind) ?? Uint8Array;
}

/** The arrays `packArrays` packed, viewing `bytes`; null when they are not such a pack (damaged or foreign). */
export function unpackArrays(bytes: Uint8Array): PackedArray[] | null {
  // Views need their offsets aligned to the element size; a pooled read may start anywhere.
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  if (data.byteLength < 8) return null;
  const count = new Uint32Array(data.buffer, data.byteOffset, 2);
  if (count[0] !== MAGIC) return null;
  const arrays = count[1] as number;
  let at = 8 + arrays * 8;
  if (at > data.byteLength) return null;
  const header = new Uint32Array(data.buffer, data.byteOffset + 8, arrays * 2);
  const unpacked: PackedArray[] = [];
  for (let i = 0; i < arrays; i += 1) {
    const Kind = KINDS[header[i * 2] as number];
    const length = header[i * 2 + 1] as number;
    if (Kind === undefined) return null;
    at = align(at);
    if (at + length * Kind.BYTES_PER_ELEMENT > data.byteLength) return null;
    unpacked.push(new Kind(data.buffer as ArrayBuffer, data.byteOffset + at, length));
    at += length * Kind.BYTES_PER_ELEMENT;
  }
  return unpacked;
}

function align(offset: number): number {
  return (offset + 3) & ~3;
}
