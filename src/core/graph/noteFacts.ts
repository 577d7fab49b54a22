import type { StringPool } from '../util/ownedString';
import type { LinkRef } from './linkGraph';
import type { NoteProperty, ParsedNote } from './parseNote';

/** What the graph index keeps of a note's structure (`parseNote` finds more), its strings shared through a `StringPool`. */
export interface NoteFacts {
  links: readonly LinkRef[];
  tags: readonly { tag: string; line: number }[];
  properties: readonly NoteProperty[];
  aliases: readonly string[];
  /** Where the body starts in the text, after the frontmatter. */
  bodyStart: number;
}

export function factsOf(parsed: ParsedNote, strings: StringPool): NoteFacts {
  return {
    links: parsed.links.map(({ target, line }) => ({ target: strings.intern(target), line })),
    tags: parsed.tags.map(({ tag, line }) => ({ tag: strings.intern(tag), line })),
    properties: parsed.properties.map(({ key, value, line, source }) => ({ key: strings.intern(key), value: strings.intern(value), line, source })),
    aliases: parsed.aliases.map((alias) => strings.intern(alias)),
    bodyStart: parsed.bodyStart,
  };
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
  private readonly numbers = new Map<string, number>();
  readonly strings: string[] = [];

  save(facts: NoteFacts): SavedFacts {
    const links: number[] = [];
    for (const { target, line } of facts.links) links.push(this.number(target), line);
    const tags: number[] = [];
    for (const { tag, line } of facts.tags) tags.push(this.number(tag), line);
    const properties: number[] = [];
    for (const { key, value, line, source } of facts.properties) properties.push(this.number(key), this.number(value), line, source === 'inline' ? 1 : 0);
    return { links, tags, properties, aliases: facts.aliases.map((alias) => this.number(alias)), bodyStart: facts.bodyStart };
  }

  private number(text: string): number {
    let number = this.numbers.get(text);
    if (number === undefined) {
      number = this.strings.length;
      this.numbers.set(text, number);
      this.strings.push(text);
    }
    return number;
  }
}

/** The facts `FactsTable.save` gave, with the table's strings; null when anything is off (a damaged or hand-edited cache). */
export function loadFacts(value: unknown, strings: readonly string[]): NoteFacts | null {
  if (typeof value !== 'object' || value === null) return null;
  const saved = value as Partial<Record<keyof SavedFacts, unknown>>;
  const { links, tags, properties, aliases, bodyStart } = saved;
  if (!isCount(bodyStart) || !numbersIn(links, 2) || !numbersIn(tags, 2) || !numbersIn(properties, 4) || !numbersIn(aliases, 1)) return null;
  const string = (number: number): string | undefined => strings[number];
  const facts: { links: LinkRef[]; tags: { tag: string; line: number }[]; properties: NoteProperty[]; aliases: string[]; bodyStart: number } = {
    links: [],
    tags: [],
    properties: [],
    aliases: [],
    bodyStart,
  };
  for (let i = 0; i < links.length; i += 2) {
    const target = string(links[i] as number);
    if (target === undefined) return null;
    facts.links.push({ target, line: links[i + 1] as number });
  }
  for (let i = 0; i < tags.length; i += 2) {
    const tag = string(tags[i] as number);
    if (tag === undefined) return null;
    facts.tags.push({ tag, line: tags[i + 1] as number });
  }
  for (let i = 0; i < properties.length; i += 4) {
    const key = string(properties[i] as number);
    const propertyValue = string(properties[i + 1] as number);
    if (key === undefined || propertyValue === undefined) return null;
    facts.properties.push({ key, value: propertyValue, line: properties[i + 2] as number, source: properties[i + 3] === 1 ? 'inline' : 'frontmatter' });
  }
  for (const number of aliases) {
    const alias = string(number);
    if (alias === undefined) return null;
    facts.aliases.push(alias);
  }
  return facts;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** An array of whole, non-negative numbers, in groups of `group`. */
function numbersIn(value: unknown, group: number): value is number[] {
  return Array.isArray(value) && value.length % group === 0 && value.every(isCount);
}
