import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fenceCode, neutralizeMarkdown } from '../../../../src/obsidian/chat/neutralizeMarkdown';
import { renderMarkdown } from '../../../helpers/obsidian/markdown';

/** Elements in rendered HTML that the renderer itself does not make. */
function foreignTags(html: string): string[] {
  const own = new Set(['p', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'span', 'strong', 'em', 'a']);
  return Array.from(html.matchAll(/<\/?([a-zA-Z][\w-]*)/g), (match) => (match[1] ?? '').toLowerCase()).filter((tag) => !own.has(tag));
}

describe('neutralizeMarkdown', () => {
  it('turns raw HTML into text that Markdown shows as written', () => {
    const html = renderMarkdown(neutralizeMarkdown('Look: <img src=x onerror="alert(1)"> and <script>alert(2)</script>'));
    expect(foreignTags(html)).toEqual([]);
    expect(html).toContain('&lt;img src=x onerror="alert(1)"&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('leaves the HTML in place without it (the test renderer does render raw HTML)', () => {
    expect(foreignTags(renderMarkdown('Look: <img src=x onerror="alert(1)">'))).toEqual(['img']);
  });

  it('neutralises HTML blocks, comments and tags split over lines', () => {
    for (const hostile of ['<div onclick="x()">\nhi\n</div>', '<!-- <script>x()</script> -->', '<svg\nonload="x()">', '<IMG SRC=x ONERROR=x()>', '> <iframe srcdoc="x"></iframe>']) {
      expect(foreignTags(renderMarkdown(neutralizeMarkdown(hostile)))).toEqual([]);
    }
  });

  it('keeps code as it is, in fences and inline', () => {
    const markdown = 'Use `<b>` here.\n\n```html\n<p onclick="x">hi</p>\n```\n\nAfter <i>.';
    const neutral = neutralizeMarkdown(markdown);
    expect(neutral).toBe('Use `<b>` here.\n\n```html\n<p onclick="x">hi</p>\n```\n\nAfter &lt;i>.');
    const html = renderMarkdown(neutral);
    expect(foreignTags(html)).toEqual([]);
    expect(html).toContain('<code>&lt;b&gt;</code>');
    expect(html).toContain('&lt;p onclick=&quot;x&quot;&gt;hi&lt;/p&gt;');
  });

  it('never lets an element through, whatever the text (property)', () => {
    const piece = fc.constantFrom('<', '>', '`', '```', '~~~', '\n', ' ', 'img src=x onerror=a()', 'script', '/', '!--', '-->', 'a', '*', '[x](y)', '<b>', '\n```\n');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        expect(foreignTags(renderMarkdown(neutralizeMarkdown(pieces.join(''))))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('fenceCode', () => {
  it('uses a fence longer than any backtick run in the code, so the code cannot close it', () => {
    const code = 'const a = `x`;\n```\n<script>';
    const fenced = fenceCode(code, 'ts');
    expect(fenced.startsWith('````ts\n')).toBe(true);
    const html = renderMarkdown(fenced);
    expect(foreignTags(html)).toEqual([]);
    // One code block holds all of it: the inner fence did not end it.
    expect(html.match(/<pre/g)).toHaveLength(1);
    expect(html.replace(/<[^>]+>/g, '')).toBe('const a = `x`;\n```\n&lt;script&gt;');
  });
});
