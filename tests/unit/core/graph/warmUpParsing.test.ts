import { describe, expect, it } from 'vitest';
import { parseNote } from '../../../../src/core/graph/parseNote';
import { WARM_UP_NOTES, warmUpParsing } from '../../../../src/core/graph/warmUpParsing';

describe('warmUpParsing', () => {
  it('parses notes that reach each part of the parser: frontmatter, headings, links, embeds, tags and fields', () => {
    const frontmatter = parseNote(WARM_UP_NOTES.frontmatter);
    expect(frontmatter.aliases).toEqual(['Warm']);
    expect(frontmatter.tags.map((tag) => tag.tag)).toEqual(['warm', 'up']);
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
