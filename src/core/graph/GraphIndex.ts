import { throwIfCancelled } from '../errors';
import type { VaultChange, VaultPort, VaultStat } from '../ports';
import { walkFiles } from '../ports';
import { resolveLinks } from '../paths/resolveLinks';
import { compareCodePoints } from '../util/compareCodePoints';
import { mayContainLowered, splitUtf8Lines, utf8Lines } from '../text/utf8Text';
import { StringPool } from '../util/ownedString';
import type { PackedArray, PackInput } from '../util/packedArrays';
import { Slicer } from '../util/Slicer';
import { parseNote, type ParsedNote } from './parseNote';
import { FactsTable, factsOf, loadFacts, type NoteFacts, type SavedFacts } from './noteFacts';
import { FullTextBuilder, FullTextIndex, type FullTextDocument, type SearchResult } from './fullTextIndex';
import { FIELD_COUNT } from './postings';
import { TermDictionary } from './termDictionary';
import { LinkGraph, type LinkRef } from './linkGraph';
import { loadRecords, saveRecords } from './savedRecords';
import { evaluateQuery, parseQuery, type QueryableNote, type QueryMatch } from './queryLanguage';

export interface IndexProgress {
  done: number;
  total: number;
}

export interface SearchOptions {
  /** Most results. Default 10. */
  limit?: number;
  /** Only notes under this folder. */
  folder?: string;
  /** Only notes with any of these tags (nested tags included). */
  tags?: string[];
  /** Typo tolerance, 0 (exact) to 0.5. Default 0.2. */
  fuzzy?: number;
  /** Aborting it stops the search between query terms, with `Cancelled`. */
  signal?: AbortSignal;
}

export interface SearchHit {
  path: string;
  score: number;
  /** A short stretch of text around the best match. */
  snippet: string;
}

interface IndexedNote {
  path: string;
  /** The note's text as UTF-8: half the memory of a JavaScript string (two bytes a character once one is outside Latin-1). */
  bytes: Uint8Array;
  facts: NoteFacts;
  /** The file's size and mtime when read, to find notes changed while the app was closed. */
  size: number;
  mtime: number;
}

/** Bump when the cache's shape or the parser's output changes: an old cache is then rebuilt. */
const CACHE_VERSION = 5;

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
// A note's text exactly as read: a leading byte-order mark stays (offsets and lines count it).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

const SNIPPET_CHARS = 160;
/**
 * Notes larger than this are indexed by their beginning only (`onPartialNote` says which): one
 * huge file (a log, an export) must not make the index take gigabytes.
 */
export const MAX_INDEXED_NOTE_BYTES = 16 * 1024 * 1024;
const PARALLEL_READS = 16;
/** Checking a saved note is a stat alone, far lighter than a read: more at a time keep the disk busy. */
const PARALLEL_CHECKS = 64;

/**
 * The vault's structure — links, tags, properties, aliases, headings — and a full-text index,
 * built from the notes themselves and kept current from vault events: changed paths are marked,
 * and every query first re-reads the marked notes, so the index is current when `mem` is called,
 * right after the agent's own writes included.
 */
