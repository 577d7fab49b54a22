import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** `rename` when a name appears or disappears, `change` when a file's content changes (as `fs.watch` says). */
export type WatchEvent = 'rename' | 'change';

export interface FolderWatchOptions {
  /** Whether a vault-relative path (file or folder) is left out: an ignored folder is not watched at all. */
  ignore: (path: string) => boolean;
  /** A change at a vault-relative path, `/`-separated. */
  onEvent: (event: WatchEvent, path: string) => void;
  /** Watching the whole tree failed; watching has stopped. */
  onError: () => void;
}

export interface FolderWatcher {
  close(): void;
}

/**
 * Watches a folder and everything under it. macOS and Windows watch a tree natively, with one
 * recursive `fs.watch`. Linux has no recursive watch: Node emulates one with a watcher and a kept
 * `Stats` for every file (at 50,000 notes, tens of megabytes and seconds of start-up), and walks
 * into `.git` too. inotify reports a folder's entries through one watch on the folder, so on Linux
 * each folder is watched, ignored folders never, and folders that appear are taken in as they do.
 */
export function watchFolderTree(root: string, options: FolderWatchOptions): FolderWatcher {
  return process.platform === 'linux' ? new FolderByFolderWatcher(root, options) : watchNatively(root, options);
}

function watchNatively(root: string, options: FolderWatchOptions): FolderWatcher {
  const watcher = watch(root, { recursive: true, persistent: false }, (event, name) => {
    if (typeof name !== 'string' || name === '') return;
    const path = name.split(sep).join('/');
    if (!options.ignore(path)) options.onEvent(event, path);
  });
  watcher.on('error', () => {
    watcher.close();
    options.onError();
  });
  return watcher;
}

class FolderByFolderWatcher implements FolderWatcher {
  /** One watcher per watched folder, by vault-relative path ('' for the root). */
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly options: FolderWatchOptions,
  ) {
    this.watchFolder('');
    void this.watchFoldersUnder('', false);
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Starts watching one folder; false when it cannot be (gone, ignored, or already watched). */
  private watchFolder(folder: string): boolean {
    if (this.closed || this.watchers.has(folder) || (folder !== '' && this.options.ignore(folder))) return false;
    let watcher: FSWatcher;
    try {
      watcher = watch(join(this.root, folder), { persistent: false }, (event, name) => {
        if (typeof name === 'string' && name !== '') this.changed(event, folder === '' ? name : `${folder}/${name}`);
      });
    } catch {
      if (folder === '') this.options.onError();
      return false;
    }
    watcher.on('error', () => (folder === '' ? this.fail() : this.forgetFolder(folder)));
    this.watchers.set(folder, watcher);
    return true;
  }

  /** Watches the folders under `folder`; `report` also reports every file found (a folder that just appeared). */
  private async watchFoldersUnder(folder: string, report: boolean): Promise<void> {
    let entries;
    try {
      entries = await readdir(join(this.root, folder), { withFileTypes: true });
    } catch {
      return; // Gone again: its own removal is reported by its parent's watcher.
    }
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      // Links are not followed: a linked folder is not the vault's (walks never enter one either).
      if (entry.isDirectory()) {
        if (this.watchFolder(path)) await this.watchFoldersUnder(path, report);
      } else if (report && !this.options.ignore(path)) {
        this.options.onEvent('rename', path);
      }
    }
  }

  private changed(event: WatchEvent, path: string): void {
    if (this.closed || this.options.ignore(path)) return;
    this.options.onEvent(event, path);
    if (event === 'rename') void this.followRename(path);
  }

  /** A name appeared or went: a new folder is watched (and its files reported), a gone one forgotten. */
  private async followRename(path: string): Promise<void> {
    const info = await lstat(join(this.root, path)).catch(() => null);
    if (info === null) this.forgetFolder(path);
    else if (info.isDirectory() && this.watchFolder(path)) await this.watchFoldersUnder(path, true);
  }

  private forgetFolder(folder: string): void {
    for (const [path, watcher] of this.watchers) {
      if (path === folder || path.startsWith(`${folder}/`)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
  }

  private fail(): void {
    this.close();
    this.options.onError();
  }
}
