import { isMap, isNode, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { MAX_FRONTMATTER_DEPTH } from '../../content/frontmatter';
import type { NoteLink, NoteProperty, NoteTag, ParsedNote } from './noteTypes';
import { splitTags } from './tags';
import { findWikilinks } from './wikilinks';

/**
 * Reads frontmatter through the YAML parser: every top-level key as a property, `tags`/`aliases`,
 * and wikilinks in strings. Invalid YAML, or YAML the parser cannot take, adds nothing.
 */
export function readYamlFrontmatter(yaml: string, note: ParsedNote): void {
  const properties: NoteProperty[] = [];
  const tags: NoteTag[] = [];
  const aliases: string[] = [];
  const links: NoteLink[] = [];
  try {
    const doc = parseDocument(yaml, { logLevel: 'silent' });
    if (doc.errors.length > 0 || !isMap(doc.contents)) return;
    const lineOf = lineLocator(yaml);
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key)) continue;
      const key = scalarText(pair.key);
      if (key === '') continue;
      const line = lineOf(pair.key.range?.[0] ?? 0);
      const value = isNode(pair.value) ? pair.value : null;
      properties.push({ key, value: value === null ? '' : nodeText(value, doc), line, source: 'frontmatter' });
      const name = key.toLowerCase();
      if (value !== null && (name === 'tags' || name === 'tag')) tags.push(...frontmatterTags(value, line, lineOf));
      if (value !== null && (name === 'aliases' || name === 'alias')) aliases.push(...frontmatterAliases(value));
      if (value !== null) collectFrontmatterLinks(value, lineOf, links, 0);
    }
  } catch {
    // A pathological document (too deep for the parser, an alias bomb): no frontmatter at all.
    return;
  }
  note.properties.push(...properties);
  note.tags.push(...tags);
  note.aliases.push(...aliases);
  note.links.push(...links);
}

/** Maps an offset in the YAML to a 0-based line of the note (the YAML starts on line 1). */
function lineLocator(yaml: string): (offset: number) => number {
  const starts = [0];
  for (let at = yaml.indexOf('\n'); at !== -1; at = yaml.indexOf('\n', at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return 1 + low;
  };
}

function nodeLine(node: Node, lineOf: (offset: number) => number, fallback: number): number {
  const start = node.range?.[0];
  return start === undefined ? fallback : lineOf(start);
}

/** A scalar as written where that differs from its value (`1.10`, `0x1F`); null as ''. */
function scalarText(node: Node): string {
  if (!isScalar(node)) return '';
  const value = node.value;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return node.source ?? value.toISOString();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return node.source ?? String(value);
  return JSON.stringify(value) ?? '';
}

function nodeText(node: Node, doc: Document): string {
  if (isScalar(node)) return scalarText(node);
  if (isSeq(node)) return node.items.map((item) => (isNode(item) ? nodeText(item, doc) : '')).join(', ');
  const value: unknown = node.toJS(doc, { maxAliasCount: 100 });
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

function frontmatterTags(value: Node, keyLine: number, lineOf: (offset: number) => number): NoteTag[] {
  const items = isSeq(value) ? value.items.filter(isNode) : [value];
  const tags: NoteTag[] = [];
  for (const item of items) {
    if (!isScalar(item)) continue;
    tags.push(...splitTags(scalarText(item), nodeLine(item, lineOf, keyLine)));
  }
  return tags;
}

function frontmatterAliases(value: Node): string[] {
  const parts = isSeq(value)
    ? value.items.filter(isNode).map((item) => (isScalar(item) ? scalarText(item) : ''))
    : isScalar(value) ? scalarText(value).split(',') : [];
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** Obsidian indexes wikilinks written in frontmatter strings (`related: "[[Other]]"`). */
function collectFrontmatterLinks(node: Node, lineOf: (offset: number) => number, links: NoteLink[], depth: number): void {
  if (depth > MAX_FRONTMATTER_DEPTH) return;
  if (isScalar(node)) {
    if (typeof node.value !== 'string' || !node.value.includes('[[')) return;
    const line = nodeLine(node, lineOf, 1);
    for (const part of node.value.split('\n')) {
      for (const found of findWikilinks(part, part, line)) links.push(found.item);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) if (isNode(item)) collectFrontmatterLinks(item, lineOf, links, depth + 1);
  } else if (isMap(node)) {
    for (const pair of node.items) if (isNode(pair.value)) collectFrontmatterLinks(pair.value, lineOf, links, depth + 1);
  }
}
