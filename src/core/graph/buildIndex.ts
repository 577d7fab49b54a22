import type { VaultPort } from '../ports';
import { walkFiles } from '../ports';
import type { Slicer } from '../util/Slicer';
import { PARALLEL_CHECKS } from './changeTracker';
import { FullTextBuilder } from './fullTextIndex';
import { loadIndex } from './indexCache';
import { fullTextDocument, isNote, type IndexedNote, type IndexedVault } from './indexedVault';
import type { NoteReader } from './noteReader';
import { warmUpParsing } from './warmUpParsing';

/** Notes read at a time in a build: reading is I/O, and one at a time leaves the disk idle. */
const PARALLEL_READS = 16;

export interface IndexProgress {
  done: number;
  total: number;
}

export interface BuildOptions {
  skipFolder?: (path: string) => boolean;
  onProgress?: (progress: IndexProgress) => void;
  /** The saved index to start from, if readable. */
  cacheFile?: string;
}

/**
 * Fills an empty `state` with the whole vault, in slices: from the saved index when there is a
 * readable one (re-reading only the notes whose size or mtime changed), else by reading every
 * note, its full text indexed in bulk as it is read. Gives whether the state is exactly what the
 * cache holds (loaded, and nothing found changed).
 */
export async function buildIndex(state: IndexedVault, vault: VaultPort, reader: NoteReader, options: BuildOptions, slicer: Slicer): Promise<boolean> {
  state.links.beginBulk();
  // Every step over the whole vault's paths goes in slices: on a phone, 10,000 paths walked,
  // filtered or put in a set at once held the main thread for up to 100 ms.
  const files = await walkFiles(vault, '', (folder) => !(options.skipFolder?.(folder) ?? false), slicer);
  const notes: string[] = [];
  for (const [i, file] of files.entries()) {
    state.links.addFile(file);
    if (isNote(file)) notes.push(file);
    if ((i & 0xff) === 0xff) await slicer.maybeYield();
  }
  const changesBeforeLoad = state.changes;
  const cached = options.cacheFile === undefined ? null : await loadIndex(state, vault, options.cacheFile, files, slicer);
  options.onProgress?.({ done: 0, total: notes.length });
  if (cached !== null) await forgetMissing(state, cached, notes, slicer);
  // Without a cache the full text is built as the notes are read: no text waits for it.
  const fullText = cached === null ? new FullTextBuilder() : null;
  await readNotes(state, reader, notes, cached, fullText, options, slicer);
  await state.links.resolveAll(slicer);
  if (fullText !== null) state.fullText = await fullText.finish(slicer);
  options.onProgress?.({ done: notes.length, total: notes.length });
  return cached !== null && state.changes === changesBeforeLoad;
}

/** Forgets the notes the saved index holds that are no longer in the vault. */
async function forgetMissing(state: IndexedVault, cached: ReadonlyMap<string, IndexedNote>, notes: readonly string[], slicer: Slicer): Promise<void> {
  const present = new Set<string>();
  for (const [i, note] of notes.entries()) {
    present.add(note);
    if ((i & 0xff) === 0xff) await slicer.maybeYield();
  }
  for (const path of [...cached.keys()]) if (!present.has(path)) state.forget(path);
}

/** Reads the notes (only those changed since `cached`, when loaded), several at a time, into `state` and `fullText`. */
async function readNotes(
  state: IndexedVault,
  reader: NoteReader,
  notes: readonly string[],
  cached: ReadonlyMap<string, IndexedNote> | null,
  fullText: FullTextBuilder | null,
  options: BuildOptions,
  slicer: Slicer,
): Promise<void> {
  const parallel = cached === null ? PARALLEL_READS : PARALLEL_CHECKS;
  let warm = false;
  for (let at = 0; at < notes.length; at += parallel) {
    const batch = notes.slice(at, at + parallel);
    const texts = await Promise.all(batch.map((path) => reader.readIfChanged(path, cached?.get(path))));
    if (!warm && texts.some((read) => read !== undefined && read !== null)) {
      await warmUpParsing();
      warm = true;
    }
    for (const [i, path] of batch.entries()) {
      const read = texts[i];
      // With a loaded cache the full-text index exists and takes changes one by one.
      if (read === undefined) continue;
      if (fullText === null) state.applyRead(path, read);
      else if (read === null) state.forget(path);
      else fullText.add(fullTextDocument(path, state.storeNote(path, read), read.text));
      // A note at a time: a batch of long notes parsed in one go held a phone's main thread too long.
      if (await slicer.maybeYield()) options.onProgress?.({ done: at + i + 1, total: notes.length });
    }
  }
}
