import type { Slicer } from '../util/Slicer';
import { StringMap, StringSet } from '../util/StringMap';
import { LinkResolver } from './resolveLink';
import { SetsByKey } from './setsByKey';

/** A note's links in order, read by position (`NoteFacts` keeps them packed, not as objects). */
export interface LinkList {
  readonly linkCount: number;
  linkTarget(i: number): string;
  linkLine(i: number): number;
}

/** A resolved link: the file it points to (or its text, when nothing matches) and its line. */
export interface LinkEdge {
  target: string;
  line: number;
}

/**
 * The vault's links, resolved, in both directions, kept current one change at a time. A link can
 * only resolve differently when a file with its name comes or goes, or an alias with its name
 * changes, so each change re-resolves just the notes that may have links of that name — never the
 * vault. Those are found from what the graph holds anyway: a link of a name resolves to a file or
 * an alias of that name, or to nothing (`unresolved`), so no index of every link by name is kept.
 */
export class LinkGraph {
  private readonly resolver = new LinkResolver();
  private readonly links = new Map<string, LinkList>();
  private readonly aliases = new Map<string, readonly string[]>();
  /**
   * Note → the file each of its links resolved to (or the link's text), in the order of its links:
   * strings alone, as the lines are the links' own (`outgoingOf` pairs them when asked).
   */
  private readonly outgoing = new Map<string, readonly string[]>();
  /** Target → the notes linking to it. */
  private readonly incoming = new SetsByKey();
  /**
   * Link name (see `nameKey`) → the link texts of that name that resolved to no file, whose notes
   * are in `incoming` under the text. A text can outlive its last link here; it is dropped when read.
   */
  private readonly unresolved = new SetsByKey(StringSet);
  /** Alias name (see `nameKey`) → the notes with an alias of that name. */
  private readonly aliasNames = new SetsByKey();
  /**
   * Link name → notes with a link of that name that resolved to a file of another name, not by an
   * alias (a text with `.` or `..` in it, say): found here, as no file or alias of its name leads
   * to them. A note can outlive such a link here; it is then resolved again for nothing.
   */
  private readonly oddlyResolved = new SetsByKey();
  /** Notes with a link whose name its text does not tell (it ends in `.` or `..`): resolved again on every change of name. */
  private readonly anyName = new Set<string>();
  /**
   * Link text → its `nameKey`, remembered: a vault's links name far fewer pages than there are
   * links, and one key string per name is also quicker to look up than a new one per link.
   */
  private readonly linkKeys = new StringMap<string>();
  /** Counts changes to the files and edges, so a reader that yields can tell whether they moved under it. */
  private changes = 0;
  /** While building, links are stored but resolved only once every file and alias is known. */
  private deferred = false;
  /** Notes whose links came resolved (`restoreNote`) in this bulk load. */
  private readonly restored = new Set<string>();
  /** Whether the restored resolutions still hold: no file came or went and no alias changed since the first. */
  private restoredHold = true;

  /** Starts a bulk load: notes are recorded, and resolved together by `resolveAll`. */
  beginBulk(): void {
    this.deferred = true;
    this.restored.clear();
    this.restoredHold = true;
  }

  /**
   * Resolves the notes' links (after `beginBulk`), in slices: those restored resolved are kept
   * while their resolutions hold, every note's otherwise.
   */
  async resolveAll(slicer: Slicer): Promise<void> {
    this.deferred = false;
    const keep = this.restoredHold ? this.restored : new Set<string>();
    if (keep.size === 0) {
      this.incoming.clear();
      this.unresolved.clear();
      this.oddlyResolved.clear();
      this.anyName.clear();
    }
    for (const path of this.links.keys()) {
      if (keep.has(path)) continue;
      this.resolveNote(path);
      await slicer.maybeYield();
    }
    this.restored.clear();
    // Worth its memory while every link is resolved; a change afterwards looks up a few names.
    this.linkKeys.clear();
  }

