import { throwIfCancelled } from '../errors';
import type { VaultPort } from '../ports';
import { sortByCodePoints } from '../util/compareCodePoints';
import { StringPool } from '../util/ownedString';
import { Slicer } from '../util/Slicer';
import { buildIndex, type IndexProgress } from './buildIndex';
import { ChangeTracker } from './changeTracker';
import { saveIndex } from './indexCache';
import { baseName, IndexedVault, textOf } from './indexedVault';
import type { NoteProperty } from './parseNote';
import { NoteReader } from './noteReader';
import { QueriedNote } from './queriedNote';
import { evaluateQuery, parseQuery, type QueryableNote, type QueryMatch } from './queryLanguage';
import { snippetOf } from './searchSnippet';

export type { IndexProgress } from './buildIndex';
export { MAX_INDEXED_NOTE_BYTES } from './noteLimits';

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

export interface GraphIndexOptions {
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
}

/**
 * The vault's structure — links, tags, properties, aliases, headings — and a full-text index,
 * built from the notes themselves (`buildIndex`, from the saved index when there is one) and kept
 * current from vault events (`ChangeTracker`): changed paths are marked, and every query first
 * re-reads the marked notes, so the index is current when `mem` is called, right after the
 * agent's own writes included. `save` writes it for the next start (`indexCache`).
 */
export class GraphIndex {
  private readonly state = new IndexedVault();
  private readonly reader: NoteReader;
  private readonly changes: ChangeTracker;
  /** `state.changes` as the cache file holds them (-1: unknown, or nothing saved). */
  private savedChanges = -1;
  private built: Promise<void> | null = null;
  /** The last save asked for (see `save`). */
  private saving: Promise<boolean> = Promise.resolve(true);
  private readonly unsubscribe: () => void;

  constructor(
    private readonly vault: VaultPort,
    private readonly options: GraphIndexOptions = {},
  ) {
    this.reader = new NoteReader(vault, options);
    this.changes = new ChangeTracker(this.state, vault, this.reader, options.skipFolder, () => this.newSlicer());
    this.unsubscribe = vault.onChange((change) => this.changes.mark(change));
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
    const links = this.state.links;
    const sources = new Set(links.incomingOf(path));
    if (!links.hasFile(path)) {
      const names = new Set([path.replace(/\.md$/i, ''), baseName(path), path].map((text) => text.toLowerCase()));
      for (const [target, from] of links.targets()) if (names.has(target.toLowerCase())) for (const source of from) sources.add(source);
    }
    sources.delete(path);
    return sortByCodePoints([...sources]);
  }

  /** The note's unique link targets: resolved paths, or the link text where nothing matches. */
  async outgoingOf(path: string): Promise<string[] | null> {
    await this.current();
    if (!this.state.notes.has(path)) return null;
    const targets = new Set(this.state.links.targetsOf(path));
    targets.delete(path);
    return sortByCodePoints([...targets]);
  }

  /** The notes under `folder` (any depth) as indexed: path, mtime and frontmatter properties. */
  async notesIn(folder: string): Promise<{ path: string; mtime: number; properties: NoteProperty[] }[]> {
    await this.current();
    const prefix = folder === '' ? '' : `${folder.replace(/\/+$/, '')}/`;
    const found: { path: string; mtime: number; properties: NoteProperty[] }[] = [];
    for (const note of this.state.notes.values()) if (note.path.startsWith(prefix)) found.push({ path: note.path, mtime: note.mtime, properties: note.facts.properties() });
    return found;
  }

  async isNote(path: string): Promise<boolean> {
    await this.current();
    return this.state.notes.has(path);
  }

  /**
   * The notes matching a graph query (see `queryLanguage.ts`), evaluated in slices: aborting
   * `options.signal` stops it at the next slice with `Cancelled`.
   */
  async query(query: string, options: { signal?: AbortSignal } = {}): Promise<QueryMatch[]> {
    const node = parseQuery(query);
    await this.current();
    const { notes, links } = this.state;
    function* queryable(): Generator<QueryableNote> {
      for (const note of notes.values()) yield new QueriedNote(note, links);
    }
    return evaluateQuery(node, { notes: queryable, resolve: (target, from) => links.resolve(target, from) }, { signal: options.signal });
  }

  /**
   * Full-text search, a query term at a time: aborting `options.signal` stops it between terms
   * with `Cancelled`. Equal scores come in path order, the same whether the index was kept
   * current or loaded from disk.
   */
  async searchText(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    await this.current();
    const limit = options.limit ?? 10;
    if (limit <= 0) return [];
    const slicer = new Slicer(this.options.sliceMs ?? 20);
    const pause = async (): Promise<void> => {
      throwIfCancelled(options.signal, 'the search');
      if (await slicer.maybeYield()) throwIfCancelled(options.signal, 'the search');
    };
    const filter = this.searchFilter(options);
    const results = await this.state.fullText.queryInSlices(query, { fuzzy: options.fuzzy ?? 0.2, limit, filter }, pause);
    return results.map(({ path, score, terms }) => {
      const note = this.state.notes.get(path);
      return { path, score, snippet: snippetOf(note === undefined ? '' : textOf(note).slice(note.facts.bodyStart), terms) };
    });
  }

  /** Which notes a search may give: under `folder`, with any of `tags` (nested tags included). */
  private searchFilter(options: SearchOptions): (path: string) => boolean {
    const folder = options.folder?.replace(/\/+$/, '');
    const tags = (options.tags ?? []).map((tag) => tag.replace(/^#/, '').toLowerCase());
    return (path) => {
      if (folder !== undefined && folder !== '' && !path.startsWith(`${folder}/`)) return false;
      if (tags.length === 0) return true;
      const noteTags = this.state.notes.get(path)?.facts.tags().map((entry) => entry.tag.toLowerCase()) ?? [];
      return tags.some((tag) => noteTags.some((noteTag) => noteTag === tag || noteTag.startsWith(`${tag}/`)));
    };
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
    const changes = this.state.changes;
    if (changes === this.savedChanges && (await this.vault.exists(file))) return true;
    await saveIndex(this.state, this.vault, file, this.newSlicer());
    this.savedChanges = changes;
    return true;
  }

  private async buildNow(): Promise<void> {
    const slicer = this.newSlicer();
    // Foreground work first (a vault's first snapshot, say): the build starts once it is done.
    await this.options.giveWay?.();
    // Changes so far are in what the build reads; only later ones need reading again.
    this.changes.clear();
    const asSaved = await buildIndex(this.state, this.vault, this.reader, this.options, slicer);
    // Loaded, and nothing found changed: the cache file already holds this index.
    if (asSaved && !this.changes.pending) this.savedChanges = this.state.changes;
    // The pool's map is for a whole vault going through at once; edits need no more than a fresh one.
    this.state.strings = new StringPool();
  }

  /** Brings the marked paths up to date (after the first build). */
  private async current(): Promise<void> {
    await this.build();
    await this.changes.current();
  }

  private newSlicer(): Slicer {
    return new Slicer(this.options.sliceMs, this.options.giveWay);
  }
}
