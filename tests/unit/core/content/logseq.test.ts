import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateLogseqBlocks } from '../../../../src/core/content/logseq';
import { InvalidContentError, type ContentRule } from '../../../../src/core/errors/InvalidContentError';
import { thrownBy, lines } from '../../../helpers/errors';

const PATH = 'pages/Plan.md';
const BOM = '\uFEFF';
const FENCE = '```';

function expectRefused(content: string, rule: ContentRule, line: number): InvalidContentError {
  const error = thrownBy(() => validateLogseqBlocks(PATH, content), InvalidContentError);
  expect(error.code).toBe('InvalidContent');
  expect(error.data).toEqual({ path: PATH, line, rule });
  return error;
}

describe('validateLogseqBlocks', () => {
  describe('when the page is a well-formed outline', () => {
    it.each([
      ['an empty page', ''],
      ['a page of whitespace only', ' \n\t\n  \r\n'],
      ['a single block', '- Buy milk'],
      ['an empty block written as "-"', lines('-', '- next')],
      ['an empty block written as "- "', lines('- ', '- next')],
      ['tab-indented nesting', lines('- a', '\t- b', '\t\t- c', '\t- d', '- e')],
      ['2-space nesting', lines('- a', '  - b', '    - c', '  - d', '- e')],
      ['4-space nesting', lines('- a', '    - b', '        - c', '- d')],
      ['a return of several levels at once', lines('- a', '\t- b', '\t\t- c', '\t\t\t- d', '- e')],
      ['page properties before the first block', lines('title:: My Page', 'tags:: a, b', '', '- First block')],
      ['a page property with an empty value', lines('alias::', '- a')],
      ['block properties on a tab page', lines('- a', '\t- b', '\t  id:: 650e7d1c-0000-4000-8000-000000000000', '\t  collapsed:: true', '\t  text of b')],
      ['block properties indented by one more tab', lines('- a', '\t- b', '\t\tid:: 650e7d1c-0000-4000-8000-000000000000')],
      ['block properties on a 2-space page', lines('- a', '  id:: 650e7d1c-0000-4000-8000-000000000000', '  - b', '    collapsed:: true')],
      ['multi-line block text on a 2-space page', lines('- first line', '  second line', '  - child', '    child line two')],
      ['multi-line block text on a tab page', lines('- a', '\t- b', '\t  second line of b', '\t\tthird line of b')],
      ['continuation lines indented past the text', lines('- a', '      deeper text is still text')],
      ['a property-like first line of a block', lines('- key:: value', '- b')],
      ['text with "::" that is not a property', lines('- a', '  see Note::Heading', '  a :: b')],
      ['fenced code inside a block', lines('- code:', `  ${FENCE}ts`, '  key:: v', '  ---', '  - not a block', '', '  x', `  ${FENCE}`, '- after')],
      ['fenced code opened on the block line', lines(`- ${FENCE}python`, '  print(1)', `  ${FENCE}`, '- after')],
      ['fenced code on a tab page', lines('- a', `\t- ${FENCE}`, '\t  if (x) {', '\t    y();', '\t  }', `\t  ${FENCE}`)],
      ['a tilde fence closed by a longer tilde fence', lines('- a', '  ~~~~', '  ```', '  ~~~~~', '- b')],
      ['an unclosed fence at the end of the page', lines('- a', `  ${FENCE}`, '  code')],
      ['inline code that looks like a fence', lines('- a', `  ${FENCE}x${FENCE} inline`, '- b')],
      ['org-mode quote lines inside a block', lines('- a', '  #+BEGIN_QUOTE', '  quoted', '  #+END_QUOTE')],
      ['blank lines between and inside blocks', lines('', '- a', '', '  more of a', '', '\t', '- b', '')],
      ['a blank line between a block and its properties', lines('- a', '', '  id:: 1')],
      ['frontmatter before the blocks', lines('---', 'title: Plan', '---', '- a', '\t- b')],
      ['frontmatter, then page properties, then blocks', lines('---', 'title: Plan', '---', 'tags:: x', '', '- a')],
      ['CRLF line endings on a tab page', '- a\r\n\t- b\r\n\t  id:: 1\r\n\t  text\r\n- c\r\n'],
      ['CRLF line endings on a 2-space page', 'title:: x\r\n\r\n- a\r\n  - b\r\n    text\r\n'],
      ['a byte order mark', `${BOM}- a\n\t- b`],
      ['a byte order mark before page properties', `${BOM}title:: x\n- a`],
    ])('accepts %s', (_name, content) => {
      expect(() => validateLogseqBlocks(PATH, content)).not.toThrow();
    });

    it('accepts any outline built one level at a time, with tabs or spaces', () => {
      const block = fc.record({
        step: fc.integer({ min: -3, max: 1 }),
        text: fc.constantFrom('a', 'TODO call [[Ann]]', '#tag', 'x :: y', '`code`'),
        properties: fc.boolean(),
        continuation: fc.boolean(),
      });
      fc.assert(
        fc.property(fc.array(block, { maxLength: 30 }), fc.constantFrom('\t', '  ', '    '), fc.constantFrom('\n', '\r\n'), (blocks, indent, eol) => {
          const out: string[] = [];
          let level = 0;
          blocks.forEach((b, index) => {
            level = index === 0 ? 0 : Math.max(0, level + b.step);
            const prefix = indent.repeat(level);
            out.push(`${prefix}- ${b.text}`);
            if (b.properties) out.push(`${prefix}  id:: ${index}`);
            if (b.continuation) out.push(`${prefix}  more of ${b.text}`);
          });
          validateLogseqBlocks(PATH, out.join(eol));
        }),
        { numRuns: 1000 },
      );
    });
  });

  describe('when a line belongs to no block', () => {
    it('refuses text at column 0 before the first block', () => {
      expectRefused(lines('Some intro', '- a'), 'logseq-outside-block', 1);
    });

    it('refuses text at column 0 after a block', () => {
      expectRefused(lines('- a', 'loose text'), 'logseq-outside-block', 2);
    });

    it('refuses a markdown heading at column 0', () => {
      expectRefused(lines('- a', '# Heading'), 'logseq-outside-block', 2);
    });

    it('refuses another list marker', () => {
      expectRefused(lines('- a', '* b'), 'logseq-outside-block', 2);
    });

    it('refuses "-" without a space before the text', () => {
      expectRefused(lines('- a', '-b'), 'logseq-outside-block', 2);
    });

    it('refuses a thematic break in the body', () => {
      expectRefused(lines('- a', '---', '- b'), 'logseq-outside-block', 2);
    });

    it('refuses an indented line before the first block', () => {
      expectRefused(lines('  text', '- a'), 'logseq-outside-block', 1);
    });

    it('refuses a continuation line indented less than its block text on a 2-space page', () => {
      expectRefused(lines('- a', '  - b', '   text'), 'logseq-outside-block', 3);
    });

    it('refuses a continuation line indented less than its block text on a tab page', () => {
      expectRefused(lines('- a', '\t- b', '\t\t- c', '\t\ttext'), 'logseq-outside-block', 4);
    });

    it('refuses a line of fenced code that leaves its block', () => {
      expectRefused(lines('- a', '\t- b', `\t  ${FENCE}`, '\t  ok', '\tout', `\t  ${FENCE}`), 'logseq-outside-block', 5);
    });

    it('refuses a new block while a fence is still open', () => {
      expectRefused(lines(`- ${FENCE}`, '  code', '- b'), 'logseq-outside-block', 3);
    });

    it('counts lines of the whole file after frontmatter', () => {
      expectRefused(lines('---', 'title: Plan', '---', 'loose text'), 'logseq-outside-block', 4);
    });

    it('names the same line with CRLF line endings', () => {
      expectRefused('- a\r\n\t- b\r\n\r\nloose\r\n', 'logseq-outside-block', 4);
    });

    it('refuses a first line after a byte order mark', () => {
      expectRefused(`${BOM}text`, 'logseq-outside-block', 1);
    });

    it('takes an unclosed frontmatter fence as a line outside any block', () => {
      expectRefused(lines('---', 'title: Plan', '- a'), 'logseq-outside-block', 1);
    });
  });

  describe('when the indentation is inconsistent', () => {
    it('refuses an indented first block', () => {
      expectRefused(lines('\t- a', '- b'), 'logseq-indentation', 1);
    });

    it('refuses a first block indented after page properties', () => {
      expectRefused(lines('title:: x', '  - a'), 'logseq-indentation', 2);
    });

    it('refuses a space-indented block on a tab page', () => {
      expectRefused(lines('- a', '\t- b', '- c', '  - d'), 'logseq-indentation', 4);
    });

    it('refuses a tab-indented block on a space page', () => {
      expectRefused(lines('- a', '  - b', '\t- c'), 'logseq-indentation', 3);
    });

    it('refuses the example in the design brief, where a tab follows a space page', () => {
      const page = lines(
        'title:: My Page',
        'tags:: a, b',
        '',
        '- First block',
        '  id:: 650e7d1c-0000-4000-8000-000000000000',
        '  second line of the first block',
        '  - nested with spaces',
        '\t- nested with a tab',
      );
      expectRefused(page, 'logseq-indentation', 8);
    });

    it('refuses a block that mixes tabs and spaces', () => {
      expectRefused(lines('- a', '\t- b', '\t  - c'), 'logseq-indentation', 3);
    });

    it('refuses a first indented block that mixes tabs and spaces', () => {
      expectRefused(lines('- a', ' \t- b'), 'logseq-indentation', 2);
    });

    it('refuses an indent that is not a multiple of the page unit', () => {
      expectRefused(lines('- a', '  - b', '   - c'), 'logseq-indentation', 3);
    });

    it('refuses a 2-space indent on a 4-space page', () => {
      expectRefused(lines('- a', '    - b', '- c', '  - d'), 'logseq-indentation', 4);
    });

    it('refuses a block two levels deeper than the block before it', () => {
      expectRefused(lines('- a', '\t\t- b'), 'logseq-indentation', 2);
    });

    it('refuses a jump of two levels on a 2-space page', () => {
      expectRefused(lines('- a', '  - b', '      - c'), 'logseq-indentation', 3);
    });

    it('names the same line with CRLF line endings', () => {
      expectRefused('- a\r\n\t\t- b\r\n', 'logseq-indentation', 2);
    });
  });

  describe('when a property is out of place', () => {
    it('refuses a page property after the first block', () => {
      expectRefused(lines('- a', 'tags:: x'), 'logseq-property-position', 2);
    });

    it('refuses a block property after other text of the block', () => {
      expectRefused(lines('- a', '  text', '  id:: 1'), 'logseq-property-position', 3);
    });

    it('refuses a block property after a fenced code block', () => {
      expectRefused(lines('- a', `  ${FENCE}`, '  code', `  ${FENCE}`, '  id:: 1'), 'logseq-property-position', 5);
    });

    it('refuses a block property indented past the block text', () => {
      expectRefused(lines('- a', '    id:: 1'), 'logseq-property-position', 2);
    });

    it('refuses a block property indented short of the block text', () => {
      expectRefused(lines('- a', '  - b', '   id:: 1'), 'logseq-property-position', 3);
    });

    it('refuses an indented page property', () => {
      expectRefused(lines('  title:: x', '- a'), 'logseq-property-position', 1);
    });

    it('refuses a block property of a parent after its child block', () => {
      expectRefused(lines('- a', '\t- b', '  id:: 1'), 'logseq-property-position', 3);
    });

    it('names the same line with CRLF line endings', () => {
      expectRefused('- a\r\n  text\r\n  id:: 1\r\n', 'logseq-property-position', 3);
    });
  });

  describe('when it refuses content', () => {
    it('says which line, what is wrong and how to fix it', () => {
      const error = expectRefused(lines('- a', 'loose text'), 'logseq-outside-block', 2);
      expect(error.message).toContain('line 2');
      expect(error.message).toContain(PATH);
      expect(error.message).toContain('Start the line with "- " to make it a block, or indent it under the block above.');
    });
  });
});
