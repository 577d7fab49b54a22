import { StringPool } from '../util/ownedString';
import { FullTextIndex, type FullTextDocument } from './fullTextIndex';
import { LinkGraph } from './linkGraph';
import { NoteFacts } from './noteFacts';
import { parseNote, type ParsedNote } from './parseNote';
import { bytesOf, TextSlabs, type TextSpan } from './textSlabs';

/**
 * A note as the index holds it. Its text is a span of UTF-8 in `IndexedVault.texts`: half the
 * memory of a JavaScript string (two bytes a character once one is outside Latin-1).
 */
export interface IndexedNote extends TextSpan {
  path: string;
  facts: NoteFacts;
  /** The file's size and mtime when read, to find notes changed while the app was closed. */
  size: number;
  mtime: number;
}

/** A note as read, with the size and mtime it had just before. */
export interface NoteRead {
  text: string;
  size: number;
  mtime: number;
}

// A note's text exactly as read: a leading byte-order mark stays (offsets and lines count it).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * What the graph index knows of the vault, and the three ways it changes: a note stored as read,
 * a note put in or taken out as a read found it, a path forgotten. The notes, the link graph and
 * the full-text index change together here, nowhere else.
 */
export class IndexedVault {
  readonly notes = new Map<string, IndexedNote>();
  readonly links = new LinkGraph();
  /** The notes' texts; a slab being emptied moves the texts of the notes listed here. */
  readonly texts = new TextSlabs(() => this.notes.values());
  fullText = FullTextIndex.empty();
  /** Shares the strings of the notes' facts; a fresh one after a build (see `GraphIndex`). */
  strings = new StringPool();
  /** Counts the notes stored or forgotten, so a save with nothing new to write can be skipped. */
  changes = 0;

  /** Records a note's text and structure, and gives its whole parse (the full-text index is the caller's to update). */
  storeNote(path: string, read: NoteRead): ParsedNote {
    const parsed = parseNote(read.text);
    const { slab, start, end } = this.texts.write(read.text);
    const note: IndexedNote = { path, slab, start, end, facts: NoteFacts.of(parsed, this.strings), size: read.size, mtime: read.mtime };
    this.changes += 1;
    const before = this.notes.get(path);
    this.notes.set(path, note);
    if (before !== undefined) this.texts.release(before);
    this.links.setNote(path, note.facts, note.facts.aliases());
    return parsed;
  }

  /** Puts a note as just read into the index (or takes it out when it could not be read). */
  applyRead(path: string, read: NoteRead | null | undefined): void {
    if (read === null || read === undefined) {
      this.forget(path);
      return;
    }
    const parsed = this.storeNote(path, read);
    this.fullText.add(fullTextDocument(path, parsed, read.text));
  }

  forget(path: string): void {
    const note = this.notes.get(path);
    if (note !== undefined) {
      this.notes.delete(path);
      this.texts.release(note);
      this.fullText.remove(path);
      this.changes += 1;
    }
    this.links.removeFile(path);
  }
}

/** What the full-text index holds of a note: its name, its headings, and its text after the frontmatter. */
export function fullTextDocument(path: string, parsed: ParsedNote, text: string): FullTextDocument {
  return { path, title: baseName(path), headings: parsed.headings.map((heading) => heading.text).join('\n'), body: text.slice(parsed.bodyStart) };
}

export function textOf(note: IndexedNote): string {
  return decoder.decode(bytesOf(note));
}

/** UTF-8 bytes as text, exactly as read. */
export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Whether `path` ends in `.md`, in any case: read off its last three code units, with no lower-cased copy of the path. */
export function isNote(path: string): boolean {
  const end = path.length;
  // `| 0x20` lower-cases an ASCII letter; only `M`/`m` and `D`/`d` give these two codes.
  return end >= 3 && path.charCodeAt(end - 3) === 0x2e && (path.charCodeAt(end - 2) | 0x20) === 0x6d && (path.charCodeAt(end - 1) | 0x20) === 0x64;
}

export function baseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.md$/i, '');
}
