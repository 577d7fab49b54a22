import type * as Obsidian from 'obsidian';
import type { FileSystemAdapter } from './adapter';
import { TAbstractFile, TFile, TFolder } from './files';
import { isUnindexedPath, parentPath, ROOT_PATH } from './paths';
import type { Vault } from './vault';

/** One file or folder found on disk by a scan. */
export interface ScannedEntry {
  path: string;
  kind: 'file' | 'folder';
  stat: Obsidian.FileStats;
}

/**
 * The vault's in-memory tree of `TFile`/`TFolder`, keyed by path; the root folder is `/`.
 * It changes only when told to; the `Vault` decides when, and fires the events.
 */
export class VaultIndex {
  readonly root: TFolder;
  private readonly entries = new Map<string, TAbstractFile>();

  constructor(private readonly vault: Vault) {
    this.root = new TFolder(vault, ROOT_PATH, null);
    this.entries.set(ROOT_PATH, this.root);
  }

  get(path: string): TAbstractFile | null {
    return this.entries.get(path) ?? null;
  }

  all(): TAbstractFile[] {
    return [...this.entries.values()];
  }

  /** Adds an entry whose parent folder is already indexed. */
  add(path: string, kind: 'file' | 'folder', stat: Obsidian.FileStats): TAbstractFile {
    const parent = this.entries.get(parentPath(path));
    if (!(parent instanceof TFolder)) throw new Error(`Cannot index "${path}": its parent folder is not indexed.`);
    const entry = kind === 'folder' ? new TFolder(this.vault, path, parent) : new TFile(this.vault, path, parent, stat);
    parent.children.push(entry);
    this.entries.set(path, entry);
    return entry;
  }

  /** Drops an entry and everything under it; returns what was dropped, deepest first. */
  remove(entry: TAbstractFile): TAbstractFile[] {
    const removed = subtree(entry).reverse();
    for (const item of removed) this.entries.delete(item.path);
    detach(entry);
    return removed;
  }

  /**
   * Gives an entry a new path under an indexed folder, and its descendants theirs; returns each
   * moved entry with its old path, outermost first.
   */
  move(entry: TAbstractFile, newPath: string): Array<{ file: TAbstractFile; oldPath: string }> {
    const newParent = this.entries.get(parentPath(newPath));
    if (!(newParent instanceof TFolder)) throw new Error(`Cannot move to "${newPath}": its parent folder is not indexed.`);
    const moved = subtree(entry).map((file) => ({ file, oldPath: file.path }));
    for (const { file } of moved) this.entries.delete(file.path);
    detach(entry);
    entry.parent = newParent;
    newParent.children.push(entry);
    const oldPrefix = entry.path;
    for (const { file, oldPath } of moved) {
      file.setPath(newPath + oldPath.slice(oldPrefix.length));
      this.entries.set(file.path, file);
    }
    return moved;
  }
}

/** Every indexable file and folder under `folder` on disk, outermost first. */
export async function scanFolder(adapter: FileSystemAdapter, configDir: string, folder = ROOT_PATH): Promise<ScannedEntry[]> {
  const found: ScannedEntry[] = [];
  const { files, folders } = await adapter.list(folder);
  for (const path of [...folders, ...files].sort()) {
    if (isUnindexedPath(path, configDir)) continue;
    const stat = await adapter.stat(path);
    if (stat === null) continue; // Removed while scanning.
    found.push({ path, kind: stat.type, stat: { ctime: stat.ctime, mtime: stat.mtime, size: stat.size } });
    if (stat.type === 'folder') found.push(...(await scanFolder(adapter, configDir, path)));
  }
  return found;
}

function subtree(entry: TAbstractFile): TAbstractFile[] {
  if (!(entry instanceof TFolder)) return [entry];
  return [entry, ...entry.children.flatMap(subtree)];
}

function detach(entry: TAbstractFile): void {
  const siblings = entry.parent?.children;
  if (siblings === undefined) return;
  const at = siblings.indexOf(entry);
  if (at >= 0) siblings.splice(at, 1);
}
