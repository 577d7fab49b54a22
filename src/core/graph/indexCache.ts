import type { VaultPort } from '../ports';
import { splitUtf8Lines } from '../text/utf8Text';
import type { PackedArray, PackInput } from '../util/packedArrays';
import type { Slicer } from '../util/Slicer';
import { FullTextIndex } from './fullTextIndex';
import { decodeUtf8, type IndexedNote, type IndexedVault } from './indexedVault';
import { FactsTable, NoteFacts, type SavedFacts } from './noteFacts';
import { FIELD_COUNT } from './postings';
import { loadRecords, saveRecords } from './savedRecords';
import { TermDictionary } from './termDictionary';
import { bytesOf, type Slab } from './textSlabs';

/** Bump when the cache's shape or the parser's output changes: an old cache is then rebuilt. */
const CACHE_VERSION = 7;

/**
 * A note as saved (`saveRecords`, one record per note, in the order of the saved arrays): its
 * facts as numbers into the saved string table, its text in the arrays (`SAVED_ARRAYS`).
 */
interface SavedNote {
  path: string;
  size: number;
  mtime: number;
  facts: SavedFacts;
}

/**
 * The typed arrays saved beside the notes, in this order: the string table of the notes' facts
 * (UTF-8 JSON, see `FactsTable`); note `i`'s text is `texts` from
 * `textStarts[i]` up to `textStarts[i + 1]` (UTF-8); then the full-text index's field lengths,
 * dictionary (UTF-8, a term per line), and postings; then the link graph (see `SavedGraph`).
 */
const SAVED_ARRAYS = ['strings', 'textStarts', 'texts', 'fieldLengths', 'terms', 'starts', 'documents', 'frequencies', 'otherFiles', 'linkTargets'] as const;

/**
 * The links as resolved when saved, so a load on the same files need not resolve them again.
 * The files are the notes' paths in the order of the records, then `otherFiles` (attachments);
 * `linkTargets` has an entry for every link of every note, in the same order: 0 when the link
 * resolved to no file, else 1 + the file's number. Empty when the links changed during the save.
 */
interface SavedGraph {
  /** UTF-8 JSON: the paths of the files other than notes. */
  otherFiles: Uint8Array;
  linkTargets: Uint32Array;
}

const encoder = new TextEncoder();

/**
 * Writes the index to `file`: the notes and full text as they are at this moment. Edits made
 * while this runs change neither list, and a note saved as it was is re-read on the next start,
 * its mtime having changed.
 */
export async function saveIndex(state: IndexedVault, vault: VaultPort, file: string, slicer: Slicer): Promise<void> {
  const notes = [...state.notes.values()];
  const graph = await savedGraph(state, notes, slicer);
  const fullText = await state.fullText.toSaved(
    notes.map((note) => note.path),
    slicer,
  );
  await slicer.maybeYield();
  const textStarts = new Uint32Array(notes.length + 1);
  notes.forEach((note, i) => (textStarts[i + 1] = (textStarts[i] as number) + note.end - note.start));
  const table = new FactsTable();
  const records: string[] = [];
  for (const { path, facts, size, mtime } of notes) {
    const saved: SavedNote = { path, size, mtime, facts: facts.saved(table) };
    records.push(JSON.stringify(saved));
    await slicer.maybeYield();
  }
  // The whole vault's strings and terms are each one text to encode: each in a slice of its own.
  await slicer.maybeYield();
  const strings = encoder.encode(JSON.stringify(table.strings));
  await slicer.maybeYield();
  const terms = encoder.encode(fullText.postings.dictionary.list().join('\n'));
  await slicer.maybeYield();
  const arrays: Record<(typeof SAVED_ARRAYS)[number], PackInput> = {
    strings,
    textStarts,
    texts: notes.map(bytesOf),
    fieldLengths: fullText.fieldLengths,
    terms,
    starts: fullText.postings.starts,
    documents: fullText.postings.documents,
    frequencies: fullText.postings.frequencies,
    ...graph,
  };
  await saveRecords(
    vault,
    file,
    CACHE_VERSION,
    records,
    SAVED_ARRAYS.map((name) => arrays[name]),
    slicer,
  );
}

