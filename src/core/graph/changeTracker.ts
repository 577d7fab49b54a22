import type { VaultChange, VaultPort } from '../ports';
import { walkFiles } from '../ports';
import type { Slicer } from '../util/Slicer';
import { isNote, type IndexedVault } from './indexedVault';
import type { NoteReader } from './noteReader';

/** Checking a changed path is a stat alone, far lighter than a read: many at a time keep the disk busy. */
export const PARALLEL_CHECKS = 64;

/**
 * Keeps the index current from vault events: a change only marks its paths (`mark`), and
 * `catchUp` re-reads the marked ones, so the index is current whenever a query asks, right after
 * the agent's own writes included, without reading anything nobody asks about.
 */
export class ChangeTracker {
  private readonly dirty = new Set<string>();
  private catchingUp: Promise<void> | null = null;

  constructor(
    private readonly state: IndexedVault,
    private readonly vault: VaultPort,
    private readonly reader: NoteReader,
    private readonly skipFolder: ((folder: string) => boolean) | undefined,
    private readonly newSlicer: () => Slicer,
  ) {}

  /** Whether paths are marked and not read yet. */
  get pending(): boolean {
    return this.dirty.size > 0;
  }

  mark(change: VaultChange): void {
    const paths = change.type === 'rename' ? [change.oldPath, change.path] : [change.path];
    for (const path of paths) {
      if (this.skipFolder?.(path.split('/')[0] ?? '') ?? false) continue;
      this.dirty.add(path);
    }
  }

  /** Forgets the marks (a build is about to read everything). */
  clear(): void {
    this.dirty.clear();
  }

  /** Brings the marked paths up to date. A caller arriving while another does waits for it, then for anything marked since. */
  async current(): Promise<void> {
    while (this.catchingUp !== null || this.dirty.size > 0) {
      this.catchingUp ??= this.catchUp().finally(() => {
        this.catchingUp = null;
      });
      await this.catchingUp;
    }
  }

  /**
   * Re-reads the marked paths, then the files of any folder among them (a folder moved in, or
   * renamed), each once, several at a time: after an agent run or a sync there can be thousands.
   */
  private async catchUp(): Promise<void> {
    const paths = [...this.dirty];
    const queued = new Set(paths);
    this.dirty.clear();
    const slicer = this.newSlicer();
    for (let at = 0; at < paths.length; ) {
      const batch = paths.slice(at, at + PARALLEL_CHECKS);
      at += batch.length;
      const infos = await Promise.all(batch.map((path) => this.reader.statUnlinked(path)));
      const reads = await Promise.all(batch.map((path, i) => this.reader.readNote(path, infos[i] ?? null)));
      for (const [i, path] of batch.entries()) {
        const info = infos[i] ?? null;
        if (info === null) this.gone(path);
        else if (info.kind === 'folder') await this.queueFolder(path, paths, queued);
        else {
          this.state.links.addFile(path);
          if (isNote(path)) this.state.applyRead(path, reads[i] ?? null);
        }
      }
      await slicer.maybeYield();
    }
  }

  /** A path gone: the file, or everything that was in the folder. */
  private gone(path: string): void {
    const wasFile = this.state.links.hasFile(path);
    this.state.forget(path);
    if (!wasFile) for (const known of [...this.state.links.files()]) if (known.startsWith(`${path}/`)) this.state.forget(known);
  }

  private async queueFolder(folder: string, paths: string[], queued: Set<string>): Promise<void> {
    for (const file of await walkFiles(this.vault, folder)) {
      if (queued.has(file)) continue;
      queued.add(file);
      paths.push(file);
    }
  }
}
