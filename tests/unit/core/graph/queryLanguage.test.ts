import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CancelledError, InvalidArgumentError } from '../../../../src/core/errors';
import {
  QUERY_LIMITS,
  evaluateQuery,
  parseQuery,
  type QueryMatch,
  type QueryNode,
  type QuerySource,
  type QueryableNote,
} from '../../../../src/core/graph/queryLanguage';
import { thrownBy } from '../../../helpers/errors';

// ---------------------------------------------------------------------------------------------
// Builders

const tag = (name: string): QueryNode => ({ kind: 'tag', tag: name });
const and = (left: QueryNode, right: QueryNode): QueryNode => ({ kind: 'and', left, right });
const or = (left: QueryNode, right: QueryNode): QueryNode => ({ kind: 'or', left, right });
const not = (operand: QueryNode): QueryNode => ({ kind: 'not', operand });

/** The error `parseQuery` throws for `query`. */
function queryError(query: string): InvalidArgumentError {
  return thrownBy(() => parseQuery(query), InvalidArgumentError);
}

/**
 * A vault in memory: links resolve by full path or by file name (case-insensitive), preferring a
 * note in the linking note's folder, as Obsidian does.
 */
function resolverFor(paths: readonly string[]): (target: string, fromPath: string) => string | null {
  return (target, fromPath) => {
    const wanted = target.replace(/\.md$/i, '').toLowerCase();
    const byPath = paths.find((path) => path.replace(/\.md$/, '').toLowerCase() === wanted);
    if (byPath !== undefined) return byPath;
    const named = paths.filter((path) => (path.split('/').pop() ?? '').replace(/\.md$/, '').toLowerCase() === wanted);
    const folder = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
    return named.find((path) => path.startsWith(folder) && !path.slice(folder.length).includes('/')) ?? named[0] ?? null;
  };
}

/**
 * A note as a small graph index would see it: `key: value` lines in the frontmatter are
 * properties, `[[links]]` and `#tags` in the body are links (resolved, or `<text>.md` when not)
 * and tags.
 */