  /**
   * Records a note as a saved graph had it, its links already resolved (`targets[i]` for
   * `links[i]`), during a bulk load. The caller vouches that the files are those the targets were
   * resolved among; any file or alias that changes afterwards has `resolveAll` resolve every note.
   */
  restoreNote(path: string, links: LinkList, aliases: readonly string[], targets: (index: number) => string): void {
    if (!this.deferred) throw new Error('restoreNote is for bulk loads');
    this.record(path, links, aliases);
    const resolved: string[] = [];
    this.anyName.delete(path);
    for (let i = 0; i < links.linkCount; i++) {
      const text = links.linkTarget(i);
      const target = targets(i);
      // Saved as resolving to no file: the link's own text, which names no file.
      this.track(path, text, target === text && !this.resolver.has(target) ? null : target);
      resolved.push(target);
    }
    this.outgoing.set(path, resolved);
    for (const target of resolved) if (target !== path) this.incoming.add(target, path);
    this.restored.add(path);
  }

  /** A number that differs whenever the files or any note's edges have changed since it was read. */
  get version(): number {
    return this.changes;
  }

  /** Every file, notes and others. */
  files(): IterableIterator<string> {
    return this.resolver.files();
  }

  hasFile(path: string): boolean {
    return this.resolver.has(path);
  }

  resolve(target: string, fromPath: string): string | null {
    return this.resolver.resolve(target, fromPath);
  }

  addFile(path: string): void {
    if (this.resolver.has(path)) return;
    this.unsettleRestored();
    this.changes += 1;
    this.resolver.addFile(path);
    if (!this.deferred) this.resolveAgain(this.sourcesNamed([nameKey(path)]));
  }

  removeFile(path: string): void {
    if (!this.resolver.has(path)) return;
    this.unsettleRestored();
    this.changes += 1;
    // Those linking to it, found while it is still a file of its name.
    const sources = this.deferred ? null : this.sourcesNamed([nameKey(path)]);
    this.removeNote(path);
    this.resolver.removeFile(path);
    if (sources !== null) this.resolveAgain(sources);
  }

  /** Records a note's links and aliases (its file must have been added). */
  setNote(path: string, links: LinkList, aliases: readonly string[]): void {
    const before = this.aliases.get(path) ?? EMPTY;
    const aliasesChanged = before.length !== aliases.length || before.some((alias, i) => alias !== aliases[i]);
    // Those whose links may answer to the aliases, found while the old ones are still recorded.
    const sources = aliasesChanged && !this.deferred ? this.sourcesNamed([...before, ...aliases].map(nameKey)) : null;
    this.record(path, links, aliases);
    if (this.deferred) {
      this.restored.delete(path);
      if (aliasesChanged) this.unsettleRestored();
      return;
    }
    this.resolveNote(path);
    if (sources !== null) this.resolveAgain(sources);
  }

  /** Stores a note's links and aliases, unresolved. */
  private record(path: string, links: LinkList, aliases: readonly string[]): void {
    this.dropEdges(path);
    this.links.set(path, links);
    this.setAliasNames(path, aliases);
    if (aliases.length === 0) this.aliases.delete(path);
    else this.aliases.set(path, aliases);
    this.resolver.setAliases(path, aliases);
  }

  private setAliasNames(path: string, aliases: readonly string[]): void {
    for (const alias of this.aliases.get(path) ?? EMPTY) this.aliasNames.delete(nameKey(alias), path);
    for (const alias of aliases) this.aliasNames.add(nameKey(alias), path);
  }

  /** A file or alias changed during a bulk load: restored resolutions no longer hold. */
  private unsettleRestored(): void {
    if (this.deferred && this.restored.size > 0) this.restoredHold = false;
  }

  /** Forgets a note's links and aliases; the file itself stays (see `removeFile`). */
  removeNote(path: string): void {
    if (!this.links.has(path)) return;
    const before = this.aliases.get(path) ?? EMPTY;
    const sources = !this.deferred && before.length > 0 ? this.sourcesNamed(before.map(nameKey)) : null;
    this.dropEdges(path);
    this.links.delete(path);
    this.anyName.delete(path);
    this.setAliasNames(path, EMPTY);
    this.aliases.delete(path);
    this.resolver.setAliases(path, []);
    this.restored.delete(path);
    if (before.length > 0) this.unsettleRestored();
    if (sources !== null) this.resolveAgain(sources);
  }

  /** The note's links, resolved, in order (made on each call: the graph keeps only the targets). */
  outgoingOf(path: string): readonly LinkEdge[] {
    const targets = this.outgoing.get(path);
    if (targets === undefined) return [];
    const links = this.links.get(path) ?? NO_LINKS;
    return targets.map((target, i) => ({ target, line: links.linkLine(i) }));
  }

