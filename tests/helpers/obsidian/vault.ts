import type * as Obsidian from 'obsidian';
import { KeyedMutex } from '../../../src/core/util/KeyedMutex';
import { FileSystemAdapter } from './adapter';
import { Events, type EventRef } from './events';
import { TAbstractFile, TFile, TFolder } from './files';
import { ancestorsOf, isRootPath, isUnindexedPath, normalizePath, parentPath } from './paths';
import { scanFolder, VaultIndex, type ScannedEntry } from './vaultIndex';

/** Obsidian's default config folder; a vault may use another (`Vault.load(dir, { configDir })`). */
export const DEFAULT_CONFIG_DIR = '.obsidian';

export interface VaultLoadOptions {
  /** The config folder, left out of the index. Default `DEFAULT_CONFIG_DIR`. */
  configDir?: string;
}

/** Where a removed file goes: Obsidian's "Deleted files" setting. */
export type TrashOption = 'system' | 'local' | 'none';

/**
 * Obsidian's `Vault` over a real folder: an index of every file and folder under the root except
 * hidden paths (a segment starting with `.`) and the config folder, built by scanning the folder
 * in `Vault.load`. Its methods change the disk through the adapter, keep the index, and fire
 * `create` (new files and folders, parents included), `modify`, `delete` (the contents of a
 * folder, deepest first, then the folder) and `rename` (the entry, then each descendant, with
 * its old path).
 *
 * Obsidian's own messages where they matter: `create` on an existing path throws
 * `File already exists.`, `createFolder` on an existing folder `Folder already exists.`, `rename`
 * onto an existing path `Destination file already exists!`. `create` needs the parent folder to
 * exist. Test-only: the methods that add a path to the index refuse hidden and config paths
 * (use the adapter for those), and `reconcile()` plays the file watcher catching up.
 */
export class Vault extends Events implements Obsidian.Vault {
  adapter: FileSystemAdapter;
  configDir: string;
  private readonly index: VaultIndex;
  private readonly locks = new KeyedMutex();

  private constructor(adapter: FileSystemAdapter, configDir: string) {
    super();
    this.adapter = adapter;
    this.configDir = configDir;
    this.index = new VaultIndex(this);
  }

  /** Opens the folder `dir` (which must exist) as a vault and indexes it, firing no events. */
  static async load(dir: string, options: VaultLoadOptions = {}): Promise<Vault> {
    const vault = new Vault(new FileSystemAdapter(dir), options.configDir ?? DEFAULT_CONFIG_DIR);
    for (const entry of await scanFolder(vault.adapter, vault.configDir)) vault.index.add(entry.path, entry.kind, entry.stat);
    return vault;
  }

  static recurseChildren(root: TFolder, cb: (file: TAbstractFile) => unknown): void {
    cb(root);
    for (const child of root.children) {
      if (child instanceof TFolder) Vault.recurseChildren(child, cb);
      else cb(child);
    }
  }

  getName(): string {
    return this.adapter.getName();
  }

  getRoot(): TFolder {
    return this.index.root;
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.index.get(normalizePath(path));
  }

  getFileByPath(path: string): TFile | null {
    const file = this.getAbstractFileByPath(path);
    return file instanceof TFile ? file : null;
  }

  getFolderByPath(path: string): TFolder | null {
    const folder = this.getAbstractFileByPath(path);
    return folder instanceof TFolder ? folder : null;
  }

  getAllLoadedFiles(): TAbstractFile[] {
    return this.index.all();
  }

  getAllFolders(includeRoot?: boolean): TFolder[] {
    return this.index.all().filter((file): file is TFolder => file instanceof TFolder && (includeRoot === true || !file.isRoot()));
  }

