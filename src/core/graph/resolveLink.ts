import { compareCodePoints } from '../util/compareCodePoints';
import { StringMap } from '../util/StringMap';
import { SetsByKey } from './setsByKey';

/**
 * The files of a vault, indexed for resolving link text the way Obsidian does: by full or
 * relative path, by name when unique, by the shortest matching path, case-insensitively, and
 * finally through aliases. Paths are vault-relative; notes are `.md` files.
 */
export class LinkResolver {
  /** Lower-case path → path, for every file. */
  private readonly byPath = new StringMap<string>();
  /** Lower-case file name without `.md` for notes (with its extension otherwise) → paths. */
  private readonly byName = new SetsByKey();
  /** Lower-case alias → note paths. */
  private readonly byAlias = new SetsByKey();
  private readonly aliasesOf = new Map<string, readonly string[]>();
  /** Answers since the files last changed, by linking folder and text: a vault resolves the same few names again and again. */
  private readonly answers = new StringMap<string | null>();
  /** Answers that hold from every folder (a plain name matching at most one file or alias), by text. */
  private readonly answersAnywhere = new StringMap<string | null>();

  addFile(path: string): void {
    if (this.byPath.get(path.toLowerCase()) === path) return;
    this.forgetAnswers();
    this.byPath.set(path.toLowerCase(), path);
    this.byName.add(nameKey(path), path);
  }

  removeFile(path: string): void {
    this.forgetAnswers();
    this.byPath.delete(path.toLowerCase());
    this.byName.delete(nameKey(path), path);
    this.setAliases(path, []);
  }

  setAliases(path: string, aliases: readonly string[]): void {
    const before = this.aliasesOf.get(path) ?? [];
    if (before.length === aliases.length && before.every((alias, i) => alias === aliases[i])) return;
    this.forgetAnswers();
    for (const alias of before) this.byAlias.delete(alias.toLowerCase(), path);
    if (aliases.length === 0) this.aliasesOf.delete(path);
    else this.aliasesOf.set(path, aliases);
    for (const alias of aliases) this.byAlias.add(alias.toLowerCase(), path);
  }

  private forgetAnswers(): void {
    this.answers.clear();
    this.answersAnywhere.clear();
  }

  files(): IterableIterator<string> {
    return this.byPath.values();
  }

  /** The files of a name: the last part of their path, lower-cased, without `.md` for notes. */
  filesNamed(name: string): string[] {
    return this.byName.values(name);
  }

  /** Whether `path` is a file of that name. */
  isFileNamed(name: string, path: string): boolean {
    return this.byName.has(name, path);
  }

  has(path: string): boolean {
    return this.byPath.has(path.toLowerCase());
  }

  /** The file `target` (link text without `#subpath`) points to from `fromPath`, or null. */
  resolve(target: string, fromPath: string): string | null {
    let text = target.trim();
    if (text.startsWith('/')) text = text.replace(/^\/+/, '');
    if (text === '') return fromPath;
    const anywhere = this.answersAnywhere.get(text);
    if (anywhere !== undefined) return anywhere;
    const folder = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
    const key = `${folder}\0${text}`;
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    const answer = this.resolveUncached(text, folder);
    if (this.sameFromEveryFolder(text)) this.answersAnywhere.set(text, answer);
    else this.answers.set(key, answer);
    return answer;
  }

  /**
   * Whether `text` resolves the same from every folder: a plain name (no folder, not relative)
   * that at most one file and at most one alias answer to. The folder only picks among several.
   */
  private sameFromEveryFolder(text: string): boolean {
    if (text.includes('/') || text.startsWith('.')) return false;
    return this.byName.size(text.toLowerCase().replace(/\.md$/, '')) <= 1 && this.byAlias.size(text.toLowerCase()) <= 1;
  }

  private resolveUncached(text: string, folder: string): string | null {
    const withMd = /\.[A-Za-z0-9]{1,8}$/.test(text) && !text.toLowerCase().endsWith('.md') ? [text] : [text.replace(/\.md$/i, '') + '.md', text];
    // A path relative to the linking note's folder first (a note beside it wins), then from the vault root.
    for (const candidate of withMd) {
      const found = this.byPath.get(joinPath(folder, candidate).toLowerCase());
      if (found !== undefined) return found;
    }
    if (text.startsWith('./') || text.startsWith('../')) return null;
    for (const candidate of withMd) {
      const found = this.byPath.get(candidate.toLowerCase());
      if (found !== undefined) return found;
    }
    // By name: the files whose path ends with the link text, nearest first.
    const lastSegment = text.slice(text.lastIndexOf('/') + 1);
    const names = this.byName.values(lastSegment.toLowerCase().replace(/\.md$/, ''));
    const suffixes = withMd.map((candidate) => `/${candidate.toLowerCase()}`);
    const matches = names.filter((path) => {
      const lower = `/${path.toLowerCase()}`;
      return suffixes.some((suffix) => lower.endsWith(suffix));
    });
    const best = nearest(matches, folder);
    if (best !== null) return best;
    return nearest(this.byAlias.values(text.toLowerCase()), folder);
  }
}

/** One of `paths`: the one in `folder` itself if any, else the shortest path, then the first in order. */
function nearest(paths: string[], folder: string): string | null {
  if (paths.length === 0) return null;
  if (paths.length === 1) return paths[0] as string;
  const local = paths.find((path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '') === folder);
  if (local !== undefined) return local;
  return [...paths].sort((a, b) => a.split('/').length - b.split('/').length || a.length - b.length || compareCodePoints(a, b))[0] as string;
}

function nameKey(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}

function joinPath(folder: string, relative: string): string {
  const parts = folder === '' ? [] : folder.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}
