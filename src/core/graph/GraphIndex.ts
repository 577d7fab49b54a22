import MiniSearch, { type AsPlainObject, type Options as MiniSearchOptions } from 'minisearch';
import type { VaultChange, VaultPort } from '../ports';
import { readTextIfExists, walkFiles } from '../ports';
import { compareCodePoints } from '../util/compareCodePoints';
import { Slicer } from '../util/Slicer';
import { parseNote, type ParsedNote } from './parseNote';
import { evaluateQuery, parseQuery, type QueryableNote, type QueryMatch } from './queryLanguage';
import { LinkResolver } from './resolveLink';

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
}

export interface SearchHit {
  path: string;
  score: number;
  /** A short stretch of text around the best match. */
  snippet: string;
}

interface IndexedNote extends QueryableNote {
  parsed: ParsedNote;
  /** The file's size and mtime when read, to find notes changed while the app was closed. */
  size: number;
  mtime: number;
  /** The text before the body (the frontmatter block): with `parsed.body`, the whole note… */
  head: string;
  /** …unless the body is not the end of the text (then `head` is the whole text). */
  whole: boolean;
}

/** Bump when the cache's shape or the parser's output changes: an old cache is then rebuilt. */
const CACHE_VERSION = 2;

interface CacheFile {
  version: number;
  notes: { path: string; size: number; mtime: number; head: string; whole: boolean; parsed: ParsedNote }[];
  search: AsPlainObject;
}

/** Words split at spaces, punctuation and symbols: `[[Page|alias]]` and `` `code` `` must yield their words. */
const WORD_BREAK = /[\n\r\p{Z}\p{P}\p{S}]+/u;

const SEARCH_OPTIONS: MiniSearchOptions<SearchDocument> = {
  fields: ['title', 'headings', 'body'],
  tokenize: (text) => text.split(WORD_BREAK),
  searchOptions: { boost: { title: 3, headings: 2 }, prefix: true, fuzzy: 0.2 },
};

interface SearchDocument {
  id: string;
  title: string;
  headings: string;
  body: string;
}

const SNIPPET_CHARS = 160;
const PARALLEL_READS = 16;

/**
 * The vault's structure — links, tags, properties, aliases, headings — and a full-text index,
 * built from the notes themselves and kept current from vault events: changed paths are marked,
 * and every query first re-reads the marked notes, so the index is current when `mem` is called,
 * right after the agent's own writes included.
 */
