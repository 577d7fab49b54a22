import type { StringPool } from '../util/ownedString';
import { StringMap } from '../util/StringMap';
import type { LinkList } from './linkGraph';
import type { NoteProperty, NoteTag, ParsedNote } from './parseNote';

/** Where each part of `NoteFacts`' array starts: four numbers, then the links. */
const TAGS_AT = 1;
const PROPERTIES_AT = 2;
const ALIASES_AT = 3;
const LINKS_AT = 4;
const BODY_START = 0;

/**
 * What the graph index keeps of a note's structure (`parseNote` finds more), in one flat array:
 * the body's start and where the tags, properties and aliases begin, then each link as
 * `target, line`, each tag as `tag, line`, each property as `key, value, line × 2 + inline`, and
 * the aliases. An object per link, tag and property cost five times the memory at 50,000 notes,
 * where there are 15 of them a note. Strings are shared through a `StringPool`.
 */
export class NoteFacts implements LinkList {
  private constructor(private readonly packed: readonly (string | number)[]) {}

  static of(parsed: Pick<ParsedNote, 'links' | 'tags' | 'properties' | 'aliases' | 'bodyStart'>, strings: StringPool): NoteFacts {
    const { links, tags, properties, aliases } = parsed;
    const packed = packedArray(links.length, tags.length, properties.length, aliases.length, parsed.bodyStart);
    let at = LINKS_AT;
    for (const { target, line } of links) {
      packed[at++] = strings.intern(target);
      packed[at++] = line;
    }
    for (const { tag, line } of tags) {
      packed[at++] = strings.intern(tag);
      packed[at++] = line;
    }
    for (const { key, value, line, source } of properties) {
      packed[at++] = strings.intern(key);
      packed[at++] = strings.intern(value);
      packed[at++] = line * 2 + (source === 'inline' ? 1 : 0);
    }
    for (const alias of aliases) packed[at++] = strings.intern(alias);
    return new NoteFacts(packed);
  }

  /** Where the body starts in the text, after the frontmatter. */
  get bodyStart(): number {
    return this.number(BODY_START);
  }

  get linkCount(): number {
    return (this.number(TAGS_AT) - LINKS_AT) / 2;
  }

  linkTarget(i: number): string {
    return this.string(LINKS_AT + 2 * i);
  }

  linkLine(i: number): number {
    return this.number(LINKS_AT + 2 * i + 1);
  }

  /** The tags, as new objects. */
  tags(): NoteTag[] {
    const tags: NoteTag[] = [];
    for (let at = this.number(TAGS_AT), end = this.number(PROPERTIES_AT); at < end; at += 2) tags.push({ tag: this.string(at), line: this.number(at + 1) });
    return tags;
  }

  /** The properties, as new objects. */
  properties(): NoteProperty[] {
    const properties: NoteProperty[] = [];
    for (let at = this.number(PROPERTIES_AT), end = this.number(ALIASES_AT); at < end; at += 3) {
      const packedLine = this.number(at + 2);
      properties.push({ key: this.string(at), value: this.string(at + 1), line: packedLine >>> 1, source: packedLine & 1 ? 'inline' : 'frontmatter' });
    }
    return properties;
  }

  aliases(): string[] {
    return this.packed.slice(this.number(ALIASES_AT)) as string[];
  }

  /** The facts as saved: numbers only, each string as its number in `table` (see `SavedFacts`). */
  saved(table: FactsTable): SavedFacts {
    const links: number[] = [];
    const tags: number[] = [];
    const properties: number[] = [];
    const tagsAt = this.number(TAGS_AT);
    const propertiesAt = this.number(PROPERTIES_AT);
    const aliasesAt = this.number(ALIASES_AT);
    for (let at = LINKS_AT; at < tagsAt; at += 2) links.push(table.number(this.string(at)), this.number(at + 1));
    for (let at = tagsAt; at < propertiesAt; at += 2) tags.push(table.number(this.string(at)), this.number(at + 1));
    for (let at = propertiesAt; at < aliasesAt; at += 3) {
      const packedLine = this.number(at + 2);
      properties.push(table.number(this.string(at)), table.number(this.string(at + 1)), packedLine >>> 1, packedLine & 1);
    }
    const aliases = this.aliases().map((alias) => table.number(alias));
    return { links, tags, properties, aliases, bodyStart: this.bodyStart };
  }

