import type { VaultPort } from '../ports';
import { walkFiles } from '../ports';
import { readMemoryNote, type MemoryRecord } from './memoryNote';

/** Memory notes bigger than this are not memories anyone wrote by hand or by `remember`; they are skipped. */
const MAX_NOTE_BYTES = 256 * 1024;
const PARALLEL_READS = 16;

/**
 * Every memory note under `folder` (`.md` files at any depth), read as it is, except the paths in
 * `exclude` (the working-memory note). Unreadable files are skipped. Costs one read per note.
 */
export async function scanMemories(vault: VaultPort, folder: string, exclude: ReadonlySet<string> = new Set()): Promise<MemoryRecord[]> {
  const info = await vault.stat(folder);
  if (info?.kind !== 'folder') return [];
  const paths = (await walkFiles(vault, folder)).filter((path) => path.toLowerCase().endsWith('.md') && !exclude.has(path));
  const records: MemoryRecord[] = [];
  for (let at = 0; at < paths.length; at += PARALLEL_READS) {
    const batch = await Promise.all(paths.slice(at, at + PARALLEL_READS).map((path) => readOne(vault, path)));
    for (const record of batch) if (record !== null) records.push(record);
  }
  return records;
}

export async function readOne(vault: VaultPort, path: string): Promise<MemoryRecord | null> {
  try {
    const info = await vault.stat(path);
    if (info?.kind !== 'file' || info.size > MAX_NOTE_BYTES) return null;
    return readMemoryNote(path, await vault.readText(path), info.mtime);
  } catch {
    return null;
  }
}