function indexNote(path: string, lines: string[], resolve: (target: string, fromPath: string) => string | null): QueryableNote {
  const properties: { key: string; value: string; line: number }[] = [];
  const outgoing: { target: string; line: number }[] = [];
  const tags: { tag: string; line: number }[] = [];
  const note: QueryableNote = { path, properties, outgoing, tags, text: lines.join('\n') };
  const frontmatterEnd = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  lines.forEach((line, i) => {
    if (i > 0 && i < frontmatterEnd) {
      const property = /^([^:]+):\s*(.*)$/.exec(line);
      if (property) properties.push({ key: property[1] ?? '', value: property[2] ?? '', line: i });
      return;
    }
    if (i <= frontmatterEnd) return;
    for (const link of line.matchAll(/\[\[([^\]|#]+)[^\]]*\]\]/g)) {
      const text = link[1] ?? '';
      outgoing.push({ target: resolve(text, path) ?? `${text}.md`, line: i });
    }
    for (const found of line.matchAll(/(?:^|\s)#([\w/-]+)/g)) tags.push({ tag: `#${found[1] ?? ''}`, line: i });
  });
  return note;
}

function sourceOf(files: Record<string, string[]>): QuerySource & { resolveCalls: number } {
  const paths = Object.keys(files);
  const resolve = resolverFor(paths);
  const notes = paths.map((path) => indexNote(path, files[path] ?? [], resolve));
  const source = {
    resolveCalls: 0,
    notes: () => notes,
    resolve: (target: string, fromPath: string) => {
      source.resolveCalls++;
      return resolve(target, fromPath);
    },
  };
  return source;
}

/** Eight notes: people with affiliations written several ways, topics, an organisation, an inbox note. */
const VAULT = {
  'People/Ada.md': [
    '---',
    'affiliation: [[AI Research Institute]]',
    'role: Researcher',
    '---',
    '# Ada',
    'Works on [[Symbolic Reasoning]] and [[Neural Nets|neural networks]].',
    'Tags: #person #AI/ML',
  ],
  'People/Bob.md': ['---', 'Affiliation: ai research institute', '---', 'Studies [[neural nets#Training]].', '#person'],
  'People/Cy.md': ['---', 'affiliation: "[[Orgs/AI Research Institute|AIRI]]"', '---', 'Reads about [[symbolic reasoning]].', '#AI'],
  'People/Dee.md': ['---', 'affiliation: Other Lab', '---', 'Also [[Symbolic Reasoning]], and [[Nowhere]].', '#aiml #person'],
  'Topics/Symbolic Reasoning.md': ['# Symbolic Reasoning', 'Logic and search.', 'See [[Ada]].', '#topic'],
  'Topics/Neural Nets.md': ['# Neural Nets', 'Neural networks learn (sometimes).', '#topic/ml'],
  'Orgs/AI Research Institute.md': ['# AI Research Institute', 'Members: [[Ada]], [[Bob]].', '#org'],
  'Inbox/Meeting.md': ['Meeting notes', 'talked about symbolic reasoning', 'next steps', 'Meeting NOTES again'],
};

function run(query: string, files: Record<string, string[]> = VAULT): Promise<QueryMatch[]> {
  return evaluateQuery(parseQuery(query), sourceOf(files));
}

async function pathsOf(query: string): Promise<string[]> {
  return (await run(query)).map((match) => match.filePath);
}

// ---------------------------------------------------------------------------------------------
// A printer for the property tests: any AST back to query text.

interface PrintStyle {
  /** How keywords and term names are cased. */
  keywordCase: 'upper' | 'lower' | 'mixed';
  /** What goes between tokens. */
  space: string;
}

function styled(word: string, style: PrintStyle): string {
  if (style.keywordCase === 'upper') return word.toUpperCase();
  if (style.keywordCase === 'lower') return word.toLowerCase();
  return [...word].map((ch, i) => (i % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A value printed bare when that reads back the same, quoted otherwise. */
function printValue(text: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9 .,_/-]*$/.test(text) && text === text.trim() ? text : quote(text);
}

const PRECEDENCE: Record<QueryNode['kind'], number> = {
  or: 1,
  and: 2,
  not: 3,
  property: 4,
  'outgoing-link': 4,
  backlink: 4,
  tag: 4,
  path: 4,
  content: 4,
};

function printQuery(node: QueryNode, style: PrintStyle, min = 0): string {
  const s = style.space;
  const term = (name: string, argument: string): string => `(${styled(name, style)} ${argument})`;
  let text: string;
  switch (node.kind) {
    case 'or':
      text = `${printQuery(node.left, style, 1)}${s}${styled('or', style)}${s}${printQuery(node.right, style, 2)}`;
      break;
    case 'and':
      text = `${printQuery(node.left, style, 2)}${s}${styled('and', style)}${s}${printQuery(node.right, style, 3)}`;
      break;
    case 'not':
      text = `${styled('not', style)}${s}${printQuery(node.operand, style, 3)}`;
      break;
    case 'property': {
      const key = /^[A-Za-z0-9_-]+$/.test(node.key) ? node.key : quote(node.key);
      text = node.value === null ? `(${styled('property', style)} ${key})` : term('property', `${key}::${s}${printValue(node.value)}`);
      break;
    }
    case 'outgoing-link':
    case 'backlink':
      text = term(node.kind, `[[${node.target}]]`);
      break;
    case 'tag':
      text = term('tag', `#${node.tag}`);
      break;
    case 'path':
      text = term('path', printValue(node.prefix));
      break;
    case 'content':
      text = term('content', printValue(node.text));
      break;
  }
  return PRECEDENCE[node.kind] < min ? `(${text})` : text;
}

function countTerms(node: QueryNode): number {
  if (node.kind === 'and' || node.kind === 'or') return countTerms(node.left) + countTerms(node.right);
  if (node.kind === 'not') return countTerms(node.operand);
  return 1;
}

/** Characters that stress quoting: parentheses, quotes, backslashes, brackets, colons, spaces. */
const TRICKY = fc.constantFrom('a', 'B', 'z', '1', ' ', '(', ')', '"', '\\', '[', ']', ':', '#', '|', '/', '\n', 'é', '🙂');
const trickyText = fc.array(TRICKY, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
const plainText = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,_/-]{0,10}[A-Za-z0-9]$/);
const valueText = fc.oneof(plainText, trickyText);
const linkTarget = fc
  .stringMatching(/^[A-Za-z0-9()][A-Za-z0-9 ()._-]{0,10}$/)
  .map((text) => text.trim())
  .filter((text) => text !== '');

const termArbitrary: fc.Arbitrary<QueryNode> = fc.oneof(
  fc.record({
    kind: fc.constant('property' as const),
    key: fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/), trickyText.filter((key) => key.trim() !== '')),
    value: fc.option(fc.oneof(valueText, fc.constant(''), linkTarget.map((target) => `[[${target}]]`)), { nil: null }),
  }),
  fc.record({ kind: fc.constantFrom('outgoing-link' as const, 'backlink' as const), target: linkTarget }),
  fc.record({ kind: fc.constant('tag' as const), tag: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_/-]{0,10}$/) }),
  fc.record({ kind: fc.constant('path' as const), prefix: valueText }),
  fc.record({ kind: fc.constant('content' as const), text: valueText }),
);

const { query: astArbitrary } = fc.letrec<{ query: QueryNode }>((tie) => ({
  query: fc.oneof(
    { maxDepth: 6, depthSize: 'small' },
    termArbitrary,
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('query'), right: tie('query') }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('query') }),
  ),
}));