export class GraphIndex {
  private readonly notes = new Map<string, IndexedNote>();
  private readonly links = new LinkGraph();
  private readonly dirty = new Set<string>();
  private fullText = FullTextIndex.empty();
  private strings = new StringPool();
  /** Counts the notes stored or forgotten, so a save with nothing new to write can be skipped. */
  private changes = 0;
  /** `changes` as the cache file holds them (-1: unknown, or nothing saved). */
  private savedChanges = -1;
  private built: Promise<void> | null = null;
  /** The last save asked for (see `save`). */
  private saving: Promise<boolean> = Promise.resolve(true);
  /** The link graph's name index, built after the first build, in the background: changes wait for it. */
  private namesIndexed: Promise<void> = Promise.resolve();
  private catchingUp: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly vault: VaultPort,
    private readonly options: {
      skipFolder?: (path: string) => boolean;
      onProgress?: (progress: IndexProgress) => void;
      sliceMs?: number;
      /** Where `save` keeps the index (the plugin's folder), so a restart does not re-index an unchanged vault. */
      cacheFile?: string;
      /** Resolves when foreground work is done (the git queue): builds and loads pause between slices until then. */
      giveWay?: () => Promise<void>;
      /** Called for a note over `MAX_INDEXED_NOTE_BYTES` (its size in bytes), indexed by its beginning only. */
      onPartialNote?: (path: string, size: number) => void;
      /** The most bytes of one note that are indexed. Default `MAX_INDEXED_NOTE_BYTES`. */
      maxNoteBytes?: number;
    } = {},
  ) {
    this.unsubscribe = vault.onChange((change) => this.noteChange(change));
  }

  private newSlicer(): Slicer {
    return new Slicer(this.options.sliceMs, this.options.giveWay);
  }

  close(): void {
    this.unsubscribe();
  }

  /** Indexes the whole vault (once; later calls wait for the same work), in slices, with progress. */
  build(): Promise<void> {
    this.built ??= this.buildNow();
    return this.built;
  }

  /**
   * Notes linking to `path`. For a note that does not exist (yet), the notes whose unresolved
   * links name it — by its name or its path without `.md` — so the agent can see who expects it.
   */
  async backlinksOf(path: string): Promise<string[]> {
    await this.current();
    const sources = new Set(this.links.incomingOf(path));
    if (!this.links.hasFile(path)) {
      const names = new Set([path.replace(/\.md$/i, ''), baseName(path), path].map((text) => text.toLowerCase()));
      for (const [target, from] of this.links.targets()) if (names.has(target.toLowerCase())) for (const source of from) sources.add(source);
    }
    sources.delete(path);
    return [...sources].sort(compareCodePoints);
  }

  /** The note's unique link targets: resolved paths, or the link text where nothing matches. */
  async outgoingOf(path: string): Promise<string[] | null> {
    await this.current();
    if (!this.notes.has(path)) return null;
    const targets = new Set(this.links.outgoingOf(path).map((edge) => edge.target));
    targets.delete(path);
    return [...targets].sort(compareCodePoints);
  }

  /** The notes under `folder` (any depth) as indexed: path, mtime and frontmatter properties. */
  async notesIn(folder: string): Promise<{ path: string; mtime: number; properties: readonly { key: string; value: string; source: string }[] }[]> {
    await this.current();
    const prefix = folder === '' ? '' : `${folder.replace(/\/+$/, '')}/`;
    const found: { path: string; mtime: number; properties: NoteFacts['properties'] }[] = [];
    for (const note of this.notes.values()) if (note.path.startsWith(prefix)) found.push({ path: note.path, mtime: note.mtime, properties: note.facts.properties });
    return found;
  }

  async isNote(path: string): Promise<boolean> {
    await this.current();
    return this.notes.has(path);
  }

  /**
   * The notes matching a graph query (see `queryLanguage.ts`), evaluated in slices: aborting
   * `options.signal` stops it at the next slice with `Cancelled`.
   */
  async query(query: string, options: { signal?: AbortSignal } = {}): Promise<QueryMatch[]> {
    const node = parseQuery(query);
    await this.current();
    const links = this.links;
    function* queryable(notes: Iterable<IndexedNote>): Generator<QueryableNote> {
      for (const note of notes) yield new QueriedNote(note, links);
    }
    return evaluateQuery(node, { notes: () => queryable(this.notes.values()), resolve: (target, from) => links.resolve(target, from) }, { signal: options.signal });
  }

  /** Full-text search, a query term at a time: aborting `options.signal` stops it between terms with `Cancelled`. */
  async searchText(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    await this.current();
    const limit = options.limit ?? 10;
    const folder = options.folder?.replace(/\/+$/, '');
    const tags = (options.tags ?? []).map((tag) => tag.replace(/^#/, '').toLowerCase());
    const slicer = new Slicer(this.options.sliceMs ?? 20);
    const pause = async (): Promise<void> => {
      throwIfCancelled(options.signal, 'the search');
      if (await slicer.maybeYield()) throwIfCancelled(options.signal, 'the search');
    };
    const results = await this.fullText.queryInSlices(query, {
      fuzzy: options.fuzzy ?? 0.2,
      filter: (path) => {
        if (folder !== undefined && folder !== '' && !path.startsWith(`${folder}/`)) return false;
        if (tags.length === 0) return true;
        const noteTags = this.notes.get(path)?.facts.tags.map((entry) => entry.tag.toLowerCase()) ?? [];
        return tags.some((tag) => noteTags.some((noteTag) => noteTag === tag || noteTag.startsWith(`${tag}/`)));
      },
    }, pause);
    // Equal scores in path order: otherwise ties come in the order notes were indexed, which
    // differs between a long-running index and one loaded from disk. MiniSearch gives the results
    // best first, and rounding keeps that order, so only those down to the last score that makes
    // the cut need sorting again — not the thousands a common word finds.
    const rounded = (score: number): number => Math.round(score * 1000) / 1000;
    if (limit <= 0) return [];
    const cut = results.length <= limit ? -Infinity : rounded((results[limit - 1] as SearchResult).score);
    const ranked: { path: string; score: number; terms: string[] }[] = [];
    for (const result of results) {
      const score = rounded(result.score);
      if (score < cut) break;
      ranked.push({ path: result.id as string, score, terms: result.terms });
    }
    ranked.sort((a, b) => b.score - a.score || compareCodePoints(a.path, b.path));
    return ranked.slice(0, limit).map(({ path, score, terms }) => {
      const note = this.notes.get(path);
      return { path, score, snippet: snippetOf(note === undefined ? '' : textOf(note).slice(note.facts.bodyStart), terms) };
    });
  }

  /**
   * Writes the index to `cacheFile` (unless it holds this index already); false when there is
   * none configured. Saves run one after another: each removes the files of the others.
   */
  save(): Promise<boolean> {
    const run = this.saving.then(
      () => this.saveNow(),
      () => this.saveNow(),
    );
    this.saving = run;
    return run;
  }

  private async saveNow(): Promise<boolean> {
    const file = this.options.cacheFile;
    if (file === undefined) return false;
    await this.current();
    const changes = this.changes;
    if (changes === this.savedChanges && (await this.vault.exists(file))) return true;
    const slicer = this.newSlicer();
    // Notes and full text as they are at this moment: edits made while this runs change neither
    // list, and a note saved as it was is re-read on the next start, its mtime having changed.
    const notes = [...this.notes.values()];
    const graph = await this.savedGraph(notes, slicer);
    const fullText = await this.fullText.toSaved(
      notes.map((note) => note.path),
      slicer,
    );
    const textStarts = new Uint32Array(notes.length + 1);
    notes.forEach((note, i) => (textStarts[i + 1] = (textStarts[i] as number) + note.bytes.length));
    const table = new FactsTable();
    const records: string[] = [];
    for (const { path, facts, size, mtime } of notes) {
      const saved: SavedNote = { path, size, mtime, facts: table.save(facts) };
      records.push(JSON.stringify(saved));
      await slicer.maybeYield();
    }
    const arrays: Record<(typeof SAVED_ARRAYS)[number], PackInput> = {
      strings: encoder.encode(JSON.stringify(table.strings)),
      textStarts,
      texts: notes.map((note) => note.bytes),
      fieldLengths: fullText.fieldLengths,
      terms: encoder.encode(fullText.postings.dictionary.list().join('\n')),
      starts: fullText.postings.starts,
      documents: fullText.postings.documents,
      frequencies: fullText.postings.frequencies,
      ...graph,
    };
    await saveRecords(
      this.vault,
      file,
      CACHE_VERSION,
      records,
      SAVED_ARRAYS.map((name) => arrays[name]),
      slicer,
    );
    this.savedChanges = changes;
    return true;
  }

  /** The link graph as `notes` have it (see `SavedGraph`). */
  private async savedGraph(notes: readonly IndexedNote[], slicer: Slicer): Promise<SavedGraph> {
    const version = this.links.version;
    const numbers = new Map<string, number>();
    notes.forEach((note, i) => numbers.set(note.path, i));
    const otherFiles: string[] = [];
    for (const file of this.links.files()) {
      if (numbers.has(file)) continue;
      numbers.set(file, notes.length + otherFiles.length);
      otherFiles.push(file);
    }
    let count = 0;
    for (const note of notes) count += note.facts.links.length;
    const linkTargets = new Uint32Array(count);
    let at = 0;
    for (const note of notes) {
      const edges = this.links.outgoingOf(note.path);
      for (let i = 0; i < note.facts.links.length; i += 1) {
        const target = edges[i]?.target;
        linkTargets[at++] = target === undefined ? 0 : (numbers.get(target) ?? -1) + 1;
      }
      await slicer.maybeYield();
    }
    const moved = this.links.version !== version;
    return { otherFiles: encoder.encode(JSON.stringify(otherFiles)), linkTargets: moved ? new Uint32Array(0) : linkTargets };
  }

  private async buildNow(): Promise<void> {
    const slicer = this.newSlicer();
    // Foreground work first (a vault's first snapshot, say): the build starts once it is done.
    await this.options.giveWay?.();
    // Changes so far are in what the build reads; only later ones need reading again.
    this.dirty.clear();
    this.links.beginBulk();
    const files = await walkFiles(this.vault, '', (folder) => !(this.options.skipFolder?.(folder) ?? false));
    for (const file of files) {
      this.links.addFile(file);
      await slicer.maybeYield();
    }
    const notes = files.filter(isNote);
    const changesBeforeLoad = this.changes;
    const cached = await this.loadCache(files, slicer);
    this.options.onProgress?.({ done: 0, total: notes.length });
    const present = new Set(notes);
    for (const path of cached === null ? [] : [...cached.keys()]) if (!present.has(path)) this.forget(path);
    // Without a cache the full text is built as the notes are read: no text waits for it.
    const fullText = cached === null ? new FullTextBuilder() : null;
    // Several notes at a time: reading is I/O, and one at a time leaves the disk idle.
    const parallel = cached === null ? PARALLEL_READS : PARALLEL_CHECKS;
    for (let at = 0; at < notes.length; at += parallel) {
      const batch = notes.slice(at, at + parallel);
      const texts = await Promise.all(batch.map((path) => this.readIfChanged(path, cached?.get(path))));
      batch.forEach((path, i) => {
        const read = texts[i];
        if (read === undefined) return;
        // With a loaded cache the full-text index exists and takes changes one by one.
        if (fullText === null) this.applyRead(path, read);
        else if (read === null) this.forget(path);
        else fullText.add(fullTextDocument(path, this.storeNote(path, read.text, read.size, read.mtime), read.text));
      });
      if (await slicer.maybeYield()) this.options.onProgress?.({ done: at + batch.length, total: notes.length });
    }
    await this.links.resolveAll(slicer);
    if (fullText !== null) this.fullText = await fullText.finish(slicer);
    // Loaded, and nothing found changed: the cache file already holds this index.
    else if (this.changes === changesBeforeLoad && this.dirty.size === 0) this.savedChanges = this.changes;
    // The pool's map is for a whole vault going through at once; edits need no more than a fresh one.
    this.strings = new StringPool();
    this.namesIndexed = this.links.indexNames(this.newSlicer());
    this.options.onProgress?.({ done: notes.length, total: notes.length });
  }

  /**
   * Loads the saved index, if there is a readable one of this version: its notes, with the size
   * and mtime they had, and its full-text index. Anything unreadable means a full rebuild, never
   * an error.
   */
  private async loadCache(files: readonly string[], slicer: Slicer): Promise<Map<string, IndexedNote> | null> {
    const file = this.options.cacheFile;
    if (file === undefined) return null;
    const loaded = await loadRecords(this.vault, file, CACHE_VERSION, slicer);
    if (loaded === null) return null;
    const arrays = savedArrays(loaded.arrays, loaded.records.length);
    if (arrays === null) return null;
    const records: IndexedNote[] = [];
    const notes = new Map<string, IndexedNote>();
    for (const [i, record] of loaded.records.entries()) {
      const note = record as Partial<Record<keyof SavedNote, unknown>> | null;
      if (typeof note !== 'object' || note === null || typeof note.path !== 'string' || typeof note.size !== 'number' || typeof note.mtime !== 'number') return null;
      const facts = loadFacts(note.facts, arrays.strings);
      if (facts === null) return null;
      const indexed: IndexedNote = { path: note.path, size: note.size, mtime: note.mtime, facts, bytes: arrays.texts.subarray(arrays.textStarts[i], arrays.textStarts[i + 1]) };
      records.push(indexed);
      notes.set(indexed.path, indexed);
      await slicer.maybeYield();
    }
    const dictionary = await TermDictionary.ofSortedInSlices(await termsOf(arrays.terms, slicer), slicer);
    if (dictionary === null) return null;
    const fullText = await FullTextIndex.load({
      paths: records.map((note) => note.path),
      fieldLengths: arrays.fieldLengths,
      postings: { dictionary, starts: arrays.starts, documents: arrays.documents, frequencies: arrays.frequencies },
    }, slicer);
    if (fullText === null) return null;
    this.fullText = fullText;
    const resolved = await resolvedLinks(records, arrays, files, notes, slicer);
    let linkAt = 0;
    for (const note of records) {
      const links = note.facts.links;
      const firstLink = linkAt;
      linkAt += links.length;
      if (!this.links.hasFile(note.path)) {
        // Deleted while the app was closed: the next save leaves it out.
        fullText.remove(note.path);
        this.changes += 1;
        continue;
      }
      this.notes.set(note.path, note);
      if (resolved === null) this.links.setNote(note.path, links, note.facts.aliases);
      else this.links.restoreNote(note.path, links, note.facts.aliases, (i) => resolved(firstLink + i, links[i] as LinkRef));
      await slicer.maybeYield();
    }
    return notes;
  }

  private noteChange(change: VaultChange): void {
    const paths = change.type === 'rename' ? [change.oldPath, change.path] : [change.path];
    for (const path of paths) {
      if (this.options.skipFolder?.(path.split('/')[0] ?? '') ?? false) continue;
      this.dirty.add(path);
    }
  }

  /** Brings the marked paths up to date (after the first build). */
  private async current(): Promise<void> {
    await this.build();
    // A query that arrives while another brings the index up to date waits for it, then for
    // anything marked since.
    while (this.catchingUp !== null || this.dirty.size > 0) {
      this.catchingUp ??= this.catchUp().finally(() => {
        this.catchingUp = null;
      });
      await this.catchingUp;
    }
  }

  /** Re-reads the marked paths, several at a time (after an agent run or a sync there can be thousands). */
  private async catchUp(): Promise<void> {
    await this.namesIndexed;
    // The marked paths, then the files of any folder among them (a folder moved in, or
    // renamed), each once: all read several at a time, as a build reads.
    const paths = [...this.dirty];
    const queued = new Set(paths);
    this.dirty.clear();
    const slicer = this.newSlicer();
    for (let at = 0; at < paths.length; ) {
      const batch = paths.slice(at, at + PARALLEL_CHECKS);
      at += batch.length;
      const infos = await Promise.all(batch.map((path) => this.statUnlinked(path)));
      const reads = await Promise.all(batch.map((path, i) => this.readNote(path, infos[i] ?? null)));
      for (const [i, path] of batch.entries()) {
        const info = infos[i] ?? null;
        if (info === null) {
          const wasFile = this.links.hasFile(path);
          this.forget(path);
          // A folder gone: everything that was in it.
          if (!wasFile) for (const known of [...this.links.files()]) if (known.startsWith(`${path}/`)) this.forget(known);
        } else if (info.kind === 'folder') {
          for (const file of await walkFiles(this.vault, path)) {
            if (queued.has(file)) continue;
            queued.add(file);
            paths.push(file);
          }
        } else {
          this.links.addFile(path);
          if (isNote(path)) this.applyRead(path, reads[i] ?? null);
        }
      }
      await slicer.maybeYield();
    }
  }

  /** The note's text and stat; `undefined` when the saved copy is current, null when it cannot be read. */
  private async readIfChanged(path: string, known: IndexedNote | undefined): Promise<NoteRead | null | undefined> {
    try {
      const stat = await this.vault.stat(path);
      if (stat === null) return null;
      if (known !== undefined && stat.size === known.size && stat.mtime === known.mtime) return undefined;
      return await this.readNote(path, stat);
    } catch {
      return null;
    }
  }

  /**
   * The stat of a changed path, or null when it is gone — or reached through a symbolic link:
   * the index holds what a walk of the vault finds, and walks never enter links (Obsidian's own
   * events do report files in linked folders, even ones outside the vault).
   */
  private async statUnlinked(path: string): Promise<VaultStat | null> {
    try {
      const resolution = await resolveLinks(this.vault, path, { followLast: true });
      if (resolution.kind !== 'inside' || resolution.path !== path) return null;
      return await this.vault.stat(path);
    } catch {
      return null;
    }
  }

  /** The text of the note at `path`, whose stat was just taken; null when it is no note file or cannot be read. */
  private async readNote(path: string, stat: VaultStat | null): Promise<NoteRead | null> {
    if (stat?.kind !== 'file' || !isNote(path)) return null;
    const maxBytes = this.options.maxNoteBytes ?? MAX_INDEXED_NOTE_BYTES;
    try {
      if (stat.size <= maxBytes) return { text: await this.vault.readText(path), size: stat.size, mtime: stat.mtime };
      const start = await this.vault.readBinary(path, { maxBytes });
      this.options.onPartialNote?.(path, stat.size);
      // A port that cannot read part of a file gives it whole: keep the start only.
      return { text: decodeStart(start.subarray(0, maxBytes)), size: stat.size, mtime: stat.mtime };
    } catch {
      return null;
    }
  }

  /** Puts a note as just read into the index (or takes it out when it could not be read). */
  private applyRead(path: string, read: NoteRead | null | undefined): void {
    if (read === null || read === undefined) {
      this.forget(path);
      return;
    }
    const parsed = this.storeNote(path, read.text, read.size, read.mtime);
    this.fullText.remove(path);
    this.fullText.add(fullTextDocument(path, parsed, read.text));
  }

  /** Records a note's text and structure, and gives its whole parse (the full-text index is the caller's to update). */
  private storeNote(path: string, text: string, size: number, mtime: number): ParsedNote {
    const parsed = parseNote(text);
    const note: IndexedNote = { path, bytes: encoder.encode(text), facts: factsOf(parsed, this.strings), size, mtime };
    this.changes += 1;
    this.notes.set(path, note);
    this.links.setNote(path, note.facts.links, note.facts.aliases);
    return parsed;
  }

  private forget(path: string): void {
    const note = this.notes.get(path);
    if (note !== undefined) {
      this.notes.delete(path);
      this.fullText.remove(path);
      this.changes += 1;
    }
    this.links.removeFile(path);
  }
}

/** A note as read, with the size and mtime it had just before. */
interface NoteRead {
  text: string;
  size: number;
  mtime: number;
}

/** The text of a note's first bytes, without the character the cut may have split. */
function decodeStart(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  return text.endsWith('\uFFFD') ? text.slice(0, -1) : text;
}

function fullTextDocument(path: string, parsed: ParsedNote, text: string): FullTextDocument {
  return { path, title: baseName(path), headings: parsed.headings.map((heading) => heading.text).join('\n'), body: text.slice(parsed.bodyStart) };
}

function textOf(note: IndexedNote): string {
  return decoder.decode(note.bytes);
}

/**
 * A note as a query sees it: one object per note and query, its text decoded only if the query
 * needs it (content terms), its matched lines decoded alone otherwise.
 */
class QueriedNote implements QueryableNote {
  private decoded: string | undefined;

  constructor(
    private readonly note: IndexedNote,
    private readonly links: LinkGraph,
  ) {}

  get path(): string {
    return this.note.path;
  }

  get properties(): NoteFacts['properties'] {
    return this.note.facts.properties;
  }

  get tags(): NoteFacts['tags'] {
    return this.note.facts.tags;
  }

  get outgoing(): QueryableNote['outgoing'] {
    return this.links.outgoingOf(this.note.path);
  }

  get text(): string {
    return (this.decoded ??= textOf(this.note));
  }

  mayContain(lowered: string): boolean {
    return this.decoded !== undefined || mayContainLowered(this.note.bytes, lowered);
  }

  lineTexts(lines: readonly number[]): (string | undefined)[] {
    if (this.decoded === undefined) return utf8Lines(this.note.bytes, lines);
    const all = this.decoded.split('\n');
    return lines.map((line) => all[line]);
  }
}

/** The full-text dictionary's terms from their saved form (one per line; none when empty). */
async function termsOf(bytes: Uint8Array, slicer: Slicer): Promise<string[]> {
  return bytes.length === 0 ? [] : splitUtf8Lines(bytes, slicer);
}

/** The saved arrays by name, when there are as many as this version saves, of the right kinds and sizes for `notes` notes. */
function savedArrays(arrays: readonly PackedArray[], notes: number) {
  if (arrays.length !== SAVED_ARRAYS.length) return null;
  const [stringsJson, textStarts, texts, fieldLengths, terms, starts, documents, frequencies, otherFilesJson, linkTargets] = arrays;
  const strings = stringsIn(stringsJson);
  const otherFiles = stringsIn(otherFilesJson);
  if (strings === null || otherFiles === null || !(linkTargets instanceof Uint32Array)) return null;
  if (!(textStarts instanceof Uint32Array) || !(texts instanceof Uint8Array) || !(fieldLengths instanceof Uint32Array) || !(terms instanceof Uint8Array)) return null;
  if (!(starts instanceof Uint32Array) || !(documents instanceof Uint32Array || documents instanceof Uint16Array) || !(frequencies instanceof Uint16Array)) return null;
  if (textStarts.length !== notes + 1 || textStarts[0] !== 0 || textStarts[notes] !== texts.length || fieldLengths.length !== notes * FIELD_COUNT) return null;
  for (let i = 1; i <= notes; i += 1) if ((textStarts[i] as number) < (textStarts[i - 1] as number)) return null;
  return { strings, textStarts, texts, fieldLengths, terms, starts, documents, frequencies, otherFiles, linkTargets };
}

/** A list of strings saved as UTF-8 JSON, or null. */
function stringsIn(array: PackedArray | undefined): string[] | null {
  if (!(array instanceof Uint8Array)) return null;
  const strings = parseJson(decoder.decode(array));
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
): Promise<((i: number, link: LinkRef) => string) | null> {
  const { otherFiles, linkTargets } = arrays;
  let count = 0;
  for (const note of records) count += note.facts.links.length;
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
  return (i, link) => {
    const number = linkTargets[i] as number;
    if (number === 0) return link.target;
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

function isNote(path: string): boolean {
  return path.toLowerCase().endsWith('.md');
}

function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.md$/i, '');
}

function snippetOf(body: string, terms: readonly string[]): string {
  const lower = body.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = lower.indexOf(term.toLowerCase());
    if (found >= 0 && (at < 0 || found < at)) at = found;
  }
  const start = Math.max(0, at - SNIPPET_CHARS / 2);
  const text = body.slice(start, start + SNIPPET_CHARS).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${text}${start + SNIPPET_CHARS < body.length ? '…' : ''}`;
}
