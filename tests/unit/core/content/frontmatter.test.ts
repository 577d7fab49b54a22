import { describe, expect, it } from 'vitest';
import { MAX_FRONTMATTER_BYTES, splitFrontmatter, validateFrontmatter } from '../../../../src/core/content/frontmatter';
import { InvalidContentError, type ContentRule } from '../../../../src/core/errors/InvalidContentError';
import { thrownBy, lines } from '../../../helpers/errors';

const PATH = 'notes/Plan.md';
const BOM = '\uFEFF';

function expectRefused(content: string, rule: ContentRule, line: number): InvalidContentError {
  const error = thrownBy(() => validateFrontmatter(PATH, content), InvalidContentError);
  expect(error.code).toBe('InvalidContent');
  expect(error.data).toEqual({ path: PATH, line, rule });
  return error;
}

describe('splitFrontmatter', () => {
  describe('when the note starts with frontmatter', () => {
    it('returns the YAML between the fences and the line after the closing fence', () => {
      expect(splitFrontmatter(lines('---', 'title: Plan', 'tags: [a, b]', '---', 'Body'))).toEqual({
        yaml: 'title: Plan\ntags: [a, b]',
        bodyStartLine: 5,
      });
    });

    it('normalizes CRLF line endings in the YAML', () => {
      expect(splitFrontmatter('---\r\ntitle: Plan\r\nx: 1\r\n---\r\nBody\r\n')).toEqual({ yaml: 'title: Plan\nx: 1', bodyStartLine: 5 });
    });

    it('tolerates a byte order mark before the opening fence', () => {
      expect(splitFrontmatter(`${BOM}---\ntitle: Plan\n---\n`)).toEqual({ yaml: 'title: Plan', bodyStartLine: 4 });
    });

    it('accepts "..." as the closing fence', () => {
      expect(splitFrontmatter(lines('---', 'a: 1', '...', 'Body'))).toEqual({ yaml: 'a: 1', bodyStartLine: 4 });
    });

    it('tolerates trailing spaces and tabs on both fences', () => {
      expect(splitFrontmatter(lines('---  ', 'a: 1', '---\t ', 'Body'))).toEqual({ yaml: 'a: 1', bodyStartLine: 4 });
    });

    it('returns empty YAML for frontmatter with nothing between the fences', () => {
      expect(splitFrontmatter(lines('---', '---', 'Body'))).toEqual({ yaml: '', bodyStartLine: 3 });
    });

    it('counts the line after a closing fence that ends the file', () => {
      expect(splitFrontmatter(lines('---', 'a: 1', '---'))).toEqual({ yaml: 'a: 1', bodyStartLine: 4 });
    });

    it('stops at the first closing fence', () => {
      expect(splitFrontmatter(lines('---', 'a: 1', '---', 'b: 2', '---'))).toEqual({ yaml: 'a: 1', bodyStartLine: 4 });
    });
  });

  describe('when the note has no frontmatter', () => {
    it.each([
      ['an empty note', ''],
      ['plain text', 'Just a note'],
      ['a thematic break after the first line', lines('# Title', '---', 'a: 1', '---')],
      ['an indented fence', lines(' ---', 'a: 1', '---')],
      ['a fence with text after it', lines('--- a', 'a: 1', '---')],
      ['four dashes', lines('----', 'a: 1', '----')],
    ])('returns null for %s', (_name, content) => {
      expect(splitFrontmatter(content)).toBeNull();
    });

    it('returns null when the opening fence is never closed', () => {
      expect(splitFrontmatter(lines('---', 'a: 1', 'Body'))).toBeNull();
    });
  });
});

