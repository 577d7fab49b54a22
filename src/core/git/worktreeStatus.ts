import type { VaultChange, VaultStat } from '../ports';
import { walkFiles } from '../ports';
import { sortByCodePoints } from '../util/compareCodePoints';
import { hashBlob } from './objectHash';
import { IgnoreRules } from './ignoreRules';
import type { IndexEntry } from './indexFile';
import { statMatches, tickOf, type IndexSnapshot } from './indexState';
import { modeString } from './treeObjects';
import type { GitRepository } from './repository';

const STAT_BATCH = 64;

/**
 * Which paths differ between HEAD, the index and the working tree — what `git status` lists —
 * kept current from vault change events so asking costs next to nothing.
 *
 * A full check (every file stat-ed, hashed only when size or mtime disagree with the index) sets
 * the baseline; afterwards only the paths events name are looked at again, plus the paths a
 * changed HEAD or index affects (another git program may commit or stage at any time: both files
 * are stat-ed on every call). Changes no event reports — files other programs touch while the
 * Node runtime runs without a watcher, hidden files in Obsidian — are found by the next full
 * check, which the host runs in the background.
 */
export class WorktreeStatus {
  private changed = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly dirtyFolders = new Set<string>();
  /** Files hashed and found equal to their index entry, by the stat they had then (older than a tick). */
  private readonly verified = new Map<string, { oid: string; size: number; mtime: number }>();
  private baseline: { head: string | null; index: IndexSnapshot; ignore: IgnoreRules } | null = null;

  constructor(private readonly repo: GitRepository) {}

  /** Feeds a vault change event. */
  noteChange(change: VaultChange): void {
    const paths = change.type === 'rename' ? [change.oldPath, change.path] : [change.path];
    for (const path of paths) {
      if (path === '.git' || path.startsWith('.git/')) continue;
      if (path === '.gitignore' || path.endsWith('/.gitignore') || (change.kind === 'folder' && change.type !== 'create')) {
        // Ignore rules or a whole subtree changed: cheaper and surer to look at everything again.
        this.baseline = null;
      }
      if (change.kind === 'folder') this.dirtyFolders.add(path);
      else this.dirty.add(path);
    }
  }

  /** Forgets the baseline: the next call runs a full check. */
  invalidate(): void {
    this.baseline = null;
  }

  /** Every created, modified, deleted or staged path, sorted. */
  async changedFiles(): Promise<string[]> {
    if (this.baseline === null) await this.fullCheck();
    else await this.catchUp(this.baseline);
    return sortByCodePoints([...this.changed]);
  }

  /** Recomputes everything from HEAD, the index and every file in the working tree. */
  async fullCheck(): Promise<void> {
    this.dirty.clear();
    this.dirtyFolders.clear();
    const head = (await this.repo.head()).oid;
    const headFiles = await this.repo.trees.flatten(await this.repo.treeOf(head));
    const index = await this.repo.index.read();
    const tracked = new Set(index.byPath.keys());
    const worktree = await walkFiles(this.repo.vault, '', (folder) => folder !== '.git');
    const ignore = await IgnoreRules.load(
      this.repo.vault,
      worktree.filter((path) => path === '.gitignore' || path.endsWith('/.gitignore')),
    );
    const changed = new Set<string>(index.conflicted);
    const onDisk = new Set<string>();
    for (let at = 0; at < worktree.length; at += STAT_BATCH) {
      const batch = worktree.slice(at, at + STAT_BATCH);
      const stats = await Promise.all(batch.map((path) => this.repo.vault.stat(path)));
      await Promise.all(
        batch.map(async (path, i) => {
          const stat = stats[i];
          if (stat?.kind !== 'file') return;
          onDisk.add(path);
          const entry = index.byPath.get(path);
          if (entry === undefined) {
            if (headFiles.has(path) || !ignore.isIgnored(path)) changed.add(path);
          } else if (!sameAsHead(entry, headFiles.get(path)) || !(await this.matchesEntry(path, entry, stat, index))) {
            changed.add(path);
          }
        }),
      );
    }
    for (const path of tracked) if (!onDisk.has(path)) changed.add(path);
    for (const path of headFiles.keys()) if (!tracked.has(path)) changed.add(path);
    this.changed = changed;
    this.baseline = { head, index, ignore };
  }

