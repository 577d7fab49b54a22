import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNote, type NoteLink, type NoteProperty } from '../../../../src/core/graph/parseNote';
import { lines } from '../../../helpers/errors';

const FENCE = '```';

function link(target: string, line: number, extra: Partial<NoteLink> = {}): NoteLink {
  return { target, subpath: null, display: null, kind: 'wikilink', line, ...extra };
}

function inline(key: string, value: string, line: number): NoteProperty {
  return { key, value, line, source: 'inline' };
}

function frontmatter(key: string, value: string, line: number): NoteProperty {
  return { key, value, line, source: 'frontmatter' };
}

function tagsOf(text: string): string[] {
  return parseNote(text).tags.map((tag) => tag.tag);
}

function targetsOf(text: string): string[] {
  return parseNote(text).links.map((found) => found.target);
}

/** Milliseconds for one parse of `text`: the fastest of five, after a warm-up. */
function timeToParse(text: string): number {
  parseNote(text);
  let best = Infinity;
  for (let run = 0; run < 5; run += 1) {
    const start = performance.now();
    parseNote(text);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * How many times longer a note eight times the size takes to parse, both timed in the same moment:
 * linear parsing gives 8 to 20 (caches and the collector add their share at the larger size),
 * whatever else the machine is doing; a quadratic path gives 64 and more. Times under half a
 * millisecond count as that much: there the clock's grain is all there is to see.
 */
function growthFromSize(make: (size: number) => string, size: number): number {
  const floor = 0.5;
  return Math.max(timeToParse(make(8 * size)), floor) / Math.max(timeToParse(make(size)), floor);
}

describe('parseNote', () => {
  describe('when a note has wikilinks', () => {
    it.each<[string, Partial<NoteLink> & { target: string }]>([
      ['[[Page]]', { target: 'Page' }],
      ['[[Page|alias]]', { target: 'Page', display: 'alias' }],
      ['[[Page#Heading]]', { target: 'Page', subpath: 'Heading' }],
      ['[[Page#^block-id]]', { target: 'Page', subpath: '^block-id' }],
      ['[[Page#Heading|alias]]', { target: 'Page', subpath: 'Heading', display: 'alias' }],
      ['[[Page#Heading#Sub heading]]', { target: 'Page', subpath: 'Heading#Sub heading' }],
      ['[[#Heading]]', { target: '', subpath: 'Heading' }],
      ['[[#^block]]', { target: '', subpath: '^block' }],
      ['[[Folder/Sub Page.md]]', { target: 'Folder/Sub Page.md' }],
      ['[[../Up One]]', { target: '../Up One' }],
      ['[[Café 日本 (draft) & co.]]', { target: 'Café 日本 (draft) & co.' }],
      ['[[ Page | alias ]]', { target: 'Page', display: 'alias' }],
      ['![[diagram.png]]', { target: 'diagram.png', kind: 'embed' }],
      ['![[Page#Heading|300]]', { target: 'Page', subpath: 'Heading', display: '300', kind: 'embed' }],
    ])('reads %s', (text, expected) => {
      expect(parseNote(`See ${text} here.`).links).toEqual([link(expected.target, 0, expected)]);
    });

    it('reads the escaped pipe of a link inside a table as the alias separator', () => {
      const note = lines('| Note | Owner |', '| --- | --- |', '| [[Plans/Q3 Plan\\|Q3]] | [[People/Ann#^bio\\|Ann]] |');
      expect(parseNote(note).links).toEqual([
        link('Plans/Q3 Plan', 2, { display: 'Q3' }),
        link('People/Ann', 2, { subpath: '^bio', display: 'Ann' }),
      ]);
    });

    it('reports each link with its 0-based line, in order', () => {
      const note = lines('# Trip', '', 'Day one: [[Lisbon]], then ![[map.jpg]] and [[Porto|the north]].', 'Back to [[Lisbon#Food]].');
      expect(parseNote(note).links).toEqual([
        link('Lisbon', 2),
        link('map.jpg', 2, { kind: 'embed' }),
        link('Porto', 2, { display: 'the north' }),
        link('Lisbon', 3, { subpath: 'Food' }),
      ]);
    });

    it('ignores empty and unclosed links', () => {
      expect(targetsOf(lines('[[]] and [[|x]] and [[#]]', '[[Unclosed', 'next line]]', '[[Also unclosed'))).toEqual([]);
    });

    it('takes the innermost opening brackets when several open one link', () => {
      expect(targetsOf('[[a [[b]] and [[[c]]]')).toEqual(['b', 'c']);
    });

    it('treats an empty alias as no display text', () => {
      expect(parseNote('[[Page|]]').links).toEqual([link('Page', 0)]);
    });
  });

  describe('when a note has markdown links', () => {
    it.each<[string, Partial<NoteLink> & { target: string }]>([
      ['[the plan](path/to/note.md)', { target: 'path/to/note.md', display: 'the plan' }],
      ['[spaces](<path with spaces.md>)', { target: 'path with spaces.md', display: 'spaces' }],
      ['[encoded](My%20Note.md)', { target: 'My Note.md', display: 'encoded' }],
      ['[section](Note.md#Some%20Heading)', { target: 'Note.md', subpath: 'Some Heading', display: 'section' }],
      ['[block](Note.md#^abc123)', { target: 'Note.md', subpath: '^abc123', display: 'block' }],
      ['[same note](#Goals)', { target: '', subpath: 'Goals', display: 'same note' }],
      ['[up](../x.md)', { target: '../x.md', display: 'up' }],
      ['[unicode](Caf%C3%A9%20%E6%97%A5%E6%9C%AC.md)', { target: 'Café 日本.md', display: 'unicode' }],
      ['[hash in name](C%23%20notes.md)', { target: 'C# notes.md', display: 'hash in name' }],
      ['[parens](Note%20(1).md)', { target: 'Note (1).md', display: 'parens' }],
      ['[titled](Note.md "A title")', { target: 'Note.md', display: 'titled' }],
      ['[no extension](Projects/Alpha)', { target: 'Projects/Alpha', display: 'no extension' }],
      ['[bad escape](100%.md)', { target: '100%.md', display: 'bad escape' }],
      ['[](Empty%20text.md)', { target: 'Empty text.md' }],
      ['![a photo](assets/photo.png)', { target: 'assets/photo.png', display: 'a photo' }],
      ['[a pdf](files/report.pdf)', { target: 'files/report.pdf', display: 'a pdf' }],
    ])('reads %s', (text, expected) => {
      expect(parseNote(`Read ${text} today.`).links).toEqual([link(expected.target, 0, { kind: 'markdown', ...expected })]);
    });

    it.each([
      ['https', '[site](https://example.com/page.md)'],
      ['http', '[site](http://example.com)'],
      ['mailto', '[mail](mailto:ann@example.com)'],
      ['obsidian', '[open](obsidian://open?vault=v&file=Note)'],
      ['file', '[local](file:///tmp/x.md)'],
      ['protocol-relative', '[cdn](//cdn.example.com/x.md)'],
      ['an external image', '![logo](https://example.com/logo.png)'],
      ['an autolink', '<https://example.com/x.md>'],
    ])('does not read %s URLs as links', (_name, text) => {
      expect(parseNote(`See ${text}.`).links).toEqual([]);
    });

    it('does not read reference-style links or bare brackets', () => {
      expect(targetsOf(lines('[text][ref] and [just brackets] and [text] (spaced.md)', '', '[ref]: ref.md'))).toEqual([]);
    });

    it('orders wikilinks and markdown links by position on the line', () => {
      expect(targetsOf('[a](a.md) [[b]] [c](c.md) ![[d]]')).toEqual(['a.md', 'b', 'c.md', 'd']);
    });
  });

  describe('when links, tags or fields are inside code', () => {
    it.each([
      ['a backtick fence with an info string', lines(`${FENCE}ts`, 'const x = "[[Hidden]] #hidden";', 'key:: value', FENCE)],
      ['a tilde fence', lines('~~~', '[[Hidden]] #hidden', '~~~')],
      ['a longer fence holding a shorter one', lines('````md', FENCE, '[[Hidden]]', FENCE, '#hidden', '````')],
      ['a fence inside a list item', lines('- Example:', `  ${FENCE}`, '  [[Hidden]] #hidden', `  ${FENCE}`)],
      ['a fence inside a blockquote', lines(`> ${FENCE}`, '> [[Hidden]] #hidden', `> ${FENCE}`)],
      ['a fence inside a Logseq block', lines(`- ${FENCE}js`, '  x:: [[Hidden]]', `  ${FENCE}`)],
      ['an unclosed fence, which runs to the end', lines(FENCE, '[[Hidden]] #hidden', '', 'key:: value')],
    ])('finds nothing in %s', (_name, text) => {
      const note = parseNote(lines('before', text));
      expect(note.links).toEqual([]);
      expect(note.tags).toEqual([]);
      expect(note.properties).toEqual([]);
      expect(note.headings).toEqual([]);
    });

    it('reads what follows a closed fence', () => {
      const note = lines(`${FENCE}python`, '# a comment, not a heading', FENCE, '# Real heading', '[[After]] #after');
      const parsed = parseNote(note);
      expect(parsed.headings).toEqual([{ text: 'Real heading', level: 1, line: 3 }]);
      expect(parsed.links).toEqual([link('After', 4)]);
      expect(parsed.tags).toEqual([{ tag: 'after', line: 4 }]);
    });

    it('does not close a fence with a shorter one or a different character', () => {
      expect(targetsOf(lines('````', FENCE, '~~~~', '[[Hidden]]', '````', '[[Shown]]'))).toEqual(['Shown']);
    });

    it('reads a line with backticks and more text after them as inline code, not a fence', () => {
      expect(targetsOf(lines('```[[Hidden]]``` [[Shown]]', '[[Next]]'))).toEqual(['Shown', 'Next']);
    });

    it('finds nothing in inline code spans, with one or more backticks', () => {
      const note = parseNote('Use `[[Hidden]] #hidden` or ``a ` [[Hidden]]`` then [[Shown]] #shown and `[k:: v]`.');
      expect(note.links).toEqual([link('Shown', 0)]);
      expect(note.tags.map((tag) => tag.tag)).toEqual(['shown']);
      expect(note.properties).toEqual([]);
    });

    it('reads a lone backtick as text', () => {
      expect(targetsOf('It`s [[Shown]] and that is all')).toEqual(['Shown']);
      expect(targetsOf('It`s [[Shown too]] and `[[Also shown]]`')).toEqual(['Also shown']);
    });

    it('reads an escaped backtick as text', () => {
      expect(targetsOf('\\`[[Shown]] and `[[Hidden]]`')).toEqual(['Shown']);
    });
  });

  describe('when links, tags or fields are inside comments', () => {
    it('finds nothing in inline HTML and Obsidian comments', () => {
      const note = parseNote('A <!-- [[Hidden]] #hidden --> B %% [[Hidden]] [k:: v] %% C [[Shown]] #shown');
      expect(note.links).toEqual([link('Shown', 0)]);
      expect(note.tags.map((tag) => tag.tag)).toEqual(['shown']);
      expect(note.properties).toEqual([]);
    });

    it('finds nothing in multi-line comments', () => {
      const note = lines(
        'Intro [[A]]',
        '%%',
        '[[Hidden]] #hidden',
        'key:: value',
        '# Not a heading',
        '%% [[B]]',
        'text <!-- starts here',
        '[[Hidden]]',
        'ends here --> [[C]]',
      );
      const parsed = parseNote(note);
      expect(parsed.links).toEqual([link('A', 0), link('B', 5), link('C', 8)]);
      expect(parsed.tags).toEqual([]);
      expect(parsed.properties).toEqual([]);
      expect(parsed.headings).toEqual([]);
    });

    it('reads comment markers inside code as code, and code markers inside comments as comment', () => {
      expect(targetsOf('`%%` [[A]] `<!--` [[B]] %% `[[Hidden]] %% [[C]]')).toEqual(['A', 'B', 'C']);
    });

    it('reads fence markers inside a comment as comment text', () => {
      expect(targetsOf(lines('%%', FENCE, '%%', '[[Shown]]', FENCE))).toEqual(['Shown']);
    });

    it('reads comment markers inside a fence as code', () => {
      expect(targetsOf(lines(FENCE, '%%', FENCE, '[[Shown]]', '%%'))).toEqual(['Shown']);
    });

    it('leaves a comment that is never closed open to the end', () => {
      expect(targetsOf(lines('[[A]] %% open', '[[Hidden]]', '', '[[Hidden too]]'))).toEqual(['A']);
    });
  });

  describe('when a note has tags', () => {
    it('reads tags as written, without the #', () => {
      expect(tagsOf('#simple #Nested/Tag #with-dash_and_underscore #café #日本 #CamelCase #1a #v2/beta')).toEqual([
        'simple',
        'Nested/Tag',
        'with-dash_and_underscore',
        'café',
        '日本',
        'CamelCase',
        '1a',
        'v2/beta',
      ]);
    });

    it('reports each tag with its line', () => {
      expect(parseNote(lines('#first', 'text', '  - item #second')).tags).toEqual([
        { tag: 'first', line: 0 },
        { tag: 'second', line: 2 },
      ]);
    });

    it('reads a tag only after whitespace or at the start of a line', () => {
      expect(tagsOf('a#b, [[Page#Heading]], https://example.com/#fragment, &#39; and (#paren) but\t#tab')).toEqual(['tab']);
    });

    it('does not read only digits as a tag', () => {
      expect(tagsOf('#123 #2024 #１２')).toEqual([]);
    });

    it('ends a tag at punctuation other than - _ /', () => {
      expect(tagsOf('#end. #comma, #semi; #quote" #bang! #paren) #colon: #star* #plus+')).toEqual([
        'end',
        'comma',
        'semi',
        'quote',
        'bang',
        'paren',
        'colon',
        'star',
        'plus',
      ]);
    });

    it('does not read headings or a lone # as tags', () => {
      expect(tagsOf(lines('# Title', '## Sub', '#', 'a # b', '###### six'))).toEqual([]);
    });

    it('reads tags in headings, list items, quotes and field values', () => {
      expect(tagsOf(lines('# Title #h', '- item #l', '> quote #q', 'status:: #done'))).toEqual(['h', 'l', 'q', 'done']);
    });

    it('does not read tags inside link text or destinations', () => {
      expect(tagsOf('[[Page| #alias]] [see #this](Note.md) [x](<a #b.md>)')).toEqual([]);
    });

    it('reads emoji in tags', () => {
      expect(tagsOf('#🚀launch #ok👍🏽 #🏳️‍🌈')).toEqual(['🚀launch', 'ok👍🏽', '🏳️‍🌈']);
    });
  });

  describe('when a note has inline fields', () => {
    it('reads Dataview fields filling a line, bare or in a list item', () => {
      const note = lines('status:: in progress', '- due:: 2024-05-01', '  * owner :: Ann  ', '1. rank:: 3', '- [ ] task:: write', '> quoted:: yes');
      expect(parseNote(note).properties).toEqual([
        inline('status', 'in progress', 0),
        inline('due', '2024-05-01', 1),
        inline('owner', 'Ann', 2),
        inline('rank', '3', 3),
        inline('task', 'write', 4),
        inline('quoted', 'yes', 5),
      ]);
    });

    it('reads Logseq page and block properties', () => {
      const note = lines('title:: Weekly review', 'tags:: review, weekly', '', '- Plan the week', '  id:: 6650e3a1', '  collapsed:: true', '\t- child', '\t  owner:: [[Ann]]');
      const parsed = parseNote(note);
      expect(parsed.properties).toEqual([
        inline('title', 'Weekly review', 0),
        inline('tags', 'review, weekly', 1),
        inline('id', '6650e3a1', 4),
        inline('collapsed', 'true', 5),
        inline('owner', '[[Ann]]', 7),
      ]);
      expect(parsed.links).toEqual([link('Ann', 7)]);
    });

    it('reads keys with spaces and formatting, trimmed', () => {
      expect(parseNote('  Due Date  ::   tomorrow  ').properties).toEqual([inline('Due Date', 'tomorrow', 0)]);
    });

    it('reads an empty value', () => {
      expect(parseNote('- reviewed::').properties).toEqual([inline('reviewed', '', 0)]);
    });

    it('reads bracketed fields anywhere in a line', () => {
      const note = lines('- [ ] Call Ann [due:: 2024-05-01] (priority:: high)', 'Rated [rating:: 9] by [[Bob]] (mood:: fine)');
      const parsed = parseNote(note);
      expect(parsed.properties).toEqual([
        inline('due', '2024-05-01', 0),
        inline('priority', 'high', 0),
        inline('rating', '9', 1),
        inline('mood', 'fine', 1),
      ]);
      expect(parsed.links).toEqual([link('Bob', 1)]);
    });

    it('keeps links in values, and lists them among the links', () => {
      const note = lines('project:: [[Alpha|the alpha]] and [spec](Specs/Alpha%20spec.md)', 'Met [with:: [[Ann]], [[Bob]]] and [where:: [office](Places/HQ.md)]');
      const parsed = parseNote(note);
      expect(parsed.properties).toEqual([
        inline('project', '[[Alpha|the alpha]] and [spec](Specs/Alpha%20spec.md)', 0),
        inline('with', '[[Ann]], [[Bob]]', 1),
        inline('where', '[office](Places/HQ.md)', 1),
      ]);
      expect(parsed.links).toEqual([
        link('Alpha', 0, { display: 'the alpha' }),
        link('Specs/Alpha spec.md', 0, { display: 'spec', kind: 'markdown' }),
        link('Ann', 1),
        link('Bob', 1),
        link('Places/HQ.md', 1, { display: 'office', kind: 'markdown' }),
      ]);
    });

    it('keeps nested brackets in a bracketed value', () => {
      expect(parseNote('(calc:: f(x) + (y)) [list:: [a] [b]]').properties).toEqual([inline('calc', 'f(x) + (y)', 0), inline('list', '[a] [b]', 0)]);
    });

    it('keeps inline code in a value but drops comments', () => {
      expect(parseNote('cmd:: `npm test` %% flaky %% daily').properties).toEqual([inline('cmd', '`npm test`  daily', 0)]);
    });

    it('does not read a field whose key is code, a link or bracketed text', () => {
      expect(parseNote(lines('`code`:: x', '[[Page]]:: x', '[a] b:: x', 'x [unclosed:: y', '::: x', ':: x')).properties).toEqual([]);
    });

    it('does not read a heading as a field', () => {
      expect(parseNote('# Title:: subtitle').properties).toEqual([]);
    });
  });

  describe('when a note has frontmatter', () => {
    it('reads simple frontmatter exactly as the YAML parser reads it', () => {
      // A comment line is valid YAML that only the full parser takes: the same frontmatter with
      // one in front must give the same properties, tags, aliases and links, one line further down.
      const KEYS = ['tags', 'Tags', 'tag', 'aliases', 'alias', 'status', 'Date created', 'a.b', 'Café', 'related', 'n', 'True', '1'];
      const VALUES = ['', 'open', '1.10', '0x1F', 'true', '~', 'null', 'a, b', '#x', 'x #y', 'x#y', 'a: b', 'a:b', '[[Link]]', 'see [[Link]]', '100%', '-5',
        '- x', "it's", '\u00a0x', 'x\u00a0', "'q'", '"q"', '*a', '&a', '!t', 'a  b', '1:30', 'note:', '#a #b', 'a/b c', '東京', 'x\ty', 'p, q , r', '.inf', '{a: 1}',
        '[]', '[ ]', '[a]', '""', "''", '"a b"', '"p, q"', '"#x #y"', "'a: b'", '"null"', "'~'", '"[[Link]]"', "'see [[Link]]'", '"a\\"b"', '"a\\\\b"',
        "'it''s'", '"x" # c', '"q" x', '"é ü"', "'a\\b'", '" x "', '"\'"', "'\"'", '"a [b]"'];
      const entry = fc.record({
        key: fc.constantFrom(...KEYS),
        value: fc.constantFrom(...VALUES),
        items: fc.array(fc.constantFrom(...VALUES.filter((value) => value !== '')), { maxLength: 3 }),
        indent: fc.constantFrom('', '  ', '    '),
        blank: fc.boolean(),
        trailing: fc.constantFrom('', ' '),
        // Items after a key that has a value: invalid YAML, which neither reading may half take.
        itemsAfterValue: fc.boolean(),
      });
      // A nested map under a key with no value: scalars of every type the core schema knows.
      const SCALARS = ['', 'null', '~', 'true', 'False', 'TRUE', '1.10', '0x1F', '0o17', '.inf', '-.Inf', '.NaN', '+12', '-5', '1e3', '007', '1.', '.5', 'text', 'a b',
        '2026-11-22T05:00:00.000Z', '12345678901234567890', 'yes', 'x: y', '#c', "it's"];
      const field = fc.record({ name: fc.constantFrom('conversation', 'run', 'note', 'commit', 'run', 'Note', 'a.b'), value: fc.constantFrom(...SCALARS) });
      const mapEntry = fc.record({ key: fc.constantFrom(...KEYS), fields: fc.array(field, { minLength: 1, maxLength: 4 }), indent: fc.constantFrom('  ', '    ', ' ') });
      const render = fc.oneof(
        entry.map(({ key, value, items, indent, blank, trailing, itemsAfterValue }) =>
          [`${key}:${value === '' ? '' : ` ${value}`}${trailing}`, ...(value === '' || itemsAfterValue ? items.map((item) => `${indent}- ${item}`) : []), ...(blank ? [''] : [])].join('\n'),
        ),
        mapEntry.map(({ key, fields, indent }) => [`${key}:`, ...fields.map(({ name, value }) => `${indent}${name}:${value === '' ? '' : ` ${value}`}`)].join('\n')),
      );
      fc.assert(
        fc.property(fc.array(render, { minLength: 1, maxLength: 5 }), (entries) => {
          const yaml = entries.join('\n');
          const direct = parseNote(`---\n${yaml}\n---\nBody`);
          const parsed = parseNote(`---\n# comment\n${yaml}\n---\nBody`);
          const up = <T extends { line: number }>(list: T[]): T[] => list.map((item) => ({ ...item, line: item.line - 1 }));
          expect(direct.properties).toEqual(up(parsed.properties));
          expect(direct.tags).toEqual(up(parsed.tags));
          expect(direct.links).toEqual(up(parsed.links));
          expect(direct.aliases).toEqual(parsed.aliases);
        }),
        { numRuns: 3000, seed: 3 },
      );
    });

    it('reads every top-level key as a property, with the line of its key', () => {
      const note = lines(
        '---',
        'title: Weekly plan',
        'count: 3',
        'version: 1.10',
        'done: false',
        'date: 2024-05-01',
        'when: 2024-05-01T10:30:00',
        'empty:',
        'list: [a, b, 3]',
        'block:',
        '  - one',
        '  - two',
        'nested: {a: 1, b: [x]}',
        '---',
        'Body',
      );
      expect(parseNote(note).properties).toEqual([
        frontmatter('title', 'Weekly plan', 1),
        frontmatter('count', '3', 2),
        frontmatter('version', '1.10', 3),
        frontmatter('done', 'false', 4),
        frontmatter('date', '2024-05-01', 5),
        frontmatter('when', '2024-05-01T10:30:00', 6),
        frontmatter('empty', '', 7),
        frontmatter('list', 'a, b, 3', 8),
        frontmatter('block', 'one, two', 9),
        frontmatter('nested', '{"a":1,"b":["x"]}', 12),
      ]);
    });

    it.each([
      ['a flow list', 'tags: [project, "#urgent", Area/Home]', ['project', 'urgent', 'Area/Home']],
      ['a block list', 'tags:\n  - project\n  - "#urgent"', ['project', 'urgent']],
      ['a comma-separated string', 'tags: project, urgent', ['project', 'urgent']],
      ['a space-separated string', 'tags: "#project #urgent"', ['project', 'urgent']],
      ['the singular key', 'tag: solo', ['solo']],
      ['a capitalized key', 'Tags: [Mixed]', ['Mixed']],
      ['numbers, which are not tags', 'tags: [2024, y2024]', ['y2024']],
    ])('reads tags from %s', (_name, yaml, expected) => {
      expect(tagsOf(lines('---', yaml, '---', 'Body #body'))).toEqual([...expected, 'body']);
    });

    it('reports a frontmatter tag with the line of its list item', () => {
      expect(parseNote(lines('---', 'tags:', '  - a', '  - b', '---')).tags).toEqual([
        { tag: 'a', line: 2 },
        { tag: 'b', line: 3 },
      ]);
    });

    it.each([
      ['a list', 'aliases: [Plan, "The Plan"]', ['Plan', 'The Plan']],
      ['a block list', 'aliases:\n  - Plan\n  - Q3, 2024', ['Plan', 'Q3, 2024']],
      ['a comma-separated string', 'aliases: Plan, The Plan', ['Plan', 'The Plan']],
      ['the singular key', 'alias: Plan', ['Plan']],
    ])('reads aliases from %s', (_name, yaml, expected) => {
      expect(parseNote(lines('---', yaml, '---')).aliases).toEqual(expected);
    });

    it('reads nested values a few levels deep', () => {
      expect(parseNote(lines('---', `deep: ${'['.repeat(10)}x${']'.repeat(10)}`, 'outer:', '  inner:', '    - [a, {b: c}]', '---')).properties).toEqual([
        frontmatter('deep', 'x', 1),
        frontmatter('outer', '{"inner":[["a",{"b":"c"}]]}', 2),
      ]);
    });

    it('reads wikilinks in frontmatter strings, at any depth', () => {
      const note = lines('---', 'related: "[[Other]]"', 'people:', '  - "[[Ann|A]]"', '  - plain', 'meta: {cover: "![[cover.png]]"}', 'url: "[x](y.md)"', '---', '[[Body]]');
      expect(parseNote(note).links).toEqual([
        link('Other', 1),
        link('Ann', 3, { display: 'A' }),
        link('cover.png', 5, { kind: 'embed' }),
        link('Body', 8),
      ]);
    });

    it('does not read the frontmatter as body', () => {
      const text = lines('---', 'title: "# Not a heading [[Not a body link]]"', '---', '# Heading', 'Text');
      const parsed = parseNote(text);
      expect(text.slice(parsed.bodyStart)).toBe(lines('# Heading', 'Text'));
      expect(parsed.headings).toEqual([{ text: 'Heading', level: 1, line: 3 }]);
      expect(parsed.tags).toEqual([]);
    });

    it.each([
      ['invalid YAML', 'title: [unclosed'],
      ['duplicate keys', 'a: 1\na: 2'],
      ['a list instead of a mapping', '- a\n- b'],
      ['a tab-indented mapping', 'a:\n\tb: 1'],
      ['nesting deeper than 64 levels', `a: ${'['.repeat(65)}${']'.repeat(65)}`],
    ])('reads no frontmatter properties from %s, but still the body', (_name, yaml) => {
      const parsed = parseNote(lines('---', yaml, '---', '# Title', '[[Link]] #tag', 'key:: value'));
      expect(parsed.properties).toEqual([inline('key', 'value', yaml.split('\n').length + 4)]);
      expect(parsed.links.map((found) => found.target)).toEqual(['Link']);
      expect(parsed.tags.map((tag) => tag.tag)).toEqual(['tag']);
      expect(parsed.headings.map((heading) => heading.text)).toEqual(['Title']);
      expect(parsed.aliases).toEqual([]);
    });

    it('reads an unclosed opening fence as body', () => {
      const parsed = parseNote(lines('---', 'title: x', '[[Link]]'));
      expect(parsed.bodyStart).toBe(0);
      expect(parsed.properties).toEqual([]);
      expect(parsed.links).toEqual([link('Link', 2)]);
    });

    it('reads --- further down as a thematic break', () => {
      expect(parseNote(lines('Text', '---', 'title: x', '---')).properties).toEqual([]);
    });

    it('handles CRLF line endings and a byte order mark', () => {
      const text = '\uFEFF---\r\ntitle: Plan\r\n---\r\n# Heading\r\nstatus:: open\r\n[[Link]] #tag\r\n';
      const parsed = parseNote(text);
      expect(parsed.properties).toEqual([frontmatter('title', 'Plan', 1), inline('status', 'open', 4)]);
      expect(parsed.headings).toEqual([{ text: 'Heading', level: 1, line: 3 }]);
      expect(parsed.links).toEqual([link('Link', 5)]);
      expect(parsed.tags).toEqual([{ tag: 'tag', line: 5 }]);
      expect(text.slice(parsed.bodyStart)).toBe('# Heading\r\nstatus:: open\r\n[[Link]] #tag\r\n');
    });

    it('reads a heading on the first line after a byte order mark', () => {
      expect(parseNote('\uFEFF# Title').headings).toEqual([{ text: 'Title', level: 1, line: 0 }]);
    });
  });

  describe('when a note has headings', () => {
    it('reads ATX headings of every level', () => {
      const note = lines('# One', '## Two', '### Three', '#### Four', '##### Five', '###### Six', '####### Seven');
      expect(parseNote(note).headings).toEqual([
        { text: 'One', level: 1, line: 0 },
        { text: 'Two', level: 2, line: 1 },
        { text: 'Three', level: 3, line: 2 },
        { text: 'Four', level: 4, line: 3 },
        { text: 'Five', level: 5, line: 4 },
        { text: 'Six', level: 6, line: 5 },
      ]);
    });

    it('trims the closing #s but keeps a # that ends a word', () => {
      expect(parseNote(lines('## Title ##', '# C#', '#   Spaced   #  ', '# `code` and [[Link]]')).headings.map((heading) => heading.text)).toEqual([
        'Title',
        'C#',
        'Spaced',
        '`code` and [[Link]]',
      ]);
    });

    it('needs a space after the #s and at most three spaces before', () => {
      expect(parseNote(lines('#NoSpace', '    # Indented code', '   # Three spaces', '#\tTab', '# ', '#')).headings).toEqual([
        { text: 'Three spaces', level: 1, line: 2 },
        { text: 'Tab', level: 1, line: 3 },
      ]);
    });

    it('drops comments from a heading', () => {
      expect(parseNote('# Title %% draft %%').headings).toEqual([{ text: 'Title', level: 1, line: 0 }]);
    });
  });

  describe('when the note has no frontmatter', () => {
    it('returns the whole text as the body', () => {
      const text = lines('# Title', '', 'Text [[Link]]');
      expect(parseNote(text).bodyStart).toBe(0);
      expect(parseNote(`\uFEFF${text}`).bodyStart).toBe(1);
    });

    it('returns empty results for an empty note', () => {
      expect(parseNote('')).toEqual({ links: [], tags: [], properties: [], aliases: [], headings: [], bodyStart: 0 });
    });
  });

  describe('when the input is pathological', () => {
    const size = 100_000;
    it.each([
      ['[', (n: number) => '['.repeat(n)],
      ['#', (n: number) => '#'.repeat(n)],
      ['`', (n: number) => '`'.repeat(n)],
      ['backtick runs of every length', (n: number) => Array.from({ length: Math.round(Math.sqrt(2 * n)) }, (_, index) => '`'.repeat(index + 1)).join(' ')],
      ['[[', (n: number) => `${'[['.repeat(n / 2)}]]`],
      ['[[a', (n: number) => '[[a'.repeat(n / 3)],
      ['[a](', (n: number) => '[a]('.repeat(n / 4)],
      ['[a](<', (n: number) => '[a](<'.repeat(n / 5)],
      ['[a](b (', (n: number) => '[a](b ('.repeat(n / 7)],
      ['[a](( nested', (n: number) => `[x](${'('.repeat(n)}`],
      ['[k:: ', (n: number) => '[k:: '.repeat(n / 5)],
      ['(k:: (', (n: number) => '(k:: ('.repeat(n / 6)],
      ['::', (n: number) => '::'.repeat(n / 2)],
      ['<!--', (n: number) => '<!--'.repeat(n / 4)],
      ['%%', (n: number) => '%'.repeat(n)],
      ['# followed by spaces', (n: number) => `# ${' '.repeat(n)}x`],
      ['# with closing #s', (n: number) => `# a${' #'.repeat(n / 2)}`],
      ['a long tag', (n: number) => ` #${'a'.repeat(n)}`],
      ['backslashes', (n: number) => '\\'.repeat(n)],
      ['lines of fences', (n: number) => '```\n'.repeat(n / 4)],
      ['lines of link openers', (n: number) => '[a](b\n'.repeat(n / 6)],
      ['deep YAML', (n: number) => `---\na: ${'['.repeat(0.3 * n)}\n---\n`],
      ['deep YAML lists', (n: number) => `---\n${'- '.repeat(0.3 * n)}x\n---\n`],
      ['a YAML staircase', (n: number) => `---\n${Array.from({ length: Math.round(Math.sqrt(2 * n)) }, (_, index) => `${' '.repeat(index)}k:`).join('\n')}\n---\n`],
    ])('parses %s in linear time', (_name, make) => {
      expect(growthFromSize(make, size)).toBeLessThan(32);
    });

    it('parses a note full of links, tags, fields, code and comments in linear time, up to 1 MB', () => {
      const section = lines(
        '## Section #tag',
        'Prose with [[Link|alias]], [md](Note%20A.md#x), `code [[no]]`, #topic/sub, (field:: value) and %% hidden %% text.',
        '- item:: thing',
        '- [ ] task [due:: 2024-01-01] <!-- note -->',
        `${FENCE}ts`,
        'const a = [[1]];',
        FENCE,
        '',
      );
      const note = (n: number) => `---\ntags: [a, b]\n---\n${`${section}\n`.repeat(Math.ceil(n / section.length))}`;
      expect(growthFromSize(note, 125_000)).toBeLessThan(32);
    });
  });

  describe('for generated notes (property)', () => {
    const letters = ['a', 'b', 'z', 'A', 'Q', 'é', 'ß', '日', 'ж'];
    const nameChars = [...letters, '1', '9', ' ', '.', '-', '_', "'", ',', '&', '/'];
    const word = fc.constantFrom('alpha', 'beta', 'Gamma', 'café', '日本語', 'x1', 'done.', 'and,', '(aside)', 'a*b*');
    const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
    const name = fc
      .tuple(fc.constantFrom(...letters), fc.array(fc.constantFrom(...nameChars), { maxLength: 12 }), fc.constantFrom(...letters))
      .map(([first, middle, last]) => first + middle.join('') + last);
    const key = fc.tuple(fc.constantFrom(...letters), fc.array(fc.constantFrom('a', 'k', '1', '_', '-'), { maxLength: 6 })).map(([first, rest]) => first + rest.join(''));
    const tag = fc
      .tuple(fc.constantFrom(...letters), fc.array(fc.constantFrom(...letters, '1', '-', '_', '/'), { maxLength: 8 }))
      .map(([first, rest]) => first + rest.join(''));
    const blockId = fc.array(fc.constantFrom('a', 'f', '0', '9', '-'), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));

    /** A piece of inline markdown and what it contributes when it is outside code and comments. */
    interface Inline {
      text: string;
      links: Omit<NoteLink, 'line'>[];
      tags: string[];
      fields: { key: string; value: string }[];
    }
    const none = { links: [], tags: [], fields: [] };
    const wiki = (target: string, extra: Partial<NoteLink> = {}): Omit<NoteLink, 'line'> => ({ target, subpath: null, display: null, kind: 'wikilink', ...extra });

    const wikilinkItem: fc.Arbitrary<Inline> = fc.oneof(
      name.map((target) => ({ ...none, text: `[[${target}]]`, links: [wiki(target)] })),
      fc.tuple(name, words).map(([target, alias]) => ({ ...none, text: `[[${target}|${alias}]]`, links: [wiki(target, { display: alias })] })),
      fc.tuple(name, words).map(([target, alias]) => ({ ...none, text: `[[${target}\\|${alias}]]`, links: [wiki(target, { display: alias })] })),
      fc.tuple(name, words).map(([target, heading]) => ({ ...none, text: `[[${target}#${heading}]]`, links: [wiki(target, { subpath: heading })] })),
      fc.tuple(name, blockId).map(([target, id]) => ({ ...none, text: `[[${target}#^${id}]]`, links: [wiki(target, { subpath: `^${id}` })] })),
      words.map((heading) => ({ ...none, text: `[[#${heading}]]`, links: [wiki('', { subpath: heading })] })),
      name.map((target) => ({ ...none, text: `![[${target}]]`, links: [wiki(target, { kind: 'embed' })] })),
    );
    const markdownItem: fc.Arbitrary<Inline> = fc.oneof(
      fc.tuple(words, name).map(([text, target]) => ({ ...none, text: `[${text}](${encodeURI(`${target}.md`)})`, links: [wiki(`${target}.md`, { kind: 'markdown', display: text })] })),
      fc.tuple(words, name).map(([text, target]) => ({ ...none, text: `[${text}](<${target}.md>)`, links: [wiki(`${target}.md`, { kind: 'markdown', display: text })] })),
      fc.tuple(words, name, words).map(([text, target, heading]) => ({
        ...none,
        text: `![${text}](${encodeURI(target)}.png#${encodeURIComponent(heading)})`,
        links: [wiki(`${target}.png`, { kind: 'markdown', display: text, subpath: heading })],
      })),
      fc.tuple(words, name).map(([text, path]) => ({ ...none, text: `[${text}](https://example.com/${encodeURI(path)}.md)` })),
    );
    const tagItem: fc.Arbitrary<Inline> = tag.map((value) => ({ ...none, text: `#${value}`, tags: [value] }));
    const fieldItem: fc.Arbitrary<Inline> = fc
      .tuple(key, words, fc.boolean())
      .map(([k, value, round]) => ({ ...none, text: round ? `(${k}:: ${value})` : `[${k}:: ${value}]`, fields: [{ key: k, value }] }));
    const item = fc.oneof(wikilinkItem, markdownItem, tagItem, fieldItem, word.map((text) => ({ ...none, text })));

    /** Where an inline item goes: in the prose, or hidden in code or a comment. */
    const placed = fc.tuple(item, fc.constantFrom('prose', 'prose', 'prose', 'code', 'double code', 'html comment', 'percent comment')).map(([inlineItem, where]): Inline => {
      switch (where) {
        case 'code':
          return { ...none, text: `\`${inlineItem.text}\`` };
        case 'double code':
          return { ...none, text: `\`\` ${inlineItem.text} \`\`` };
        case 'html comment':
          return { ...none, text: `<!-- ${inlineItem.text} -->` };
        case 'percent comment':
          return { ...none, text: `%% ${inlineItem.text} %%` };
        default:
          return inlineItem;
      }
    });
    const proseLine = fc.tuple(fc.constantFrom('', '- ', '  * ', '> '), fc.array(placed, { minLength: 1, maxLength: 5 })).map(([prefix, items]) => ({
      text: prefix + items.map((inlineItem) => inlineItem.text).join(' '),
      items,
    }));

    interface Expected {
      links: NoteLink[];
      tags: { tag: string; line: number }[];
      properties: NoteProperty[];
      headings: { text: string; level: number; line: number }[];
    }
    type Block = (out: string[], expected: Expected) => void;

    function addVisible(items: readonly Inline[], line: number, expected: Expected): void {
      for (const inlineItem of items) {
        expected.links.push(...inlineItem.links.map((found) => ({ ...found, line })));
        expected.tags.push(...inlineItem.tags.map((value) => ({ tag: value, line })));
        expected.properties.push(...inlineItem.fields.map((field) => inline(field.key, field.value, line)));
      }
    }

    const hiddenLines = fc.array(proseLine, { minLength: 1, maxLength: 3 }).map((proseLines) => proseLines.map((prose) => prose.text));
    const block: fc.Arbitrary<Block> = fc.oneof(
      proseLine.map((prose): Block => (out, expected) => {
        addVisible(prose.items, out.length, expected);
        out.push(prose.text);
      }),
      fc.tuple(fc.constantFrom('', '- ', '\t'), key, fc.oneof(words.map((text): Inline => ({ ...none, text })), wikilinkItem)).map(([prefix, k, value]): Block => (out, expected) => {
        expected.properties.push(inline(k, value.text, out.length));
        addVisible([value], out.length, expected);
        out.push(`${prefix}${k}:: ${value.text}`);
      }),
      fc.tuple(fc.integer({ min: 1, max: 6 }), words).map(([level, text]): Block => (out, expected) => {
        expected.headings.push({ text, level, line: out.length });
        out.push(`${'#'.repeat(level)} ${text}`);
      }),
      fc.tuple(fc.constantFrom('```', '````', '~~~', '~~~~~'), fc.constantFrom('', 'ts', 'md'), hiddenLines).map(([fence, info, body]): Block => (out) => {
        out.push(fence + info, ...body, fence);
      }),
      fc
        .tuple(fc.constantFrom(['%%', '%%'], ['<!--', '-->']), hiddenLines)
        // A comment inside a comment would close it early.
        .filter(([[, close], body]) => body.every((text) => !text.includes(close)))
        .map(([[open, close], body]): Block => (out) => {
          out.push(open, ...body, close);
        }),
      fc.constant<Block>((out) => {
        out.push('');
      }),
    );

    it('returns exactly the links, tags, fields and headings placed outside code and comments', () => {
      fc.assert(
        fc.property(fc.option(fc.tuple(word, fc.array(tag, { maxLength: 3 }), name)), fc.array(block, { maxLength: 12 }), (front, blocks) => {
          const out: string[] = [];
          const expected: Expected = { links: [], tags: [], properties: [], headings: [] };
          if (front !== null) {
            const [title, tags, related] = front;
            out.push('---', `title: ${title}`, `tags: [${tags.join(', ')}]`, `related: "[[${related}]]"`, '---');
            expected.properties.push(frontmatter('title', title, 1), frontmatter('tags', tags.join(', '), 2), frontmatter('related', `[[${related}]]`, 3));
            expected.tags.push(...tags.map((value) => ({ tag: value, line: 2 })));
            expected.links.push(link(related, 3));
          }
          for (const add of blocks) add(out, expected);
          const parsed = parseNote(out.join('\n'));
          expect({ links: parsed.links, tags: parsed.tags, properties: parsed.properties, headings: parsed.headings }).toEqual(expected);
        }),
        { numRuns: 300 },
      );
    });

    it('never throws, and reports only lines that exist', () => {
      const soup = fc
        .array(
          fc.oneof(
            fc.constantFrom('[', ']', '(', ')', '[[', ']]', '![[', '#', '`', '```', '~~~', '%%', '<!--', '-->', '::', ':', '|', '\\|', '\\', '^', '<', '>', '!'),
            fc.constantFrom('\n', '\r\n', ' ', '\t', '---', '- ', '#tag', 'a', 'é', '日', '1', '%20', '%', 'http:', '"', "'"),
            fc.string({ maxLength: 5 }),
          ),
          { maxLength: 80 },
        )
        .map((parts) => parts.join(''));
      fc.assert(
        fc.property(fc.oneof(soup, fc.string({ unit: 'binary', maxLength: 200 }), soup.map((text) => `---\n${text}\n---\n${text}`)), (text) => {
          const parsed = parseNote(text);
          const lineCount = text.split('\n').length;
          const lineNumbers = [...parsed.links, ...parsed.tags, ...parsed.properties, ...parsed.headings].map((entry) => entry.line);
          expect(lineNumbers.every((line) => Number.isInteger(line) && line >= 0 && line < lineCount)).toBe(true);
          expect(parsed.tags.every((entry) => entry.tag !== '' && !entry.tag.startsWith('#'))).toBe(true);
          expect(parsed.bodyStart >= 0 && parsed.bodyStart <= text.length).toBe(true);
          if (parsed.bodyStart > 1 && parsed.bodyStart < text.length) expect(text.slice(0, parsed.bodyStart)).toMatch(/\n$/);
        }),
        { numRuns: 1000 },
      );
    });
  });
});