const styleArbitrary: fc.Arbitrary<PrintStyle> = fc.record({
  keywordCase: fc.constantFrom('upper' as const, 'lower' as const, 'mixed' as const),
  space: fc.constantFrom(' ', '  ', '\n', ' \t '),
});

// ---------------------------------------------------------------------------------------------

describe('parseQuery', () => {
  it("parses the seed's example", () => {
    expect(parseQuery('(property affiliation:: AI Research Institute) AND (outgoing-link [[Symbolic Reasoning]])')).toEqual({
      kind: 'and',
      left: { kind: 'property', key: 'affiliation', value: 'AI Research Institute' },
      right: { kind: 'outgoing-link', target: 'Symbolic Reasoning' },
    });
  });

  describe('when operators combine', () => {
    it('binds AND tighter than OR', () => {
      expect(parseQuery('(tag #a) OR (tag #b) AND (tag #c)')).toEqual(or(tag('a'), and(tag('b'), tag('c'))));
      expect(parseQuery('(tag #a) AND (tag #b) OR (tag #c)')).toEqual(or(and(tag('a'), tag('b')), tag('c')));
    });

    it('binds NOT to the term after it', () => {
      expect(parseQuery('NOT (tag #a) AND (tag #b)')).toEqual(and(not(tag('a')), tag('b')));
      expect(parseQuery('(tag #a) AND NOT (tag #b)')).toEqual(and(tag('a'), not(tag('b'))));
      expect(parseQuery('NOT NOT (tag #a)')).toEqual(not(not(tag('a'))));
    });

    it('groups chains to the left', () => {
      expect(parseQuery('(tag #a) AND (tag #b) AND (tag #c)')).toEqual(and(and(tag('a'), tag('b')), tag('c')));
      expect(parseQuery('(tag #a) OR (tag #b) OR (tag #c)')).toEqual(or(or(tag('a'), tag('b')), tag('c')));
    });

    it('lets parentheses override precedence, nested and around NOT', () => {
      expect(parseQuery('((tag #a) OR (tag #b)) AND (tag #c)')).toEqual(and(or(tag('a'), tag('b')), tag('c')));
      expect(parseQuery('NOT ((tag #a) OR ((tag #b)))')).toEqual(not(or(tag('a'), tag('b'))));
      expect(parseQuery('(NOT (tag #a))')).toEqual(not(tag('a')));
    });

    it('reads keywords and term names in any case', () => {
      expect(parseQuery('(TAG #a) and (Tag #b) Or nOt (tag #c)')).toEqual(or(and(tag('a'), tag('b')), not(tag('c'))));
      expect(parseQuery('(Outgoing-Link [[X]])')).toEqual({ kind: 'outgoing-link', target: 'X' });
    });

    it('needs no spaces around parentheses, and accepts line breaks and tabs', () => {
      expect(parseQuery('NOT(tag #a)AND(tag #b)')).toEqual(and(not(tag('a')), tag('b')));
      expect(parseQuery('\n\t( tag\t#a )\nOR\n(tag #b)  ')).toEqual(or(tag('a'), tag('b')));
    });
  });

  describe('when reading each kind of term', () => {
    it.each<[string, QueryNode]>([
      ['(property status:: done)', { kind: 'property', key: 'status', value: 'done' }],
      ['(property status::done)', { kind: 'property', key: 'status', value: 'done' }],
      ['(property status ::  in progress  )', { kind: 'property', key: 'status', value: 'in progress' }],
      ['(property status)', { kind: 'property', key: 'status', value: null }],
      ['(property "due date":: today)', { kind: 'property', key: 'due date', value: 'today' }],
      ['(property title:: "a ) b")', { kind: 'property', key: 'title', value: 'a ) b' }],
      ['(property title:: say "hi" now)', { kind: 'property', key: 'title', value: 'say "hi" now' }],
      ['(property title:: "")', { kind: 'property', key: 'title', value: '' }],
      ['(property org:: [[AI Lab (Berlin)]])', { kind: 'property', key: 'org', value: '[[AI Lab (Berlin)]]' }],
      ['(outgoing-link [[Symbolic Reasoning]])', { kind: 'outgoing-link', target: 'Symbolic Reasoning' }],
      ['(outgoing-link [[ Foo (bar) ]])', { kind: 'outgoing-link', target: 'Foo (bar)' }],
      ['(outgoing-link [[Page#Heading|alias)]])', { kind: 'outgoing-link', target: 'Page' }],
      ['(backlink [[Folder/Page|Shown]])', { kind: 'backlink', target: 'Folder/Page' }],
      ['(tag #project)', { kind: 'tag', tag: 'project' }],
      ['(tag #Project/Active)', { kind: 'tag', tag: 'Project/Active' }],
      ['(tag project)', { kind: 'tag', tag: 'project' }],
      ['(path "Projects/")', { kind: 'path', prefix: 'Projects/' }],
      ['(path Projects/2024)', { kind: 'path', prefix: 'Projects/2024' }],
      ['(path "My Folder/ (old)")', { kind: 'path', prefix: 'My Folder/ (old)' }],
      ['(content "meeting notes")', { kind: 'content', text: 'meeting notes' }],
      ['(content meeting notes)', { kind: 'content', text: 'meeting notes' }],
      ['(content f(x) = 1)', { kind: 'content', text: 'f(x) = 1' }],
      ['(content " keeps spaces ")', { kind: 'content', text: ' keeps spaces ' }],
    ])('reads %s', (query, expected) => {
      expect(parseQuery(query)).toEqual(expected);
    });

    it('unescapes \\" and \\\\ in quoted strings and keeps any other backslash', () => {
      expect(parseQuery(String.raw`(content "say \"hi\" \\ done")`)).toEqual({ kind: 'content', text: 'say "hi" \\ done' });
      expect(parseQuery(String.raw`(path "C:\notes\")")`)).toEqual({ kind: 'path', prefix: 'C:\\notes")' });
      expect(parseQuery(String.raw`(property "a \"b\"":: "\\")`)).toEqual({ kind: 'property', key: 'a "b"', value: '\\' });
    });

    it('does not end a term at a ")" inside [[...]] or a quoted string', () => {
      expect(parseQuery('(property see:: [[A)]] and "b)") AND (tag #x)')).toEqual(
        and({ kind: 'property', key: 'see', value: '[[A)]] and "b)"' }, tag('x')),
      );
    });
  });

  describe('when the query is malformed', () => {
    it.each<[string, string, number, string, string]>([
      ['an empty query', '', 1, 'a term like (tag #project)', 'the end of the query'],
      ['a blank query', '   ', 4, 'a term like (tag #project)', 'the end of the query'],
      ['an unknown term', '(foo bar)', 2, 'a term name (property, outgoing-link, backlink, tag, path or content) or "("', '"foo"'],
      ['an empty group', '(tag #a) AND ()', 15, 'a term name (property, outgoing-link, backlink, tag, path or content) or "("', '")"'],
      ['a term without its ")"', '(tag #a', 8, '")" to close the "tag" term that opens at column 1', 'the end of the query'],
      ['a term with two arguments', '(tag #a #b)', 9, '")" to close the "tag" term that opens at column 1', '"#b"'],
      ['a group without its ")"', '((tag #a)', 10, 'AND, OR or ")" to close the group that opens at column 1', 'the end of the query'],
      ['a stray ")"', '(tag #a))', 9, 'AND, OR or the end of the query', '")"'],
      ['a property without "::"', '(property affiliation AI Research Institute)', 23, '"::" after the property key "affiliation"', '"AI"'],
      ['a property with a single colon', '(property status: done)', 17, '"::" after the property key "status"', '":"'],
      ['a property without a key', '(property :: x)', 11, 'a property key after "property", like (property status:: done)', '"::"'],
      ['a property with "::" and no value', '(property status:: )', 20, 'a value after "status::" (or leave out "::" to match any value)', '")"'],
      ['a dangling AND', '(tag #a) AND', 13, 'a term like (tag #project) after AND', 'the end of the query'],
      ['a doubled OR', '(tag #a) OR OR (tag #b)', 13, 'a term like (tag #project) after OR', '"OR"'],
      ['a lone NOT', 'NOT', 4, 'a term like (tag #project) after NOT', 'the end of the query'],
      ['two terms without an operator', '(tag #a) (tag #b)', 10, 'AND, OR or the end of the query', '"("'],
      ['NOT used as an infix operator', '(tag #a) NOT (tag #b)', 10, 'AND, OR or the end of the query (write "AND NOT" to exclude)', '"NOT"'],
      ['a word that only starts like AND', '(tag #a) ANDROID (tag #b)', 10, 'AND, OR or the end of the query', '"ANDROID"'],
      ['an unterminated string', '(content "abc', 10, 'a closing quote (") for the string that starts here', 'the end of the query'],
      ['an escaped last quote', '(content "abc\\")', 10, 'a closing quote (") for the string that starts here', 'the end of the query'],
      ['an empty string', '(content "")', 10, 'the text to find, like "meeting notes"', 'an empty string'],
      ['an empty path', '(path )', 7, 'a path prefix like "Projects/"', '")"'],
      ['a value with an unmatched "("', '(content a (b)', 15, '")" to close the "content" term that opens at column 1 (put the value in quotes if it has an unmatched "(")', 'the end of the query'],
      ['a link without brackets', '(outgoing-link Page)', 16, 'a link like [[Page]] after "outgoing-link"', '"Page"'],
      ['an unterminated link', '(backlink [[Page)', 11, '"]]" to close the link that starts here', 'the end of the query'],
      ['a link to a heading only', '(backlink [[#Heading]])', 13, 'a page name inside [[...]]', '"#Heading]]"'],
      ['a tag without a name', '(tag #)', 7, 'a tag like #project after "tag"', '")"'],
      ['a term name run into its argument', '(tag(x))', 5, 'a space after "tag"', '"("'],
    ])('refuses %s with the column and what was expected', (_name, query, column, expected, received) => {
      const error = queryError(query);
      expect(error).toMatchObject({ code: 'InvalidArgument', data: { argument: 'query', column, expected, received } });
      expect(error.message).toBe(`Query error at column ${column}: expected ${expected}, found ${received}`);
    });

    it('says where, what was expected and what was found in the message', () => {
      expect(queryError('(property affiliation AI)').message).toBe(
        'Query error at column 23: expected "::" after the property key "affiliation", found "AI"',
      );
    });

    it('counts columns in characters, not UTF-16 units', () => {
      expect(queryError('(content "é🙂") (tag #a)').data).toMatchObject({ column: 16 });
    });

    it('shortens a long word in "found"', () => {
      expect(queryError(`(tag #a) ${'x'.repeat(40)}`).data.received).toBe(`"${'x'.repeat(24)}…"`);
    });

    it(`refuses a query longer than ${QUERY_LIMITS.maxLength} characters`, () => {
      const query = `(content "${'x'.repeat(QUERY_LIMITS.maxLength)}")`;
      expect(queryError(query).data).toEqual({
        argument: 'query',
        expected: 'a query of at most 2,000 characters',
        received: '2,012 characters',
        column: 2001,
      });
      expect(() => parseQuery(`(content "${'x'.repeat(QUERY_LIMITS.maxLength - 12)}")`)).not.toThrow();
    });

    it(`refuses more than ${QUERY_LIMITS.maxTerms} terms, at the first term too many`, () => {
      const terms = (count: number): string => Array.from({ length: count }, () => '(tag #a)').join(' OR ');
      expect(queryError(terms(65)).data).toMatchObject({ column: 64 * 12 + 1, expected: 'at most 64 terms', received: 'term 65' });
      expect(countTerms(parseQuery(terms(64)))).toBe(64);
    });

    it(`refuses nesting deeper than ${QUERY_LIMITS.maxDepth}, counting groups and NOTs`, () => {
      const grouped = (depth: number): string => `${'('.repeat(depth)}(tag #a)${')'.repeat(depth)}`;
      expect(queryError(grouped(33)).data).toMatchObject({ column: 33, received: 'level 33' });
      expect(parseQuery(grouped(32))).toEqual(tag('a'));
      const negated = (depth: number): string => `${'NOT '.repeat(depth)}(tag #a)`;
      expect(queryError(negated(33)).data).toMatchObject({
        column: 32 * 4 + 1,
        expected: 'at most 32 levels of nested parentheses and NOTs',
      });
      expect(() => parseQuery(negated(32))).not.toThrow();
    });

    it('refuses a value that is not a string', () => {
      expect(thrownBy(() => parseQuery(42 as unknown as string), InvalidArgumentError).data).toMatchObject({ expected: 'a string', received: 'number' });
    });
  });

  describe('when given generated input', () => {
    it('reads any printed AST back to the same AST', () => {
      fc.assert(
        fc.property(
          astArbitrary.filter((ast) => countTerms(ast) <= QUERY_LIMITS.maxTerms),
          styleArbitrary,
          (ast, style) => {
            const text = printQuery(ast, style);
            fc.pre(text.length <= QUERY_LIMITS.maxLength);
            expect(parseQuery(text)).toEqual(ast);
          },
        ),
        { seed: 4242, numRuns: 1000 },
      );
    });

    it('throws nothing but InvalidArgumentError on arbitrary text', () => {
      const token = fc.oneof(
        fc.constantFrom('(', ')', '((', '))', 'AND', 'or', 'NOT', 'not', ' ', '\n', '"', '\\', '[[', ']]', '::', ':', '#', '|'),
        fc.constantFrom('property', 'outgoing-link', 'backlink', 'tag', 'path', 'content', 'x', 'Page', '#a/b', '🙂'),
      );
      const queryLike = fc.array(token, { maxLength: 40 }).map((tokens) => tokens.join(''));
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 200, unit: 'binary' }), queryLike), (text) => {
          try {
            parseQuery(text);
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidArgumentError);
            expect((error as InvalidArgumentError).data.column).toEqual(expect.any(Number));
          }
        }),
        { seed: 4242, numRuns: 3000 },
      );
    });
  });
});

