import type { VaultPort } from '../ports';
import { readTextIfExists } from '../ports';
import { packArraysInSlices, unpackArrays, type PackedArray, type PackInput } from '../util/packedArrays';
import { Slicer } from '../util/Slicer';

/** Records per part file: each part is read and decoded in one go, so parts stay a few MB. */
const RECORDS_PER_PART = 1000;

/**
 * Bytes per file of the typed arrays. An adapter writes a file in one go (Obsidian mobile's passes
 * it over the app's bridge; a browser's store clones it), holding the main thread for as long:
 * the 38 MB of a 10,000-note index in one file held a phone's for half a second, a 4 MB part (its
 * copy and the store's clone) still 80–100 ms at a phone's speed, and a 2 MB part 60–80 ms.
 */
export const ARRAY_PART_BYTES = 1024 * 1024;

interface Header {
  version: number;
  /** Ties the parts and the arrays to this header: files left from another save are not mixed in. */
  generation: string;
  parts: number;
  /** How many files the typed arrays saved beside the records fill (`arraysPath`); 0 or absent for none. */
  arrayParts?: number;
}

/** What `loadRecords` gives back: the records in order, and the typed arrays saved with them. */
export interface LoadedRecords {
  records: unknown[];
  arrays: PackedArray[];
}

/** `graph-index.json` → `graph-index`. */
function stem(file: string): string {
  return file.replace(/\.json$/i, '');
}

/** `graph-index.json`, generation `g` → `graph-index.g.3.jsonl`. */
function partPath(file: string, generation: string, part: number): string {
  return `${stem(file)}.${generation}.${part}.jsonl`;
}

/** `graph-index.json`, generation `g` → `graph-index.g.0.bin`. */
function arraysPath(file: string, generation: string, part: number): string {
  return `${stem(file)}.${generation}.${part}.bin`;
}

/** What `saveRecords` makes a generation of: nothing that could lead a path elsewhere. */
const GENERATION = /^[a-z0-9-]{1,40}$/;

/**
 * Saves records (each one JSON text, without line breaks) as a small header file and numbered
 * JSON Lines parts beside it, and typed arrays (if any) in one binary file. Parts keep every
 * string the app handles small — one string for a whole large vault's index would exceed what
 * JavaScript strings can hold. Each save writes files of its own (named by its generation) and
 * the header last, then removes the files of earlier saves: a save cut short (the app quit)
 * leaves the previous save whole, and its header still names it.
 */
export async function saveRecords(
  vault: VaultPort,
  file: string,
  version: number,
  records: AsyncIterable<string> | Iterable<string>,
  arrays: readonly PackInput[] = [],
  slicer: Slicer = new Slicer(),
  arrayPartBytes = ARRAY_PART_BYTES,
): Promise<void> {
  const generation = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  let parts = 0;
  let lines = [JSON.stringify({ generation })];
  const flush = async (): Promise<void> => {
    await vault.write(partPath(file, generation, parts), lines.join('\n'));
    parts += 1;
    lines = [JSON.stringify({ generation })];
  };
  for await (const record of records) {
    lines.push(record);
    if (lines.length > RECORDS_PER_PART) await flush();
  }
  if (lines.length > 1 || parts === 0) await flush();
  let arrayParts = 0;
  if (arrays.length > 0) {
    const packed = await packArraysInSlices([new TextEncoder().encode(generation), ...arrays], slicer);
    for (let at = 0; at < packed.length; at += arrayPartBytes) {
      await vault.writeBinary(arraysPath(file, generation, arrayParts), packed.subarray(at, at + arrayPartBytes));
      arrayParts += 1;
      await slicer.maybeYield();
    }
  }
  const header: Header = { version, generation, parts, arrayParts };
  await vault.write(file, JSON.stringify(header));
  await removeOtherSaves(vault, file, generation);
}

/** Removes the parts and arrays of every save but `generation`'s: earlier ones, and any cut short. */
async function removeOtherSaves(vault: VaultPort, file: string, generation: string): Promise<void> {
  const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  const prefix = `${stem(file)}.`;
  const kept = `${prefix}${generation}.`;
  for (const path of (await vault.list(folder)).files) {
    if (!path.startsWith(prefix) || path.startsWith(kept) || !(path.endsWith('.jsonl') || path.endsWith('.bin'))) continue;
    await vault.remove(path).catch(() => undefined);
  }
}

/**
 * The records and arrays `saveRecords` wrote with this `version`, in order; null when there are
 * none, they are of another version, or any file is missing, foreign or damaged.
 */
export async function loadRecords(vault: VaultPort, file: string, version: number, slicer: Slicer): Promise<LoadedRecords | null> {
  try {
    const text = await readTextIfExists(vault, file);
    if (text === null) return null;
    const header = JSON.parse(text) as Partial<Header>;
    if (header.version !== version || typeof header.generation !== 'string' || !GENERATION.test(header.generation) || typeof header.parts !== 'number') return null;
    let arrays: PackedArray[] = [];
    const arrayParts = header.arrayParts ?? 0;
    if (!Number.isInteger(arrayParts) || arrayParts < 0) return null;
    if (arrayParts > 0) {
      const unpacked = unpackArrays(await readArrayParts(vault, file, header.generation, arrayParts, slicer));
      const [generation, ...rest] = unpacked ?? [];
      if (!(generation instanceof Uint8Array) || new TextDecoder().decode(generation) !== header.generation) return null;
      arrays = rest;
    }
    const records: unknown[] = [];
    for (let part = 0; part < header.parts; part += 1) {
      const partText = await readTextIfExists(vault, partPath(file, header.generation, part));
      if (partText === null) return null;
      const lines = partText.split('\n');
      if ((JSON.parse(lines[0] ?? '') as { generation?: unknown }).generation !== header.generation) return null;
      for (let i = 1; i < lines.length; i += 1) {
        records.push(JSON.parse(lines[i] as string));
        await slicer.maybeYield();
      }
    }
    return { records, arrays };
  } catch {
    return null;
  }
}

/** The array files of a save, joined in order (one copy, in slices). */
async function readArrayParts(vault: VaultPort, file: string, generation: string, count: number, slicer: Slicer): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (let part = 0; part < count; part += 1) {
    parts.push(await vault.readBinary(arraysPath(file, generation, part)));
    await slicer.maybeYield();
  }
  if (parts.length === 1) return parts[0] as Uint8Array;
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
    await slicer.maybeYield();
  }
  return joined;
}