/** The link graph as `notes` have it (see `SavedGraph`). */
async function savedGraph({ links }: IndexedVault, notes: readonly IndexedNote[], slicer: Slicer): Promise<SavedGraph> {
  const version = links.version;
  // Every step goes over the whole vault, in slices: at 10,000 notes, numbering them and counting
  // their links (which unpacks every note's facts) held a phone's main thread for 80 ms at once.
  // A change to the links meanwhile is caught by `version`, as in the loop below.
  const numbers = new Map<string, number>();
  let count = 0;
  for (const [i, note] of notes.entries()) {
    numbers.set(note.path, i);
    count += note.facts.linkCount;
    if ((i & 0xff) === 0xff) await slicer.maybeYield();
  }
  const otherFiles: string[] = [];
  for (const [i, file] of [...links.files()].entries()) {
    if (!numbers.has(file)) {
      numbers.set(file, notes.length + otherFiles.length);
      otherFiles.push(file);
    }
    if ((i & 0xff) === 0xff) await slicer.maybeYield();
  }
  const linkTargets = new Uint32Array(count);
  let at = 0;
  for (const note of notes) {
    const targets = links.targetsOf(note.path);
    for (let i = 0; i < note.facts.linkCount; i += 1) {
      const target = targets[i];
      linkTargets[at++] = target === undefined ? 0 : (numbers.get(target) ?? -1) + 1;
    }
    await slicer.maybeYield();
  }
  const moved = links.version !== version;
  return { otherFiles: encoder.encode(JSON.stringify(otherFiles)), linkTargets: moved ? new Uint32Array(0) : linkTargets };
}

/**
 * Loads the index saved in `file`, if there is a readable one of this version, into `state`
 * (during a bulk load of the link graph; `files` are the vault's files as just walked): its
 * notes, with the size and mtime they had, its full-text index, and its links. Gives the notes
 * it held by path (some may since be gone from the vault), or null when there is no such cache
 * — anything unreadable means a full rebuild, never an error.
 */
export async function loadIndex(state: IndexedVault, vault: VaultPort, file: string, files: readonly string[], slicer: Slicer): Promise<Map<string, IndexedNote> | null> {
  const loaded = await loadRecords(vault, file, CACHE_VERSION, slicer);
  if (loaded === null) return null;
  const arrays = savedArrays(loaded.arrays, loaded.records.length);
  if (arrays === null) return null;
  const records = await savedNotes(loaded.records, arrays, state.texts.adopt(arrays.texts), slicer);
  if (records === null) return null;
  const notes = new Map(records.map((note) => [note.path, note]));
  const dictionary = await TermDictionary.ofSortedInSlices(await termsIn(arrays.terms, slicer), slicer);
  if (dictionary === null) return null;
  const fullText = await FullTextIndex.load({
    paths: records.map((note) => note.path),
    fieldLengths: arrays.fieldLengths,
    postings: { dictionary, starts: arrays.starts, documents: arrays.documents, frequencies: arrays.frequencies },
  }, slicer);
  if (fullText === null) return null;
  state.fullText = fullText;
  const resolved = await resolvedLinks(records, arrays, files, notes, slicer);
  let linkAt = 0;
  for (const note of records) {
    const { facts } = note;
    const firstLink = linkAt;
    linkAt += facts.linkCount;
    if (!state.links.hasFile(note.path)) {
      // Deleted while the app was closed: the next save leaves it out.
      fullText.remove(note.path);
      state.changes += 1;
      continue;
    }
    state.notes.set(note.path, state.texts.hold(note));
    if (resolved === null) state.links.setNote(note.path, facts, facts.aliases());
    else state.links.restoreNote(note.path, facts, facts.aliases(), (i) => resolved(firstLink + i, facts.linkTarget(i)));
    await slicer.maybeYield();
  }
  return notes;
}

