import { mayContainLowered, utf8Lines } from '../text/utf8Text';
import { textOf, type IndexedNote } from './indexedVault';
import type { LinkGraph } from './linkGraph';
import type { NoteProperty, NoteTag } from './parseNote';
import type { QueryableNote } from './queryLanguage';
import { bytesOf } from './textSlabs';

/**
 * A note as a graph query sees it: one object per note and query, its text decoded only if the
 * query needs it (content terms), its matched lines decoded alone otherwise.
 */
export class QueriedNote implements QueryableNote {
  private decoded: string | undefined;

  constructor(
    private readonly note: IndexedNote,
    private readonly links: LinkGraph,
  ) {}

  get path(): string {
    return this.note.path;
  }

  get properties(): NoteProperty[] {
    return this.note.facts.properties();
  }

  get tags(): NoteTag[] {
    return this.note.facts.tags();
  }

  get outgoing(): QueryableNote['outgoing'] {
    return this.links.outgoingOf(this.note.path);
  }

  get text(): string {
    return (this.decoded ??= textOf(this.note));
  }

  mayContain(lowered: string): boolean {
    return this.decoded !== undefined || mayContainLowered(bytesOf(this.note), lowered);
  }

  lineTexts(lines: readonly number[]): (string | undefined)[] {
    if (this.decoded === undefined) return utf8Lines(bytesOf(this.note), lines);
    const all = this.decoded.split('\n');
    return lines.map((line) => all[line]);
  }
}