  /** The files (or link texts) the note's links resolved to, in the order of its links. */
  targetsOf(path: string): readonly string[] {
    return this.outgoing.get(path) ?? EMPTY;
  }

  incomingOf(target: string): readonly string[] {
    return this.incoming.values(target);
  }

  /** Every target with its linking notes: resolved paths and unresolved link texts. */
  targets(): IterableIterator<[string, readonly string[]]> {
    return this.incoming.entries();
  }

  private linkKey(target: string): string {
    let key = this.linkKeys.get(target);
    if (key === undefined) {
      // Only a bound on memory: the names of a vault's links fit many times over.
      if (this.linkKeys.size >= MAX_LINK_KEYS) this.linkKeys.clear();
      this.linkKeys.set(target, (key = nameKey(target)));
    }
    return key;
  }

  private resolveNote(path: string): void {
    this.dropEdges(path);
    const links = this.links.get(path) ?? NO_LINKS;
    const targets: string[] = [];
    this.anyName.delete(path);
    for (let i = 0; i < links.linkCount; i++) {
      const text = links.linkTarget(i);
      const target = this.resolver.resolve(text, path);
      this.track(path, text, target);
      targets.push(target ?? text);
    }
    this.outgoing.set(path, targets);
    for (const target of targets) if (target !== path) this.incoming.add(target, path);
  }

  /** Records what `sourcesNamed` needs of a link of `path` to `text` that resolved to `target` (null: none). */
  private track(path: string, text: string, target: string | null): void {
    // A plain name resolves to a file (or an alias) of its own name: only a path can lead elsewhere.
    const plain = !text.includes('/') && text.trimStart().charCodeAt(0) !== DOT;
    if (target !== null && plain) return;
    const name = this.linkKey(text);
    if (name === '.' || name === '..') this.anyName.add(path);
    if (target === null) this.unresolved.add(name, text);
    else if (!this.resolver.isFileNamed(name, target) && !this.aliasNames.has(name, target)) this.oddlyResolved.add(name, path);
  }

  /**
   * The notes whose links may resolve differently once a file or alias of one of `names` comes or
   * goes: those linking to a file or alias of such a name (and those files' own notes, as a note's
   * links to itself are not in `incoming`), and those with such a name unresolved.
   */
  private sourcesNamed(names: readonly string[]): Set<string> {
    const sources = new Set(this.anyName);
    const linkingTo = (target: string): void => {
      for (const source of this.incoming.values(target)) sources.add(source);
    };
    for (const name of new Set(names)) {
      for (const file of [...this.resolver.filesNamed(name), ...this.aliasNames.values(name)]) {
        linkingTo(file);
        if (this.links.has(file)) sources.add(file);
      }
      for (const source of this.oddlyResolved.values(name)) sources.add(source);
      for (const text of this.unresolved.values(name)) {
        if (this.incoming.size(text) > 0) linkingTo(text);
        else this.unresolved.delete(name, text);
      }
    }
    return sources;
  }

  /** Resolves again the links of those of `sources` that are still notes. */
  private resolveAgain(sources: ReadonlySet<string>): void {
    for (const source of sources) if (this.links.has(source)) this.resolveNote(source);
  }

  private dropEdges(path: string): void {
    this.changes += 1;
    for (const target of this.outgoing.get(path) ?? []) this.incoming.delete(target, path);
    this.outgoing.delete(path);
  }
}

const EMPTY: readonly string[] = [];
const NO_LINKS: LinkList = { linkCount: 0, linkTarget: () => '', linkLine: () => 0 };
const MAX_LINK_KEYS = 200_000;

/**
 * The name a link or file is known by: its last path segment, lower-cased, without `.md`. A file
 * can only answer links (and aliases) with its own name, so this is what a change is looked up by.
 */
function nameKey(text: string): string {
  // Plain string steps, not regular expressions: this runs for every link of a vault on a load.
  const trimmed = text.trim();
  let end = trimmed.length;
  while (end > 0 && trimmed.charCodeAt(end - 1) === SLASH) end -= 1;
  const name = trimmed.slice(trimmed.lastIndexOf('/', end - 1) + 1, end).toLowerCase();
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

const SLASH = 0x2f;
const DOT = 0x2e;