  getFiles(): TFile[] {
    return this.index.all().filter((file): file is TFile => file instanceof TFile);
  }

  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((file) => file.extension === 'md');
  }

  getResourcePath(file: Obsidian.TFile): string {
    return this.adapter.getResourcePath(file.path);
  }

  async create(path: string, data: string, options?: Obsidian.DataWriteOptions): Promise<TFile> {
    return this.createFile(path, (normalized) => this.adapter.write(normalized, data, options));
  }

  async createBinary(path: string, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<TFile> {
    return this.createFile(path, (normalized) => this.adapter.writeBinary(normalized, data, options));
  }

  /** Creates the folder and any missing parents, firing `create` for each level made. */
  async createFolder(path: string): Promise<TFolder> {
    const normalized = this.indexablePath(path);
    if (this.index.get(normalized) !== null) throw new Error('Folder already exists.');
    await this.adapter.mkdir(normalized);
    const folder = await this.indexWithAncestors(normalized);
    if (!(folder instanceof TFolder)) throw new Error(`"${normalized}" is not a folder.`);
    return folder;
  }

  async read(file: Obsidian.TFile): Promise<string> {
    return this.adapter.read(file.path);
  }

  async cachedRead(file: Obsidian.TFile): Promise<string> {
    return this.adapter.read(file.path);
  }

  async readBinary(file: Obsidian.TFile): Promise<ArrayBuffer> {
    return this.adapter.readBinary(file.path);
  }

  async modify(file: Obsidian.TFile, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.changeFile(file, () => this.adapter.write(file.path, data, options));
  }

  async modifyBinary(file: Obsidian.TFile, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.changeFile(file, () => this.adapter.writeBinary(file.path, data, options));
  }

  async append(file: Obsidian.TFile, data: string, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.changeFile(file, () => this.adapter.append(file.path, data, options));
  }

  async appendBinary(file: Obsidian.TFile, data: ArrayBuffer, options?: Obsidian.DataWriteOptions): Promise<void> {
    await this.changeFile(file, () => this.adapter.appendBinary(file.path, data, options));
  }

  /**
   * Reads the file, replaces its text with `fn(text)` and fires `modify`, one call at a time per
   * file. `fn` must be synchronous; if it throws, nothing is written and the error propagates.
   */
  async process(file: Obsidian.TFile, fn: (data: string) => string, options?: Obsidian.DataWriteOptions): Promise<string> {
    let next = '';
    await this.changeFile(file, async () => {
      next = fn(await this.adapter.read(file.path));
      await this.adapter.write(file.path, next, options);
    });
    return next;
  }

  async copy<T extends Obsidian.TAbstractFile>(file: T, newPath: string): Promise<T> {
    const normalized = this.indexablePath(newPath);
    if (this.index.get(normalized) !== null || (await this.adapter.stat(normalized)) !== null) throw new Error('File already exists.');
    await this.adapter.copy(file.path, normalized);
    const copy = await this.indexWithAncestors(normalized);
    if (copy instanceof TFolder) this.indexScanned(await scanFolder(this.adapter, this.configDir, normalized));
    if (!sameKind(file, copy)) throw new Error(`The copy at "${normalized}" is not a ${file instanceof TFolder ? 'folder' : 'file'}.`);
    return copy;
  }

  /** Moves the file or folder; the destination's parent folder must exist. */
  async rename(file: Obsidian.TAbstractFile, newPath: string): Promise<void> {
    const entry = this.indexed(file);
    const normalized = this.indexablePath(newPath);
    if (normalized === entry.path) return;
    const taken = this.index.get(normalized);
    if (taken !== null && taken !== entry) throw new Error('Destination file already exists!');
    await this.adapter.rename(entry.path, normalized);
    await this.indexWithAncestors(parentPath(normalized));
    for (const { file: moved, oldPath } of this.index.move(entry, normalized)) this.trigger('rename', moved, oldPath);
  }

  async delete(file: Obsidian.TAbstractFile, _force?: boolean): Promise<void> {
    await this.remove(file, 'none');
  }

  async trash(file: Obsidian.TAbstractFile, system: boolean): Promise<void> {
    await this.remove(file, system ? 'system' : 'local');
  }

  /**
   * Test-module internal, shared by `delete`, `trash` and `FileManager.trashFile`: removes the
   * file or folder from disk (to the system trash, falling back to `.trash/`, or for good), drops
   * it from the index and fires `delete`.
   */
  async remove(file: Obsidian.TAbstractFile, how: TrashOption): Promise<void> {
    const entry = this.indexed(file);
    if (entry instanceof TFolder && entry.isRoot()) throw new Error('Cannot remove the vault root.');
    if (how === 'none') {
      if (entry instanceof TFolder) await this.adapter.rmdir(entry.path, true);
      else await this.adapter.remove(entry.path);
    } else if (how === 'local' || !(await this.adapter.trashSystem(entry.path))) {
      await this.adapter.trashLocal(entry.path);
    }
    for (const removed of this.index.remove(entry)) this.trigger('delete', removed);
  }

  /**
   * Test-only: plays Obsidian's file watcher catching up with changes made behind the vault's
   * back (through the adapter, or straight on disk). Rescans the folder and fires `delete` for
   * what vanished, `create` for what appeared and `modify` for files whose size or mtime changed.
   */
  async reconcile(): Promise<void> {
    const onDisk = new Map((await scanFolder(this.adapter, this.configDir)).map((entry) => [entry.path, entry]));
    for (const entry of this.index.all()) {
      if (entry.parent === null || this.index.get(entry.path) !== entry) continue; // The root, or already dropped.
      const found = onDisk.get(entry.path);
      if (found !== undefined && found.kind === (entry instanceof TFolder ? 'folder' : 'file')) continue;
      for (const removed of this.index.remove(entry)) this.trigger('delete', removed);
    }
    for (const found of onDisk.values()) {
      const entry = this.index.get(found.path);
      if (entry === null) {
        this.trigger('create', this.index.add(found.path, found.kind, found.stat));
      } else if (entry instanceof TFile && (entry.stat.mtime !== found.stat.mtime || entry.stat.size !== found.stat.size)) {
        entry.stat = found.stat;
        this.trigger('modify', entry);
      }
    }
  }

  override on(name: 'create' | 'modify' | 'delete', callback: (file: TAbstractFile) => unknown, ctx?: unknown): EventRef;
  override on(name: 'rename', callback: (file: TAbstractFile, oldPath: string) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: unknown[]) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    return this.subscribe(name, callback, ctx);
  }

  private async createFile(path: string, write: (normalized: string) => Promise<void>): Promise<TFile> {
    const normalized = this.indexablePath(path);
    if (this.index.get(normalized) !== null || (await this.adapter.stat(normalized)) !== null) throw new Error('File already exists.');
    await write(normalized);
    const file = await this.indexWithAncestors(normalized);
    if (!(file instanceof TFile)) throw new Error(`"${normalized}" is not a file.`);
    return file;
  }

  private async changeFile(file: Obsidian.TFile, change: () => Promise<void>): Promise<void> {
    const entry = this.indexed(file);
    await this.locks.run(entry.path, async () => {
      await change();
      const stat = await this.adapter.stat(entry.path);
      if (stat !== null) entry.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
      this.trigger('modify', entry);
    });
  }

  /** Indexes a path that exists on disk, and any ancestor not yet indexed, firing `create` outermost first. */
  private async indexWithAncestors(path: string): Promise<TAbstractFile> {
    if (isRootPath(path)) return this.index.root;
    for (const level of [...ancestorsOf(path), path]) {
      const known = this.index.get(level);
      if (known !== null) continue;
      const stat = await this.adapter.stat(level);
      if (stat === null) throw new Error(`ENOENT: no such file or directory, "${level}"`);
      this.trigger('create', this.index.add(level, stat.type, { ctime: stat.ctime, mtime: stat.mtime, size: stat.size }));
    }
    const entry = this.index.get(path);
    if (entry === null) throw new Error(`"${path}" was not indexed.`);
    return entry;
  }

  private indexScanned(entries: ScannedEntry[]): void {
    for (const entry of entries) {
      if (this.index.get(entry.path) === null) this.trigger('create', this.index.add(entry.path, entry.kind, entry.stat));
    }
  }

  /** The index's own entry for a file handed in by a caller; refuses one the vault does not know. */
  private indexed(file: Obsidian.TFile): TFile;
  private indexed(file: Obsidian.TAbstractFile): TAbstractFile;
  private indexed(file: Obsidian.TAbstractFile): TAbstractFile {
    const entry = this.index.get(file.path);
    if (entry === null || entry !== file) throw new Error(`"${file.path}" is not in the vault index.`);
    return entry;
  }

  private indexablePath(path: string): string {
    const normalized = normalizePath(path);
    if (isRootPath(normalized)) throw new Error('The vault root cannot be the target.');
    if (isUnindexedPath(normalized, this.configDir)) {
      throw new Error(`The test vault does not index "${normalized}" (hidden or in the config folder); use vault.adapter for it.`);
    }
    return normalized;
  }
}

/** Whether `candidate` is the same kind of entry (file or folder) as `original`. */
function sameKind<T extends Obsidian.TAbstractFile>(original: T, candidate: Obsidian.TAbstractFile): candidate is T {
  return (original instanceof TFolder) === (candidate instanceof TFolder);
}