export class GraphIndex {
  private readonly notes = new Map<string, IndexedNote>();
  private readonly resolver = new LinkResolver();
  private readonly dirty = new Set<string>();
  private backlinks: Map<string, Set<string>> | null = null;
  private search: MiniSearch<SearchDocument>;
  private built: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly vault: VaultPort,
    private readonly options: {
      skipFolder?: (path: string) => boolean;
      onProgress?: (progress: IndexProgress) => void;
      sliceMs?: number;
      /** Where `save` keeps the index (the plugin's folder), so a restart does not re-index an unchanged vault. */
      cacheFile?: string;
    } = {},
  ) {
    this.search = new MiniSearch<SearchDocument>(SEARCH_OPTIONS);
    this.unsubscribe = vault.onChange((change) => this.noteChange(change));
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
    const reverse = this.reverse();
    const sources = new Set(reverse.get(path) ?? []);
    if (!this.resolver.has(path)) {
      const withoutMd = path.replace(/\.md$/i, '');
      for (const text of new Set([withoutMd, baseName(path), path])) {
        for (const [target, from] of reverse) if (target.toLowerCase() === text.toLowerCase()) for (const source of from) sources.add(source);
      }
    }
    sources.delete(path);
    return [...sources].sort(compareCodePoints);
  }

  /** The note's unique link targets: resolved paths, or the link text where nothing matches. */
  async outgoingOf(path: string): Promise<string[] | null> {
    await this.current();
    const note = this.notes.get(path);
    if (note === undefined) return null;
    const targets = new Set<string>();
    for (const edge of this.resolveLinks(note)) targets.add(edge.target);
    targets.delete(path);
    return [...targets].sort(compareCodePoints);
  }

  async isNote(path: string): Promise<boolean> {
    await this.current();
    return this.notes.has(path);
  }

  async query(query: string): Promise<QueryMatch[]> {
    const node = parseQuery(query);
    await this.current();
    this.reverse();
    return evaluateQuery(node, { notes: () => this.notes.values(), resolve: (target, from) => this.resolver.resolve(target, from) });
  }

  async searchText(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    await this.current();
    const limit = options.limit ?? 10;
    const folder = options.folder?.replace(/\/+$/, '');
    const tags = (options.tags ?? []).map((tag) => tag.replace(/^#/, '').toLowerCase());
    const results = this.search.search(query, {
      fuzzy: options.fuzzy ?? 0.2,
      filter: (result) => {
        const path = result.id as string;
        if (folder !== undefined && folder !== '' && !path.startsWith(`${folder}/`)) return false;
        if (tags.length === 0) return true;
        const noteTags = this.notes.get(path)?.tags.map((entry) => entry.tag.toLowerCase()) ?? [];
        return tags.some((tag) => noteTags.some((noteTag) => noteTag === tag || noteTag.startsWith(`${tag}/`)));
      },
    });
    return results.slice(0, limit).map((result) => ({
      path: result.id as string,
      score: Math.round(result.score * 1000) / 1000,
      snippet: snippetOf(this.notes.get(result.id as string)?.parsed.body ?? '', result.terms),
    }));
  }

  /** Writes the index to `cacheFile`; false when there is none configured. */
  async save(): Promise<boolean> {
    const file = this.options.cacheFile;
    if (file === undefined) return false;
    await this.current();
    const cache: CacheFile = {
      version: CACHE_VERSION,
      notes: [...this.notes.values()].map((note) => ({ path: note.path, size: note.size, mtime: note.mtime, head: note.head, whole: note.whole, parsed: note.parsed })),
      search: this.search.toJSON(),
    };
    await this.vault.write(file, JSON.stringify(cache));
    return true;
  }

  private async buildNow(): Promise<void> {
    const slicer = new Slicer(this.options.sliceMs);
    const files = await walkFiles(this.vault, '', (folder) => !(this.options.skipFolder?.(folder) ?? false));
    for (const file of files) this.resolver.addFile(file);
    const notes = files.filter(isNote);
    const cached = await this.loadCache();
    this.options.onProgress?.({ done: 0, total: notes.length });
    const present = new Set(notes);
    for (const path of cached === null ? [] : [...cached.keys()]) if (!present.has(path)) this.forget(path);
    // Several notes at a time: reading is I/O, and one at a time leaves the disk idle.
    for (let at = 0; at < notes.length; at += PARALLEL_READS) {
      const batch = notes.slice(at, at + PARALLEL_READS);
      const texts = await Promise.all(batch.map((path) => this.readIfChanged(path, cached?.get(path))));
      batch.forEach((path, i) => {
        const read = texts[i];
        if (read === null) this.forget(path);
        else if (read !== undefined) this.addNote(path, read.text, read.size, read.mtime);
      });
      if (await slicer.maybeYield()) this.options.onProgress?.({ done: at + batch.length, total: notes.length });
    }
    this.backlinks = null;
    this.options.onProgress?.({ done: notes.length, total: notes.length });
  }

  /**
   * Loads the saved index, if there is a readable one of this version: its notes (with the size and
   * mtime they had) and its full-text index. Anything unreadable means a full rebuild, never an error.
   */
  private async loadCache(): Promise<Map<string, IndexedNote> | null> {
    const file = this.options.cacheFile;
    if (file === undefined) return null;
    try {
      const text = await readTextIfExists(this.vault, file);
      if (text === null) return null;
      const cache = JSON.parse(text) as CacheFile;
      if (cache.version !== CACHE_VERSION || !Array.isArray(cache.notes)) return null;
      const search = MiniSearch.loadJS<SearchDocument>(cache.search, SEARCH_OPTIONS);
      const loaded = new Map<string, IndexedNote>();
      for (const entry of cache.notes) {
        const text = entry.whole ? entry.head : entry.head + entry.parsed.body;
        loaded.set(entry.path, {
          path: entry.path,
          parsed: entry.parsed,
          size: entry.size,
          mtime: entry.mtime,
          head: entry.head,
          whole: entry.whole,
          properties: entry.parsed.properties,
          tags: entry.parsed.tags,
          lines: text.split('\n'),
          outgoing: [],
        });
      }
      this.search = search;
      for (const [path, note] of loaded) {
        this.notes.set(path, note);
        this.resolver.setAliases(path, note.parsed.aliases);
      }
      return loaded;
    } catch {
      this.notes.clear();
      this.search = new MiniSearch<SearchDocument>(SEARCH_OPTIONS);
      return null;
    }
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
    if (this.dirty.size === 0) return;
    const paths = [...this.dirty];
    this.dirty.clear();
    for (const path of paths) {
      const info = await this.vault.stat(path);
      if (info === null) {
        this.forget(path);
        for (const known of [...this.notes.keys()]) if (known.startsWith(`${path}/`)) this.forget(known);
      } else if (info.kind === 'folder') {
        for (const file of await walkFiles(this.vault, path)) {
          this.resolver.addFile(file);
          if (isNote(file)) await this.indexNote(file);
        }
      } else {
        if (!this.resolver.has(path)) this.backlinks = null;
        this.resolver.addFile(path);
        if (isNote(path)) await this.indexNote(path);
      }
    }
  }

  /** The note's text and stat; `undefined` when the saved copy is current, null when it cannot be read. */
  private async readIfChanged(path: string, known: IndexedNote | undefined): Promise<{ text: string; size: number; mtime: number } | null | undefined> {
    try {
      const stat = await this.vault.stat(path);
      if (stat === null) return null;
      if (known !== undefined && stat.size === known.size && stat.mtime === known.mtime) return undefined;
      return { text: await this.vault.readText(path), size: stat.size, mtime: stat.mtime };
    } catch {
      return null;
    }
  }

  private async indexNote(path: string): Promise<void> {
    const read = await this.readIfChanged(path, undefined);
    if (read === null || read === undefined) this.forget(path);
    else this.addNote(path, read.text, read.size, read.mtime);
  }

  private addNote(path: string, text: string, size: number, mtime: number): void {
    const parsed = parseNote(text);
    const previous = this.notes.get(path);
    const whole = !text.endsWith(parsed.body);
    const note: IndexedNote = {
      path,
      parsed,
      size,
      mtime,
      head: whole ? text : text.slice(0, text.length - parsed.body.length),
      whole,
      properties: parsed.properties,
      tags: parsed.tags,
      lines: text.split('\n'),
      outgoing: [],
    };
    note.outgoing = this.resolveLinks(note);
    this.notes.set(path, note);
    this.resolver.setAliases(path, parsed.aliases);
    // `remove` with the indexed fields takes the old version out at once; `discard` would leave
    // stale term counts that shift scores until enough later searches clean them up.
    if (previous !== undefined) this.search.remove(searchDocument(path, previous.parsed));
    this.search.add(searchDocument(path, parsed));
    if (this.backlinks !== null) {
      // An edit changes only this note's own edges; aliases may change others' resolution.
      if (previous !== undefined && previous.parsed.aliases.join('\n') !== parsed.aliases.join('\n')) this.backlinks = null;
      else this.replaceEdges(path, previous, note);
    }
  }

  private forget(path: string): void {
    if (this.resolver.has(path)) this.backlinks = null;
    this.resolver.removeFile(path);
    const note = this.notes.get(path);
    if (note !== undefined) {
      this.notes.delete(path);
      this.search.remove(searchDocument(path, note.parsed));
    }
  }

  private replaceEdges(path: string, previous: IndexedNote | undefined, next: IndexedNote): void {
    const reverse = this.backlinks as Map<string, Set<string>>;
    for (const edge of previous?.outgoing ?? []) reverse.get(edge.target)?.delete(path);
    for (const edge of next.outgoing) {
      if (edge.target === path) continue;
      const set = reverse.get(edge.target) ?? new Set<string>();
      set.add(path);
      reverse.set(edge.target, set);
    }
  }

  /** Each link's file, or its text when nothing matches. */
  private resolveLinks(note: IndexedNote): IndexedNote['outgoing'] {
    return note.parsed.links.map((link) => ({ target: this.resolver.resolve(link.target, note.path) ?? link.target, line: link.line }));
  }

  /** Target → notes linking to it; rebuilt after files come or go (links may resolve differently). */
  private reverse(): Map<string, Set<string>> {
    if (this.backlinks !== null) return this.backlinks;
    const reverse = new Map<string, Set<string>>();
    for (const note of this.notes.values()) {
      note.outgoing = this.resolveLinks(note);
      for (const edge of note.outgoing) {
        if (edge.target === note.path) continue;
        const set = reverse.get(edge.target) ?? new Set<string>();
        set.add(note.path);
        reverse.set(edge.target, set);
      }
    }
    this.backlinks = reverse;
    return reverse;
  }
}

function searchDocument(path: string, parsed: ParsedNote): SearchDocument {
  return { id: path, title: baseName(path), headings: parsed.headings.map((heading) => heading.text).join('\n'), body: parsed.body };
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