/** The saved notes, their texts spans of the saved texts; null when a record is off. */
async function savedNotes(records: readonly unknown[], arrays: SavedArrays, texts: Slab, slicer: Slicer): Promise<IndexedNote[] | null> {
  const notes: IndexedNote[] = [];
  for (const [i, record] of records.entries()) {
    const note = record as Partial<Record<keyof SavedNote, unknown>> | null;
    if (typeof note !== 'object' || note === null || typeof note.path !== 'string' || typeof note.size !== 'number' || typeof note.mtime !== 'number') return null;
    const facts = NoteFacts.load(note.facts, arrays.strings);
    if (facts === null) return null;
    notes.push({ path: note.path, slab: texts, start: arrays.textStarts[i] as number, end: arrays.textStarts[i + 1] as number, facts, size: note.size, mtime: note.mtime });
    await slicer.maybeYield();
  }
  return notes;
}

/** The full-text dictionary's terms from their saved form (one per line; none when empty). */
async function termsIn(bytes: Uint8Array, slicer: Slicer): Promise<string[]> {
  return bytes.length === 0 ? [] : splitUtf8Lines(bytes, slicer);
}

type SavedArrays = NonNullable<ReturnType<typeof savedArrays>>;

/** The saved arrays by name, when there are as many as this version saves, of the right kinds and sizes for `notes` notes. */
function savedArrays(arrays: readonly PackedArray[], notes: number) {
  if (arrays.length !== SAVED_ARRAYS.length) return null;
  const [stringsJson, textStarts, texts, fieldLengths, terms, starts, documents, frequencies, otherFilesJson, linkTargets] = arrays;
  const strings = stringsIn(stringsJson);
  const otherFiles = stringsIn(otherFilesJson);
  if (strings === null || otherFiles === null || !(linkTargets instanceof Uint32Array)) return null;
  if (!(textStarts instanceof Uint32Array) || !(texts instanceof Uint8Array) || !(fieldLengths instanceof Uint32Array) || !(terms instanceof Uint8Array)) return null;
  if (!(starts instanceof Uint32Array) || !(documents instanceof Uint32Array || documents instanceof Uint16Array) || !(frequencies instanceof Uint8Array)) return null;
  if (textStarts.length !== notes + 1 || textStarts[0] !== 0 || textStarts[notes] !== texts.length || fieldLengths.length !== notes * FIELD_COUNT) return null;
  for (let i = 1; i <= notes; i += 1) if ((textStarts[i] as number) < (textStarts[i - 1] as number)) return null;
  return { strings, textStarts, texts, fieldLengths, terms, starts, documents, frequencies, otherFiles, linkTargets };
}

/** A list of strings saved as UTF-8 JSON, or null. */
function stringsIn(array: PackedArray | undefined): string[] | null {
  if (!(array instanceof Uint8Array)) return null;
  const strings = parseJson(decodeUtf8(array));
  return Array.isArray(strings) && strings.every((text) => typeof text === 'string') ? strings : null;
}

/**
 * The saved resolution of link `i` (counting every note's links in order), when it holds: the
 * vault has exactly the files it was saved with. Null when it does not, or was not saved.
 */
async function resolvedLinks(
  records: readonly IndexedNote[],
  arrays: { otherFiles: readonly string[]; linkTargets: Uint32Array },
  files: readonly string[],
  notes: ReadonlyMap<string, IndexedNote>,
  slicer: Slicer,
): Promise<((i: number, linkText: string) => string) | null> {
  const { otherFiles, linkTargets } = arrays;
  let count = 0;
  for (const note of records) count += note.facts.linkCount;
  if (linkTargets.length !== count || files.length !== records.length + otherFiles.length || notes.size !== records.length) return null;
  const others = new Set(otherFiles);
  if (others.size !== otherFiles.length) return null;
  for (let i = 0; i < files.length; i += 1) {
    const file = files[i] as string;
    if (!notes.has(file) && !others.has(file)) return null;
    if ((i & 0x3ff) === 0x3ff) await slicer.maybeYield();
  }
  const fileCount = files.length;
  for (let i = 0; i < linkTargets.length; i += 1) {
    if ((linkTargets[i] as number) > fileCount) return null;
    if ((i & 0xffff) === 0xffff) await slicer.maybeYield();
  }
  return (i, linkText) => {
    const number = linkTargets[i] as number;
    if (number === 0) return linkText;
    return number <= records.length ? (records[number - 1] as IndexedNote).path : (otherFiles[number - 1 - records.length] as string);
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