  /** The facts `saved` gave, with the table's strings; null when anything is off (a damaged or hand-edited cache). */
  static load(value: unknown, strings: readonly string[]): NoteFacts | null {
    if (typeof value !== 'object' || value === null) return null;
    const { links, tags, properties, aliases, bodyStart } = value as Partial<Record<keyof SavedFacts, unknown>>;
    if (!isCount(bodyStart) || !numbersIn(links, 2) || !numbersIn(tags, 2) || !numbersIn(properties, 4) || !numbersIn(aliases, 1)) return null;
    const packed = packedArray(links.length / 2, tags.length / 2, properties.length / 4, aliases.length, bodyStart);
    let at = LINKS_AT;
    for (const pairs of [links, tags]) {
      for (let i = 0; i < pairs.length; i += 2) {
        const text = strings[pairs[i] as number];
        if (text === undefined) return null;
        packed[at++] = text;
        packed[at++] = pairs[i + 1] as number;
      }
    }
    for (let i = 0; i < properties.length; i += 4) {
      const key = strings[properties[i] as number];
      const propertyValue = strings[properties[i + 1] as number];
      const inline = properties[i + 3] as number;
      if (key === undefined || propertyValue === undefined || inline > 1) return null;
      packed[at++] = key;
      packed[at++] = propertyValue;
      packed[at++] = (properties[i + 2] as number) * 2 + inline;
    }
    for (const number of aliases) {
      const alias = strings[number];
      if (alias === undefined) return null;
      packed[at++] = alias;
    }
    return new NoteFacts(packed);
  }

  private number(at: number): number {
    return this.packed[at] as number;
  }

  private string(at: number): string {
    return this.packed[at] as string;
  }
}

/** An array of exactly the facts' length (one grown by pushes keeps spare room), its offsets set. */
function packedArray(links: number, tags: number, properties: number, aliases: number, bodyStart: number): (string | number)[] {
  const tagsAt = LINKS_AT + 2 * links;
  const propertiesAt = tagsAt + 2 * tags;
  const aliasesAt = propertiesAt + 3 * properties;
  const packed = new Array<string | number>(aliasesAt + aliases);
  packed[BODY_START] = bodyStart;
  packed[TAGS_AT] = tagsAt;
  packed[PROPERTIES_AT] = propertiesAt;
  packed[ALIASES_AT] = aliasesAt;
  return packed;
}

/**
 * A note's facts as saved: numbers only, each string as its index in a table shared by the whole
 * save (`FactsTable`). Link targets, tags and keys repeat across a vault, so the save holds each
 * once, and a load parses numbers and shares each string among the notes that have it.
 * `links` and `tags` are `[string, line]` pairs; `properties` are `[key, value, line, inline]`
 * with `inline` 1 for `key:: value` and 0 for frontmatter.
 */
export interface SavedFacts {
  links: number[];
  tags: number[];
  properties: number[];
  aliases: number[];
  bodyStart: number;
}

/** The strings of a save, each given a number the first time it is seen. */
export class FactsTable {
  private readonly numbers = new StringMap<number>();
  readonly strings: string[] = [];

  number(text: string): number {
    let number = this.numbers.get(text);
    if (number === undefined) {
      number = this.strings.length;
      this.numbers.set(text, number);
      this.strings.push(text);
    }
    return number;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** An array of whole, non-negative numbers, in groups of `group`. */
function numbersIn(value: unknown, group: number): value is number[] {
  return Array.isArray(value) && value.length % group === 0 && value.every(isCount);
}
