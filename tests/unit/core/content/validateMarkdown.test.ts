import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKDOWN_RULES, validateMarkdown, type MarkdownRules } from '../../../../src/core/content/validateMarkdown';
import { InvalidContentError, type ContentRule } from '../../../../src/core/errors/InvalidContentError';
import { thrownBy, lines } from '../../../helpers/errors';

const PATH = 'pages/Plan.md';
const PLAIN: MarkdownRules = { logseq: false };
const LOGSEQ: MarkdownRules = { logseq: true };
const RULES: readonly ContentRule[] = [
  'frontmatter-unclosed',
  'frontmatter-yaml',
  'frontmatter-not-mapping',
  'logseq-outside-block',
  'logseq-indentation',
  'logseq-property-position',
];

function expectRefused(content: string, rules: MarkdownRules, rule: ContentRule, line: number): InvalidContentError {
  const error = thrownBy(() => validateMarkdown(PATH, content, rules), InvalidContentError);
  expect(error.code).toBe('InvalidContent');
  expect(error.data).toEqual({ path: PATH, line, rule });
  return error;
}

/** Returns normally, or throws an InvalidContentError about a line of `content`; nothing else. */
function expectReturnsOrRefusesALine(content: string, rules: MarkdownRules): void {
  try {
    validateMarkdown(PATH, content, rules);
  } catch (error) {
    if (!(error instanceof InvalidContentError)) throw error;
    const lineCount = content.split('\n').length;
    const { line, path, rule } = error.data as { line: number; path: string; rule: ContentRule };
    if (!Number.isInteger(line) || line < 1 || line > lineCount) throw new Error(`line ${line} is outside 1..${lineCount}`, { cause: error });
    if (path !== PATH || !RULES.includes(rule)) throw new Error(`unexpected data ${JSON.stringify(error.data)}`, { cause: error });
  }
}

const LINE_PIECES = ['- ', '-', '\t', '  ', ' ', 'key:: v', 'key::', '---', '...', '```', '~~~', 'text', ': ', 'a: [', '- a', '#+BEGIN_QUOTE', '\r', '\uFEFF', '€'];

/** Lines built from pieces that matter to the rules, joined with `\n` or `\r\n`. */
const pieceDocument = fc
  .tuple(
    fc.array(fc.array(fc.constantFrom(...LINE_PIECES), { maxLength: 5 }), { maxLength: 25 }),
    fc.constantFrom('\n', '\r\n'),
    fc.constantFrom('', '---\n', '\uFEFF---\n', '---\ntitle: x\n---\n'),
  )
  .map(([pieces, eol, prefix]) => prefix + pieces.map((line) => line.join('')).join(eol));

describe('validateMarkdown', () => {
  describe('when the rules are the defaults', () => {
    it('checks plain Obsidian notes only', () => {
      expect(DEFAULT_MARKDOWN_RULES).toEqual({ logseq: false });
    });
  });

  describe('when the note is a plain Obsidian note', () => {
    it('accepts text that is not an outline', () => {
      expect(() => validateMarkdown(PATH, lines('# Plan', '', 'Some text', '---', 'tags:: x'), PLAIN)).not.toThrow();
    });

    it('accepts valid frontmatter', () => {
      expect(() => validateMarkdown(PATH, lines('---', 'tags: [a]', '---', 'Body'), PLAIN)).not.toThrow();
    });

    it('refuses unclosed frontmatter', () => {
      expectRefused(lines('---', 'tags: [a]', 'Body'), PLAIN, 'frontmatter-unclosed', 1);
    });

    it('refuses frontmatter that is not YAML', () => {
      expectRefused(lines('---', 'a: 1', 'b: c: d', '---'), PLAIN, 'frontmatter-yaml', 3);
    });

    it('refuses frontmatter that is a list', () => {
      expectRefused(lines('---', '- a', '---'), PLAIN, 'frontmatter-not-mapping', 2);
    });
  });

  describe('when the note is a Logseq page', () => {
    it('accepts frontmatter followed by an outline', () => {
      expect(() => validateMarkdown(PATH, lines('---', 'title: Plan', '---', 'tags:: x', '', '- a', '\t- b'), LOGSEQ)).not.toThrow();
    });

    it('checks the frontmatter too', () => {
      expectRefused(lines('---', 'id: 1', 'title: [', '---', '- a'), LOGSEQ, 'frontmatter-yaml', 3);
    });

    it('reports unclosed frontmatter rather than a line outside a block', () => {
      expectRefused(lines('---', 'title: Plan', '- a'), LOGSEQ, 'frontmatter-unclosed', 1);
    });

    it('starts the blocks after the frontmatter and counts lines in the whole file', () => {
      expectRefused(lines('---', 'a: 1', 'b: 2', '---', '- a', 'loose'), LOGSEQ, 'logseq-outside-block', 6);
    });

    it('refuses a block two levels deep', () => {
      expectRefused('- a\r\n\t\t- b\r\n', LOGSEQ, 'logseq-indentation', 2);
    });

    it('refuses a property after a block\'s text', () => {
      expectRefused(lines('- a', '  text', '  id:: 1'), LOGSEQ, 'logseq-property-position', 3);
    });

    it('says which line, what is wrong and how to fix it', () => {
      const error = expectRefused(lines('- a', '\t\t- b'), LOGSEQ, 'logseq-indentation', 2);
      expect(error.message).toContain('line 2');
      expect(error.message).toMatch(/at most one level deeper/);
      expect(error.message).toMatch(/Remove 1 level/);
    });
  });

  describe('when the content is arbitrary', () => {
    it('returns or refuses a line of the content for any string', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.boolean(), (content, logseq) => {
          expectReturnsOrRefusesALine(content, { logseq });
        }),
        { numRuns: 2000 },
      );
    });

    it('returns or refuses a line of the content for strings of markdown characters', () => {
      const char = fc.constantFrom('-', ' ', '\t', '\n', '\r', ':', '`', '~', '.', 'a', '#', '[', '{', '\uFEFF');
      fc.assert(
        fc.property(fc.string({ unit: char, maxLength: 200 }), fc.boolean(), (content, logseq) => {
          expectReturnsOrRefusesALine(content, { logseq });
        }),
        { numRuns: 2000 },
      );
    });

    it('returns or refuses a line of the content for lines built from outline pieces', () => {
      fc.assert(
        fc.property(pieceDocument, fc.boolean(), (content, logseq) => {
          expectReturnsOrRefusesALine(content, { logseq });
        }),
        { numRuns: 3000 },
      );
    });
  });
});
