/** A link from a note, as written; resolving it to a file is the link resolver's job. */
export interface NoteLink {
  /** The link target as written, before resolution: `Page`, `Folder/Page`, `../x.md`, `Page.md`… decoded (markdown links are URL-decoded). */
  target: string;
  /** `Heading` for [[Page#Heading]], `^block` for [[Page#^block]] (keep the caret), else null. */
  subpath: string | null;
  /** The display text ([[Page|alias]] or [text](path)), else null. */
  display: string | null;
  kind: 'wikilink' | 'embed' | 'markdown';
  /** 0-based line of the link. */
  line: number;
}

/** A property: a top-level frontmatter key, or a Dataview/Logseq inline field (`key:: value`). */
export interface NoteProperty {
  /** The key, trimmed, as written. */
  key: string;
  /** The value as text: trimmed for inline fields; lists joined with ', ' and maps as JSON for frontmatter. */
  value: string;
  /** 0-based line of the key. */
  line: number;
  source: 'frontmatter' | 'inline';
}

/** A tag without '#', as written, and its 0-based line. */
export interface NoteTag {
  tag: string;
  line: number;
}

/** The structure of one note, as Obsidian (and Dataview/Logseq) index it. */
export interface ParsedNote {
  links: NoteLink[];
  /** Tags without '#', as written (case kept), from the body (#tag, #a/b) and frontmatter `tags`/`tag` (list or comma/space-separated string, with or without '#'). */
  tags: NoteTag[];
  properties: NoteProperty[];
  /** Frontmatter `aliases`/`alias` (list or comma-separated string). */
  aliases: string[];
  headings: { text: string; level: number; line: number }[];
  /** Where the body starts in the note's text: after the frontmatter block and a byte-order mark. */
  bodyStart: number;
}

/** Something found in a line, with the column it starts at (to put a line's finds in order). */
export interface Located<T> {
  column: number;
  item: T;
}
