import { describe, expect, it } from 'vitest';
import { readSimpleFrontmatter } from '../../../../src/core/graph/note/simpleFrontmatter';
import { parseNote } from '../../../../src/core/graph/parseNote';
import { WARM_UP_NOTES, warmUpParsing } from '../../../../src/core/graph/warmUpParsing';

describe('warmUpParsing', () => {
  it('parses notes that reach each part of the parser: frontmatter, YAML, headings, links, embeds, tags and fields', () => {
    const frontmatter = parseNote(WARM_UP_NOTES.frontmatter);
    expect(frontmatter.aliases).toEqual(['Warm']);
    expect(frontmatter.tags.map((tag) => tag.tag)).toEqual(['warm', 'up']);
    // The first without the YAML library, the second only with it (a block scalar, a map in a list).
    const yamlOf = (note: string): string => note.slice('---\n'.length, note.lastIndexOf('---\n'));
    expect(readSimpleFrontmatter(yamlOf(WARM_UP_NOTES.frontmatter), parseNote(''))).toBe(true);
    expect(readSimpleFrontmatter(yamlOf(WARM_UP_NOTES.yaml), parseNote(''))).toBe(false);
    const yaml = parseNote(WARM_UP_NOTES.yaml);
    expect(yaml.properties.map((property) => [property.key, property.value])).toEqual([
      ['title', 'Warm: up'],
      ['nested', '{"list":["a",{"b":"[[Link]]"}]}'],
      ['summary', 'A block\n'],
    ]);
    expect(yaml.links.map((link) => link.target)).toEqual(['Link']);
    const body = parseNote(WARM_UP_NOTES.body);
    expect(body.headings.map((heading) => heading.text)).toEqual(['Heading']);
    expect(body.links.map((link) => [link.kind, link.target])).toEqual([
      ['wikilink', 'Note'],
      ['embed', 'Embed.png'],
      ['markdown', 'Other note.md'],
    ]);
    expect(body.tags.map((tag) => tag.tag)).toEqual(['tag/nested']);
    expect(body.properties.map((property) => property.key)).toEqual(['key', 'field']);
  });

  it('hands the event loop back between its parts', async () => {
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    await warmUpParsing().then(() => order.push('warmed up'));
    expect(order).toEqual(['timer', 'warmed up']);
  });
});
