import { StringMap } from './StringMap';

/** V8 makes a substring a slice of its parent (sharing its memory) from this length on; shorter ones are copies. */
const SLICED_FROM = 13;

/**
 * A copy of `text` that shares no memory with a larger string. A substring of a note can keep the
 * whole note alive (JavaScript engines slice strings without copying), so strings an index keeps
 * are copied once. Short ones are copied by the engines themselves.
 */
export function ownedString(text: string): string {
  // Through JSON, not UTF-8: a lone surrogate survives it unchanged.
  return text.length < SLICED_FROM ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * One copy of each distinct string kept (`ownedString`): link targets, tags and keys repeat across
 * notes. A `StringMap`, so the kept strings stay out of the engine's string table.
 */
export class StringPool {
  private readonly strings = new StringMap<string>();

  intern(text: string): string {
    let kept = this.strings.get(text);
    if (kept === undefined) {
      kept = ownedString(text);
      this.strings.set(kept, kept);
    }
    return kept;
  }
}