describe('validateFrontmatter', () => {
  describe('when the content is acceptable', () => {
    it.each([
      ['an empty note', ''],
      ['a note without frontmatter', lines('# Plan', '', 'Text with a: colon')],
      ['a thematic break later in the note', lines('Intro', '---', '- not: [yaml', '---')],
      ['empty frontmatter', lines('---', '---', 'Body')],
      ['frontmatter holding only whitespace', lines('---', '   ', '', '---')],
      ['frontmatter holding only comments', lines('---', '# nothing yet', '---')],
      ['a mapping of scalars', lines('---', 'title: Plan', 'count: 3', 'done: false', '---', 'Body')],
      ['lists and nested mappings', lines('---', 'tags:', '  - a', '  - b', 'meta: {x: 1, y: [2]}', '---')],
      ['dates and quoted colons', lines('---', 'created: 2024-01-31', 'title: "Plan: phase 2"', '---')],
      ['an empty value', lines('---', 'aliases:', '---')],
      ['CRLF line endings', '---\r\ntitle: Plan\r\ntags: [a]\r\n---\r\nBody\r\n'],
      ['a byte order mark', `${BOM}---\ntitle: Plan\n---\nBody`],
      ['"..." as the closing fence', lines('---', 'title: Plan', '...', 'Body')],
      ['trailing spaces on the fences', lines('--- ', 'title: Plan', '---\t', 'Body')],
      ['anchors and aliases', lines('---', 'a: &x [1, 2]', 'b: *x', '---')],
      ['a key that is an explicit set', lines('---', 'set: !!set {a, b}', '---')],
    ])('accepts %s', (_name, content) => {
      expect(() => validateFrontmatter(PATH, content)).not.toThrow();
    });

    it('does not let a "__proto__" key change Object.prototype', () => {
      validateFrontmatter(PATH, lines('---', '__proto__: {polluted: true}', '---'));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('when the frontmatter is not closed', () => {
    it('refuses it on line 1', () => {
      expectRefused(lines('---', 'title: Plan', 'Body'), 'frontmatter-unclosed', 1);
    });

    it('refuses a note that is only an opening fence', () => {
      expectRefused('---', 'frontmatter-unclosed', 1);
    });

    it('refuses it with CRLF line endings', () => {
      expectRefused('---\r\ntitle: Plan\r\nBody\r\n', 'frontmatter-unclosed', 1);
    });

    it('refuses it after a byte order mark', () => {
      expectRefused(`${BOM}---\ntitle: Plan\n`, 'frontmatter-unclosed', 1);
    });

    it('does not take an indented "---" as the closing fence', () => {
      expectRefused(lines('---', 'a: 1', ' ---'), 'frontmatter-unclosed', 1);
    });
  });

  describe('when the YAML does not parse', () => {
    it('names the line of the error in the file', () => {
      expectRefused(lines('---', 'title: Plan', 'bad: key: value', '---'), 'frontmatter-yaml', 3);
    });

    it('names the same line with CRLF line endings', () => {
      expectRefused('---\r\ntitle: Plan\r\nbad: key: value\r\n---\r\n', 'frontmatter-yaml', 3);
    });

    it('names the same line after a byte order mark', () => {
      expectRefused(`${BOM}---\ntitle: Plan\nbad: key: value\n---\n`, 'frontmatter-yaml', 3);
    });

    it('refuses frontmatter nested too deep to parse safely, in flow or block style', () => {
      expectRefused(lines('---', `a: ${'['.repeat(5000)}${']'.repeat(5000)}`, '---'), 'frontmatter-yaml', 1);
      const block = Array.from({ length: 70 }, (_, depth) => `${'  '.repeat(depth)}k${depth}:`).join('\n');
      expectRefused(lines('---', block, '---'), 'frontmatter-yaml', 1);
      expect(() => validateFrontmatter('a.md', lines('---', `a: ${'['.repeat(60)}${']'.repeat(60)}`, '---'))).not.toThrow();
    });

    it('names the line of a duplicated key', () => {
      expectRefused(lines('---', 'a: 1', 'b: 2', 'a: 3', '---'), 'frontmatter-yaml', 4);
    });

    it('names the line where an unclosed collection starts', () => {
      expectRefused(lines('---', 'title: x', 'tags: [a, b', '---', 'Body'), 'frontmatter-yaml', 3);
    });

    it('refuses tab indentation', () => {
      expectRefused(lines('---', 'a:', '\t- b', '---'), 'frontmatter-yaml', 3);
    });

    it('refuses an alias that was never defined', () => {
      expectRefused(lines('---', 'a: 1', 'b: *nothing', '---'), 'frontmatter-yaml', 3);
    });

    it('reads JavaScript tags as plain text, never as code', () => {
      expect(() => validateFrontmatter(PATH, lines('---', 'run: !!js/function "function () {}"', '---'))).not.toThrow();
    });

  });

  describe('when the frontmatter is not a mapping', () => {
    it.each([
      ['a list', lines('---', '- a', '- b', '---')],
      ['a flow list', lines('---', '[a, b]', '---')],
      ['a single string', lines('---', 'just words', '---')],
      ['a number', lines('---', '42', '---')],
      ['a boolean', lines('---', 'true', '---')],
      ['a date', lines('---', '2024-01-31', '---')],
      ['binary data', lines('---', '!!binary aGVsbG8=', '---')],
    ])('refuses %s on line 2', (_name, content) => {
      expectRefused(content, 'frontmatter-not-mapping', 2);
    });
  });

  describe('when the frontmatter is too large', () => {
    it(`refuses more than ${MAX_FRONTMATTER_BYTES} bytes on line 1 without parsing`, () => {
      const value = 'a'.repeat(MAX_FRONTMATTER_BYTES);
      expectRefused(lines('---', `note: ${value}`, '---'), 'frontmatter-yaml', 1);
    });

    it('counts UTF-8 bytes, not characters', () => {
      const value = '€'.repeat(Math.ceil(MAX_FRONTMATTER_BYTES / 3) + 10);
      expect(value.length).toBeLessThan(MAX_FRONTMATTER_BYTES);
      expectRefused(lines('---', `note: ${value}`, '---'), 'frontmatter-yaml', 1);
    });

    it('accepts frontmatter of exactly the limit', () => {
      const yaml = `note: ${'a'.repeat(MAX_FRONTMATTER_BYTES - 'note: '.length)}`;
      expect(() => validateFrontmatter(PATH, lines('---', yaml, '---'))).not.toThrow();
    });
  });

  describe('when it refuses content', () => {
    it('says which line, what is wrong and how to fix it', () => {
      const error = expectRefused(lines('---', 'title: Plan', 'bad: key: value', '---'), 'frontmatter-yaml', 3);
      expect(error.message).toContain('line 3');
      expect(error.message).toContain(PATH);
      expect(error.message).toMatch(/Fix the YAML/);
      expect(error.message).toMatch(/Nothing was written/);
    });
  });
});
