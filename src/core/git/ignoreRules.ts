import ignore, { type Ignore } from 'ignore';
import { readTextIfExists, type VaultPort } from '../ports';

/**
 * Git's ignore rules for a working tree: `.git/info/exclude`, then the root `.gitignore`, then
 * each nested `.gitignore` for the paths below it, the deeper file winning — and nothing inside
 * an ignored folder can be re-included, as in git.
 */
export class IgnoreRules {
  private constructor(private readonly layers: readonly { folder: string; rules: Ignore }[]) {}

  /** `gitignoreFiles` are the vault paths of every `.gitignore` in the working tree. */
  static async load(vault: VaultPort, gitignoreFiles: readonly string[], gitdir = '.git'): Promise<IgnoreRules> {
    const layers: { folder: string; rules: Ignore }[] = [];
    const exclude = await readTextIfExists(vault, `${gitdir}/info/exclude`);
    if (exclude !== null) layers.push({ folder: '', rules: ignore().add(exclude) });
    const byDepth = [...gitignoreFiles].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    for (const file of byDepth) {
      const text = await readTextIfExists(vault, file);
      if (text === null) continue;
      const slash = file.lastIndexOf('/');
      layers.push({ folder: slash < 0 ? '' : file.slice(0, slash), rules: ignore().add(text) });
    }
    return new IgnoreRules(layers);
  }

  /** The rules that decide `paths`: `.git/info/exclude` and the `.gitignore` of every folder above each path. */
  static async forPaths(vault: VaultPort, paths: Iterable<string>, gitdir = '.git'): Promise<IgnoreRules> {
    const files = new Set<string>();
    for (const path of paths) {
      const segments = path.split('/');
      for (let depth = 0; depth < segments.length; depth++) files.add([...segments.slice(0, depth), '.gitignore'].join('/'));
    }
    return IgnoreRules.load(vault, [...files], gitdir);
  }

  static none(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** Whether git ignores the file (or, with `isFolder`, the folder) at `path`. */
  isIgnored(path: string, isFolder = false): boolean {
    if (path === '.git' || path.startsWith('.git/')) return true;
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      if (this.decide(segments.slice(0, depth).join('/'), true)) return true;
    }
    return this.decide(path, isFolder);
  }

  private decide(path: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const { folder, rules } of this.layers) {
      if (folder !== '' && !path.startsWith(`${folder}/`)) continue;
      const relative = (folder === '' ? path : path.slice(folder.length + 1)) + (isFolder ? '/' : '');
      const verdict = rules.test(relative);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}
