/** What evaluation needs from the graph index, per note. Lines are 0-based. */
export interface QueryableNote {
  /** The note's vault path. */
  path: string;
  /** The note's properties; a list property appears once per item. */
  properties: readonly { key: string; value: string; line: number }[];
  /** Resolved outgoing link targets (vault paths) with the line of each link. */
  outgoing: readonly { target: string; line: number }[];
  /** The note's tags, with or without the leading `#`. */
  tags: readonly { tag: string; line: number }[];
  /** The note's text, for content matches and for reporting matched lines. */
  text: string;
  /**
   * The text of the given lines (ascending line numbers), when the note can give them without its
   * whole text (`text.split('\n')` otherwise).
   */
  lineTexts?(lines: readonly number[]): (string | undefined)[];
  /**
   * Whether the note's text, lower-cased, may contain `lowered` (lower-cased): false only when it
   * certainly does not, so a content term can skip the note without its text.
   */
  mayContain?(lowered: string): boolean;
}

/** The notes a query runs over, and how their links resolve. */
export interface QuerySource {
  /** Every note, once each. */
  notes(): Iterable<QueryableNote>;
  /** Resolves `[[target]]` text to a vault path the way Obsidian would (null when unresolved). */
  resolve(target: string, fromPath: string): string | null;
}

/** One note a query matched. */
export interface QueryMatch {
  /** The note's vault path. */
  filePath: string;
  /**
   * The text of the lines that matched, in line order, each line once. Per term: `property` → the
   * property's lines; `outgoing-link` → the lines of the links to the target; `tag` → the lines of
   * the matching tags; `content` → the lines containing the text; `path` and `backlink` → none.
   * `AND` and `OR` report the lines of every side that matched; `NOT` reports none, so a note
   * matched only through `NOT` has `[]`.
   */
  matches: string[];
}

/** How a query is run: cancelled through `signal`, in slices of `sliceMs` between which it yields. */
export interface EvaluateOptions {
  /** Aborting it stops the evaluation at its next slice, with `Cancelled`. */
  signal?: AbortSignal;
  /** Work between turns for the event loop (and checks of `signal`). Default 20 ms. */
  sliceMs?: number;
}