describe('evaluateQuery', () => {
  describe('when matching properties', () => {
    it('matches a value ignoring case, with links read as page names or resolved to the same note', async () => {
      expect(await run('(property affiliation:: AI Research Institute)')).toEqual([
        { filePath: 'People/Ada.md', matches: ['affiliation: [[AI Research Institute]]'] },
        { filePath: 'People/Bob.md', matches: ['Affiliation: ai research institute'] },
        { filePath: 'People/Cy.md', matches: ['affiliation: "[[Orgs/AI Research Institute|AIRI]]"'] },
      ]);
    });

    it('matches a link value written with brackets the same way', async () => {
      expect(await pathsOf('(property AFFILIATION:: [[ai research institute]])')).toEqual(['People/Ada.md', 'People/Bob.md', 'People/Cy.md']);
    });

    it('matches any value when no value is given', async () => {
      expect(await pathsOf('(property affiliation)')).toEqual(['People/Ada.md', 'People/Bob.md', 'People/Cy.md', 'People/Dee.md']);
      expect(await pathsOf('(property role:: researcher)')).toEqual(['People/Ada.md']);
      expect(await pathsOf('(property missing)')).toEqual([]);
    });
  });

  describe('when matching links', () => {
    it("runs the seed's example, reporting the lines of both terms", async () => {
      expect(await run('(property affiliation:: AI Research Institute) AND (outgoing-link [[Symbolic Reasoning]])')).toEqual([
        {
          filePath: 'People/Ada.md',
          matches: ['affiliation: [[AI Research Institute]]', 'Works on [[Symbolic Reasoning]] and [[Neural Nets|neural networks]].'],
        },
        {
          filePath: 'People/Cy.md',
          matches: ['affiliation: "[[Orgs/AI Research Institute|AIRI]]"', 'Reads about [[symbolic reasoning]].'],
        },
      ]);
    });

    it('finds notes linking to a page however the link is written', async () => {
      expect(await run('(outgoing-link [[symbolic reasoning#Intro|SR]])')).toEqual([
        { filePath: 'People/Ada.md', matches: ['Works on [[Symbolic Reasoning]] and [[Neural Nets|neural networks]].'] },
        { filePath: 'People/Cy.md', matches: ['Reads about [[symbolic reasoning]].'] },
        { filePath: 'People/Dee.md', matches: ['Also [[Symbolic Reasoning]], and [[Nowhere]].'] },
      ]);
      expect(await pathsOf('(outgoing-link [[Topics/Neural Nets]])')).toEqual(['People/Ada.md', 'People/Bob.md']);
    });

    it('compares an unresolved link by its text', async () => {
      expect(await pathsOf('(outgoing-link [[nowhere]])')).toEqual(['People/Dee.md']);
    });

    it('resolves the target from each note, as Obsidian resolves that note’s links', async () => {
      const files = {
        'A/Index.md': ['# A'],
        'A/Note.md': ['[[Index]]'],
        'B/Index.md': ['# B'],
        'B/Note.md': ['[[Index]]'],
        'B/Other.md': ['[[A/Index]]'],
      };
      expect((await run('(outgoing-link [[Index]])', files)).map((match) => match.filePath)).toEqual(['A/Note.md', 'B/Note.md']);
      expect((await run('(outgoing-link [[A/Index]])', files)).map((match) => match.filePath)).toEqual(['A/Note.md', 'B/Other.md']);
    });

    it('resolves each target once per folder', async () => {
      const source = sourceOf(VAULT);
      await evaluateQuery(parseQuery('(outgoing-link [[Ada]])'), source);
      expect(source.resolveCalls).toBe(4);
    });

    it('finds the notes a page links to for backlink, with no lines of their own', async () => {
      expect(await run('(backlink [[AI Research Institute]])')).toEqual([
        { filePath: 'People/Ada.md', matches: [] },
        { filePath: 'People/Bob.md', matches: [] },
      ]);
      expect(await pathsOf('(backlink [[orgs/ai research institute|x]])')).toEqual(['People/Ada.md', 'People/Bob.md']);
      expect(await pathsOf('(backlink [[No Such Page]])')).toEqual([]);
    });

    it('reports a backlink result’s own lines when another term matched them', async () => {
      expect(await run('(backlink [[AI Research Institute]]) AND (tag #person)')).toEqual([
        { filePath: 'People/Ada.md', matches: ['Tags: #person #AI/ML'] },
        { filePath: 'People/Bob.md', matches: ['#person'] },
      ]);
    });
  });

  describe('when matching tags', () => {
    it('matches the tag and tags nested under it, ignoring case', async () => {
      expect(await run('(tag #ai)')).toEqual([
        { filePath: 'People/Ada.md', matches: ['Tags: #person #AI/ML'] },
        { filePath: 'People/Cy.md', matches: ['#AI'] },
      ]);
      expect(await pathsOf('(tag #Topic)')).toEqual(['Topics/Neural Nets.md', 'Topics/Symbolic Reasoning.md']);
      expect(await pathsOf('(tag ai/ml)')).toEqual(['People/Ada.md']);
    });

    it('does not match a tag that only starts with the same letters', async () => {
      expect(await pathsOf('(tag #aim)')).toEqual([]);
      expect(await pathsOf('(tag #aiml)')).toEqual(['People/Dee.md']);
    });
  });

  describe('when matching paths and content', () => {
    it('matches a path prefix exactly, reporting no lines', async () => {
      expect(await run('(path "Topics/")')).toEqual([
        { filePath: 'Topics/Neural Nets.md', matches: [] },
        { filePath: 'Topics/Symbolic Reasoning.md', matches: [] },
      ]);
      expect(await pathsOf('(path People/A)')).toEqual(['People/Ada.md']);
      expect(await pathsOf('(path "people/")')).toEqual([]);
    });

    it('matches text in any case, reporting every line containing it', async () => {
      expect(await run('(content "meeting notes")')).toEqual([{ filePath: 'Inbox/Meeting.md', matches: ['Meeting notes', 'Meeting NOTES again'] }]);
      expect(await pathsOf('(content learn (sometimes))')).toEqual(['Topics/Neural Nets.md']);
    });

    it('matches text across lines, reporting the lines it spans', async () => {
      expect(await run('(content "symbolic reasoning\nnext")')).toEqual([
        { filePath: 'Inbox/Meeting.md', matches: ['talked about symbolic reasoning', 'next steps'] },
      ]);
    });
  });

  describe('when combining terms', () => {
    it('unions the lines of both sides for AND, each line once', async () => {
      expect(await run('(tag #person) AND (tag #ai)')).toEqual([{ filePath: 'People/Ada.md', matches: ['Tags: #person #AI/ML'] }]);
    });

    it('unions the lines of the sides that matched for OR', async () => {
      expect(await run('(content "logic") OR (tag #topic)')).toEqual([
        { filePath: 'Topics/Neural Nets.md', matches: ['#topic/ml'] },
        { filePath: 'Topics/Symbolic Reasoning.md', matches: ['Logic and search.', '#topic'] },
      ]);
    });

    it('reports no lines for NOT, and [] for a note matched only through NOT', async () => {
      expect(await run('NOT (path "People/") AND NOT (path "Topics/")')).toEqual([
        { filePath: 'Inbox/Meeting.md', matches: [] },
        { filePath: 'Orgs/AI Research Institute.md', matches: [] },
      ]);
      expect(await run('(property affiliation) AND NOT (tag #ai)')).toEqual([
        { filePath: 'People/Bob.md', matches: ['Affiliation: ai research institute'] },
        { filePath: 'People/Dee.md', matches: ['affiliation: Other Lab'] },
      ]);
    });

    it('sorts results by path', async () => {
      const paths = await pathsOf('NOT (tag #nothing)');
      expect(paths).toEqual([...Object.keys(VAULT)].sort());
    });

    it('matches exactly the notes its negation does not', async () => {
      const all = Object.keys(VAULT).sort();
      await fc.assert(
        fc.asyncProperty(astArbitrary.filter((ast) => countTerms(ast) <= 16), async (ast) => {
          const source = sourceOf(VAULT);
          const yes = (await evaluateQuery(ast, source)).map((match) => match.filePath);
          const no = (await evaluateQuery(not(ast), source)).map((match) => match.filePath);
          expect([...yes, ...no].sort()).toEqual(all);
          expect(yes.filter((path) => no.includes(path))).toEqual([]);
        }),
        { seed: 4242, numRuns: 200 },
      );
    });

    it('treats a property line outside the note as matching, with no text to report', async () => {
      const source: QuerySource = {
        notes: () => [{ path: 'x.md', properties: [{ key: 'k', value: 'v', line: 99 }], outgoing: [], tags: [], text: 'body' }],
        resolve: () => null,
      };
      expect(await evaluateQuery(parseQuery('(property k:: v)'), source)).toEqual([{ filePath: 'x.md', matches: [] }]);
    });
  });

  describe('when cancelled', () => {
    /** Many notes whose text is read (and counted) by each content term. */
    function countingSource(count: number): QuerySource & { reads: number } {
      const source = {
        reads: 0,
        notes: () =>
          Array.from({ length: count }, (_, i): QueryableNote => ({
            path: `N${i}.md`,
            properties: [],
            outgoing: [],
            tags: [],
            get text() {
              source.reads++;
              return `line one\nthe word ${i}\n`;
            },
          })),
        resolve: () => null,
      };
      return source;
    }

    it('stops at the next slice once the signal aborts, with Cancelled', async () => {
      const source = countingSource(20_000);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 0);
      const query = parseQuery('(content "word") OR (content "line") OR (content "one")');
      const error = await evaluateQuery(query, source, { signal: controller.signal, sliceMs: 0 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CancelledError);
      // One slice of 32 notes at most went by after the abort, of the 60,000 reads the query needs.
      expect(source.reads).toBeLessThan(1_000);
    });

    it('reads no note when the signal has already aborted', async () => {
      const source = countingSource(100);
      const controller = new AbortController();
      controller.abort();
      await expect(evaluateQuery(parseQuery('(content "word")'), source, { signal: controller.signal })).rejects.toBeInstanceOf(CancelledError);
      expect(source.reads).toBe(0);
    });

    it('gives the full answer when the signal never aborts, slice after slice', async () => {
      const source = countingSource(5_000);
      const matches = await evaluateQuery(parseQuery('(content "word 4999")'), source, { signal: new AbortController().signal, sliceMs: 0 });
      expect(matches).toEqual([{ filePath: 'N4999.md', matches: ['the word 4999'] }]);
    });
  });
});
