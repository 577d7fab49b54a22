import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactsTable, NoteFacts } from '../../../../src/core/graph/noteFacts';
import type { NoteLink, NoteProperty, NoteTag } from '../../../../src/core/graph/parseNote';
import { StringPool } from '../../../../src/core/util/ownedString';

const text = fc.string({ maxLength: 12 });
const line = fc.nat({ max: 5000 });
const parsedFacts: fc.Arbitrary<Parsed> = fc.record({
  links: fc.array(fc.record({ target: text, line }), { maxLength: 6 }),
  tags: fc.array(fc.record({ tag: text, line }), { maxLength: 6 }),
  properties: fc.array(fc.record({ key: text, value: text, line, source: fc.constantFrom<NoteProperty['source']>('frontmatter', 'inline') }), { maxLength: 6 }),
  aliases: fc.array(text, { maxLength: 3 }),
  bodyStart: fc.nat({ max: 10_000 }),
});
interface Parsed {
  links: { target: string; line: number }[];
  tags: NoteTag[];
  properties: NoteProperty[];
  aliases: string[];
  bodyStart: number;
}

function factsOf(parsed: Parsed): NoteFacts {
  const links: NoteLink[] = parsed.links.map((link) => ({ ...link, subpath: null, display: null, kind: 'wikilink' }));
  return NoteFacts.of({ ...parsed, links }, new StringPool());
}

function plain(facts: NoteFacts): Parsed {
  const links = Array.from({ length: facts.linkCount }, (_, i) => ({ target: facts.linkTarget(i), line: facts.linkLine(i) }));
  return { links, tags: facts.tags(), properties: facts.properties(), aliases: facts.aliases(), bodyStart: facts.bodyStart };
}

describe('note facts', () => {
  it('give back every link, tag, property and alias of the parse, in order', () => {
    fc.assert(
      fc.property(parsedFacts, (parsed) => {
        expect(plain(factsOf(parsed))).toEqual(parsed);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('load as they were saved, strings numbered once across notes', () => {
    fc.assert(
      fc.property(fc.array(parsedFacts, { minLength: 1, maxLength: 4 }), (notes) => {
        const table = new FactsTable();
        const saved = notes.map((parsed) => JSON.parse(JSON.stringify(factsOf(parsed).saved(table))) as unknown);
        expect(new Set(table.strings).size).toBe(table.strings.length);
        const strings = JSON.parse(JSON.stringify(table.strings)) as string[];
        saved.forEach((facts, i) => {
          const loaded = NoteFacts.load(facts, strings);
          expect(loaded).not.toBeNull();
          expect(plain(loaded as NoteFacts)).toEqual(notes[i]);
        });
      }),
      { numRuns: 200, seed: 12 },
    );
  });

  it('refuse a damaged save instead of loading part of it', () => {
    const table = new FactsTable();
    const saved = factsOf({
      links: [{ target: 'Plan', line: 3 }],
      tags: [{ tag: 'idea', line: 1 }],
      properties: [{ key: 'status', value: 'done', line: 0, source: 'inline' }],
      aliases: ['P'],
      bodyStart: 10,
    }).saved(table);
    expect(NoteFacts.load(saved, table.strings)).not.toBeNull();
    const damaged: unknown[] = [
      null,
      'facts',
      { ...saved, links: [0] },
      { ...saved, tags: [99, 1] },
      { ...saved, properties: [0, 1, 0, 2] },
      { ...saved, properties: [0, 1, -1, 0] },
      { ...saved, aliases: [1.5] },
      { ...saved, bodyStart: -1 },
      { ...saved, links: 'Plan' },
    ];
    for (const facts of damaged) expect(NoteFacts.load(facts, table.strings)).toBeNull();
  });
});