  private async catchUp(baseline: NonNullable<WorktreeStatus['baseline']>): Promise<void> {
    const head = (await this.repo.head()).oid;
    const index = await this.repo.index.read();
    const paths = new Set(this.dirty);
    this.dirty.clear();
    const folders = [...this.dirtyFolders];
    this.dirtyFolders.clear();
    try {
      if (head !== baseline.head) {
        for (const path of await diffTrees(this.repo, await this.repo.treeOf(baseline.head), await this.repo.treeOf(head))) paths.add(path);
      }
      if (index !== baseline.index) for (const path of diffIndexes(baseline.index, index)) paths.add(path);
      for (const folder of folders) for (const path of await this.knownUnder(folder, head, index)) paths.add(path);
      const headTree = await this.repo.treeOf(head);
      for (const path of paths) {
        if (await this.isChanged(path, headTree, index, baseline.ignore)) this.changed.add(path);
        else this.changed.delete(path);
      }
      this.baseline = { ...baseline, head, index };
    } catch (error) {
      this.baseline = null;
      throw error;
    }
  }

  private async isChanged(path: string, headTree: string | null, index: IndexSnapshot, ignore: IgnoreRules): Promise<boolean> {
    if (index.conflicted.has(path)) return true;
    const entry = index.byPath.get(path);
    const inHead = await this.repo.trees.lookup(headTree, path);
    const stat = await this.repo.vault.stat(path);
    if (entry === undefined) return inHead !== null || (stat?.kind === 'file' && !ignore.isIgnored(path));
    if (!sameAsHead(entry, inHead ?? undefined) || stat?.kind !== 'file') return true;
    return !(await this.matchesEntry(path, entry, stat, index));
  }

  private async matchesEntry(path: string, entry: IndexEntry, stat: VaultStat, index: IndexSnapshot): Promise<boolean> {
    if (statMatches(entry, stat, index.file?.mtime ?? null)) return true;
    const known = this.verified.get(path);
    if (known !== undefined && known.oid === entry.oid && known.size === stat.size && known.mtime === stat.mtime) return true;
    const readAt = Date.now();
    const oid = await hashBlob(await this.repo.vault.readBinary(path));
    if (oid !== entry.oid) return false;
    // Saved again within its mtime's tick, a file may keep its size and mtime: only an older
    // file's stat stands for the bytes just read (git's racy-clean rule, for this cache).
    if (readAt - stat.mtime >= tickOf(stat.mtime)) this.verified.set(path, { oid, size: stat.size, mtime: stat.mtime });
    return true;
  }

  private async knownUnder(folder: string, head: string | null, index: IndexSnapshot): Promise<Set<string>> {
    const prefix = `${folder}/`;
    const paths = new Set<string>();
    for (const path of this.changed) if (path.startsWith(prefix)) paths.add(path);
    for (const path of index.byPath.keys()) if (path.startsWith(prefix)) paths.add(path);
    for (const path of await this.repo.trees.filesUnder(await this.repo.treeOf(head), folder)) paths.add(path);
    const info = await this.repo.vault.stat(folder);
    if (info?.kind === 'folder') for (const path of await walkFiles(this.repo.vault, folder)) paths.add(path);
    if (info?.kind === 'file') paths.add(folder);
    return paths;
  }
}

function sameAsHead(entry: IndexEntry, head: { oid: string; mode: string } | undefined): boolean {
  return head !== undefined && !entry.intentToAdd && head.oid === entry.oid && head.mode === modeString(entry.mode);
}

/** Paths whose blob differs between two trees; subtrees with the same id are skipped whole. */
export async function diffTrees(repo: GitRepository, a: string | null, b: string | null, prefix = ''): Promise<string[]> {
  if (a === b) return [];
  const inA = new Map((a === null ? [] : await repo.trees.read(a)).map((entry) => [entry.name, entry]));
  const inB = new Map((b === null ? [] : await repo.trees.read(b)).map((entry) => [entry.name, entry]));
  const paths: string[] = [];
  for (const name of new Set([...inA.keys(), ...inB.keys()])) {
    const l = inA.get(name);
    const r = inB.get(name);
    if (l?.oid === r?.oid && l?.mode === r?.mode) continue;
    const lTree = l?.mode === '40000' ? l.oid : null;
    const rTree = r?.mode === '40000' ? r.oid : null;
    if (lTree !== null || rTree !== null) paths.push(...(await diffTrees(repo, lTree, rTree, `${prefix}${name}/`)));
    if ((l !== undefined && lTree === null) || (r !== undefined && rTree === null)) paths.push(prefix + name);
  }
  return paths;
}

function diffIndexes(a: IndexSnapshot, b: IndexSnapshot): Set<string> {
  const paths = new Set<string>([...a.conflicted, ...b.conflicted]);
  for (const [path, entry] of b.byPath) {
    const before = a.byPath.get(path);
    if (before === undefined || before.oid !== entry.oid || before.mode !== entry.mode || before.mtimeSeconds !== entry.mtimeSeconds
      || before.mtimeNanoseconds !== entry.mtimeNanoseconds || before.size !== entry.size || before.intentToAdd !== entry.intentToAdd) {
      paths.add(path);
    }
  }
  for (const path of a.byPath.keys()) if (!b.byPath.has(path)) paths.add(path);
  return paths;
}
