import type * as Obsidian from 'obsidian';
import { lastSegment, ROOT_PATH } from './paths';
import type { Vault } from './vault';

/** Obsidian's `TAbstractFile`: one entry of the vault index. */
export abstract class TAbstractFile implements Obsidian.TAbstractFile {
  vault: Vault;
  path: string;
  name: string;
  parent: TFolder | null;

  protected constructor(vault: Vault, path: string, parent: TFolder | null) {
    this.vault = vault;
    this.path = path;
    this.name = path === ROOT_PATH ? '' : lastSegment(path);
    this.parent = parent;
  }

  /** Test-module internal: gives the entry a new path (the index keeps `parent` and `children`). */
  setPath(path: string): void {
    this.path = path;
    this.name = lastSegment(path);
  }
}

/** Obsidian's `TFile`. `basename` and `extension` split the name at its last dot. */
export class TFile extends TAbstractFile implements Obsidian.TFile {
  stat: Obsidian.FileStats;
  basename = '';
  extension = '';

  constructor(vault: Vault, path: string, parent: TFolder, stat: Obsidian.FileStats) {
    super(vault, path, parent);
    this.stat = stat;
    this.splitName();
  }

  override setPath(path: string): void {
    super.setPath(path);
    this.splitName();
  }

  private splitName(): void {
    const dot = this.name.lastIndexOf('.');
    const hasExtension = dot > 0 && dot < this.name.length - 1;
    this.basename = hasExtension ? this.name.slice(0, dot) : this.name;
    this.extension = hasExtension ? this.name.slice(dot + 1) : '';
  }
}

/** Obsidian's `TFolder`. The root has path `/`, name `''` and no parent. */
export class TFolder extends TAbstractFile implements Obsidian.TFolder {
  children: TAbstractFile[] = [];

  constructor(vault: Vault, path: string, parent: TFolder | null) {
    super(vault, path, parent);
  }

  isRoot(): boolean {
    return this.path === ROOT_PATH;
  }
}
