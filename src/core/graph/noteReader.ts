import type { VaultPort, VaultStat } from '../ports';
import { resolveLinks } from '../paths/resolveLinks';
import { decodeUtf8, isNote, type IndexedNote, type NoteRead } from './indexedVault';
import { MAX_INDEXED_NOTE_BYTES } from './noteLimits';

export interface NoteReaderOptions {
  /** Called for a note over `maxNoteBytes` (its size in bytes), indexed by its beginning only. */
  onPartialNote?: (path: string, size: number) => void;
  /** The most bytes of one note that are indexed. Default `MAX_INDEXED_NOTE_BYTES`. */
  maxNoteBytes?: number;
}

/** Reads notes for the index: their text and stat, at most `maxNoteBytes` of each, never failing (null instead). */
export class NoteReader {
  constructor(
    private readonly vault: VaultPort,
    private readonly options: NoteReaderOptions,
  ) {}

  /** The note's text and stat; `undefined` when the saved copy is current, null when it cannot be read. */
  async readIfChanged(path: string, known: IndexedNote | undefined): Promise<NoteRead | null | undefined> {
    if (known === undefined && this.vault.readWithStat !== undefined) return this.readWithStat(path);
    try {
      const stat = await this.vault.stat(path);
      if (stat === null) return null;
      if (known !== undefined && stat.size === known.size && stat.mtime === known.mtime) return undefined;
      return await this.readNote(path, stat);
    } catch {
      return null;
    }
  }

  /**
   * The stat of a changed path, or null when it is gone — or reached through a symbolic link:
   * the index holds what a walk of the vault finds, and walks never enter links (Obsidian's own
   * events do report files in linked folders, even ones outside the vault).
   */
  async statUnlinked(path: string): Promise<VaultStat | null> {
    try {
      const resolution = await resolveLinks(this.vault, path, { followLast: true });
      if (resolution.kind !== 'inside' || resolution.path !== path) return null;
      return await this.vault.stat(path);
    } catch {
      return null;
    }
  }

  /** A note not known yet, read with its stat in one step (`VaultPort.readWithStat`). */
  private async readWithStat(path: string): Promise<NoteRead | null> {
    if (!isNote(path)) return null;
    try {
      const read = await this.vault.readWithStat?.(path, { maxBytes: this.maxBytes });
      if (read === undefined || read === null || read.stat.kind !== 'file') return null;
      const { stat, bytes } = read;
      return stat.size <= this.maxBytes ? { text: decodeUtf8(bytes), size: stat.size, mtime: stat.mtime } : this.partialNote(path, stat, bytes);
    } catch {
      return null;
    }
  }

  /** The text of the note at `path`, whose stat was just taken; null when it is no note file or cannot be read. */
  async readNote(path: string, stat: VaultStat | null): Promise<NoteRead | null> {
    if (stat?.kind !== 'file' || !isNote(path)) return null;
    try {
      if (stat.size <= this.maxBytes) return { text: await this.vault.readText(path), size: stat.size, mtime: stat.mtime };
      return this.partialNote(path, stat, await this.vault.readBinary(path, { maxBytes: this.maxBytes }));
    } catch {
      return null;
    }
  }

  /** The most bytes of one note that are indexed. */
  private get maxBytes(): number {
    return this.options.maxNoteBytes ?? MAX_INDEXED_NOTE_BYTES;
  }

  /** A note over `maxBytes`, indexed by its start (`onPartialNote` told). */
  private partialNote(path: string, stat: VaultStat, start: Uint8Array): NoteRead {
    this.options.onPartialNote?.(path, stat.size);
    // A port that cannot read part of a file gives it whole: keep the start only.
    return { text: decodeStart(start.subarray(0, this.maxBytes)), size: stat.size, mtime: stat.mtime };
  }
}

/** The text of a note's first bytes, without the character the cut may have split. */
function decodeStart(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes);
  return text.endsWith('\uFFFD') ? text.slice(0, -1) : text;
}
