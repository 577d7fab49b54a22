import type * as Obsidian from 'obsidian';

/**
 * Obsidian's `MarkdownRenderer.render`, for what a chat reply uses: paragraphs (a single line
 * break is a `<br>`), headings, lists, block quotes, rules, fenced code (highlighted with Prism's
 * `token` classes, with a copy button), inline code, emphasis, links (`[text](url)` and
 * `[[note|alias]]` as `a.internal-link` with `data-href`).
 *
 * Raw HTML in the Markdown is kept as HTML, as Markdown allows — and, harsher than the app (which
 * sanitises), a `<script>` in it runs and event handler attributes fire. So a test that shows model
 * output stays inert proves the caller neutralised it, not that this renderer is harmless.
 */
export class MarkdownRenderer {
  static async render(_app: unknown, markdown: string, el: HTMLElement, _sourcePath: string, _component: Obsidian.Component): Promise<void> {
    const parsed = new DOMParser().parseFromString(`<body>${renderMarkdown(markdown)}</body>`, 'text/html');
    while (parsed.body.firstChild !== null) el.appendChild(el.ownerDocument.adoptNode(parsed.body.firstChild));
    for (const script of Array.from(el.querySelectorAll('script'))) {
      const live = document.createElement('script');
      for (const attribute of Array.from(script.attributes)) live.setAttribute(attribute.name, attribute.value);
      live.textContent = script.textContent;
      script.replaceWith(live);
    }
    for (const pre of Array.from(el.querySelectorAll(':scope pre'))) {
      if (pre.querySelector('.copy-code-button') !== null) continue;
      const button = pre.createEl('button', { cls: 'copy-code-button', text: 'Copy' });
      button.addEventListener('click', () => void navigator.clipboard?.writeText(pre.querySelector('code')?.textContent ?? ''));
    }
    await Promise.resolve();
  }

  static async renderMarkdown(markdown: string, el: HTMLElement, sourcePath: string, component: Obsidian.Component): Promise<void> {
    await MarkdownRenderer.render(null, markdown, el, sourcePath, component);
  }
}

/** Markdown to HTML (the subset above); raw HTML passes through. Exported for tests. */
export function renderMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map(renderInline).join('<br>\n')}</p>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    // A backtick fence's info string cannot hold a backtick (CommonMark): "```a```" is inline code.
    if (fence !== null && !((fence[1] ?? '').startsWith('`') && line.slice(fence[0].length).includes('`'))) {
      flush();
      const marker = fence[1] ?? '```';
      const language = fence[2] ?? '';
      const body: string[] = [];
      for (i++; i < lines.length && !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
      const cls = language === '' ? '' : ` class="language-${language}"`;
      out.push(`<pre${cls}><code${cls}>${highlight(body.join('\n'), language)}</code></pre>`);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading !== null) {
      flush();
      const level = (heading[1] ?? '#').length;
      out.push(`<h${level}>${renderInline(heading[2] ?? '')}</h${level}>`);
      continue;
    }
    if (/^ {0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.push('<hr>');
      continue;
    }
    if (paragraph.length === 0 && /^\s*<\/?[a-zA-Z][\w-]*(?:[\s/>]|$)|^\s*<!--/.test(line)) {
      // An HTML block (it cannot interrupt a paragraph): kept as is up to the next blank line.
      flush();
      const block: string[] = [line];
      while (i + 1 < lines.length && (lines[i + 1] ?? '').trim() !== '') block.push(lines[++i] ?? '');
      out.push(block.join('\n'));
      continue;
    }
    const list = /^\s*([-*+]|\d+[.)])\s+/.exec(line);
    if (list !== null) {
      flush();
      const ordered = /\d/.test(list[1] ?? '');
      const items: string[] = [];
      for (; i < lines.length; i++) {
        const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(lines[i] ?? '');
        if (item === null) break;
        items.push(`<li>${renderInline(item[2] ?? '')}</li>`);
      }
      i--;
      out.push(`<${ordered ? 'ol' : 'ul'}>${items.join('')}</${ordered ? 'ol' : 'ul'}>`);
      continue;
    }
    if (/^\s*>/.test(line)) {
      flush();
      const quoted: string[] = [];
      for (; i < lines.length && /^\s*>/.test(lines[i] ?? ''); i++) quoted.push((lines[i] ?? '').replace(/^\s*>\s?/, ''));
      i--;
      out.push(`<blockquote>${renderMarkdown(quoted.join('\n'))}</blockquote>`);
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return out.join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inline Markdown: code spans, raw HTML tags and entities pass through, links, emphasis. */
function renderInline(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('`')) {
      // A code span runs from a run of backticks to the next run of the same length (CommonMark);
      // with none, the run is literal text.
      const run = /^`+/.exec(rest)?.[0] ?? '`';
      const close = closingRun(rest, run.length);
      if (close < 0) out += run;
      else out += `<code>${escapeHtml(rest.slice(run.length, close).trim())}</code>`;
      i += close < 0 ? run.length : close + run.length;
      continue;
    }
    const tag = /^<\/?[a-zA-Z][\w-]*(?:\s+[^<>]*)?\/?>|^<!--[\s\S]*?-->/.exec(rest);
    if (tag !== null) {
      out += tag[0];
      i += tag[0].length;
      continue;
    }
    const entity = /^&(?:#\d+|#x[\da-fA-F]+|[a-zA-Z][\da-zA-Z]*);/.exec(rest);
    if (entity !== null) {
      out += entity[0];
      i += entity[0].length;
      continue;
    }
    const wiki = /^\[\[([^\]|#]+)(#[^\]|]*)?(?:\|([^\]]+))?\]\]/.exec(rest);
    if (wiki !== null) {
      const target = (wiki[1] ?? '') + (wiki[2] ?? '');
      out += `<a data-href="${escapeHtml(target)}" href="${escapeHtml(target)}" class="internal-link" target="_blank" rel="noopener nofollow">${escapeHtml(wiki[3] ?? target)}</a>`;
      i += wiki[0].length;
      continue;
    }
    const link = /^\[([^\]]*)\]\(([^)\s]*)\)/.exec(rest);
    if (link !== null) {
      const href = link[2] ?? '';
      const external = /^[a-z][a-z\d+.-]*:/i.test(href);
      out += external
        ? `<a href="${escapeHtml(href)}" class="external-link" target="_blank" rel="noopener nofollow">${renderInline(link[1] ?? '')}</a>`
        : `<a data-href="${escapeHtml(href)}" href="${escapeHtml(href)}" class="internal-link" target="_blank" rel="noopener nofollow">${renderInline(link[1] ?? '')}</a>`;
      i += link[0].length;
      continue;
    }
    const emphasis = /^(\*\*|__|\*|_)(?=\S)/.exec(rest)?.[1];
    const closing = emphasis === undefined ? -1 : closingDelimiter(rest, emphasis);
    if (emphasis !== undefined && closing > 0) {
      const tag = emphasis.length === 2 ? 'strong' : 'em';
      out += `<${tag}>${renderInline(rest.slice(emphasis.length, closing))}</${tag}>`;
      i += closing + emphasis.length;
      continue;
    }
    const char = text[i] ?? '';
    out += char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : char;
    i++;
  }
  return out;
}

/**
 * Where the emphasis opened by `delimiter` at the start of `text` closes, or -1: the next
 * `delimiter` after a non-space character, outside code spans (code binds tighter than emphasis).
 */
function closingDelimiter(text: string, delimiter: string): number {
  for (let at = delimiter.length; at < text.length; at++) {
    if (text[at] === '`') {
      const run = /^`+/.exec(text.slice(at))?.[0].length ?? 1;
      const close = closingRun(text.slice(at), run);
      at += close < 0 ? run - 1 : close + run - 1;
      continue;
    }
    if (at > delimiter.length && text.startsWith(delimiter, at) && /\S/.test(text[at - 1] ?? '')) return at;
  }
  return -1;
}

/** Where the next run of exactly `length` backticks after the opening run starts, or -1. */
function closingRun(text: string, length: number): number {
  for (let at = length; at < text.length; ) {
    const next = text.indexOf('`', at);
    if (next < 0) return -1;
    const run = /^`+/.exec(text.slice(next))?.[0].length ?? 1;
    if (run === length) return next;
    at = next + run;
  }
  return -1;
}

const KEYWORDS = new Set(
  'as async await break case catch class const continue default delete do else export extends false finally for from function if import in instanceof let new null of return static switch this throw true try typeof undefined var void while yield'.split(' '),
);

/** Prism-style tokens (`token comment|string|keyword|number|function|operator|punctuation`) for JS and TS. */
function highlight(code: string, language: string): string {
  if (!/^(ts|typescript|js|javascript)$/.test(language)) return escapeHtml(code);
  const token = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)(?=\s*\()|([A-Za-z_$][\w$]*)|([{}()[\];,.])|([=+\-*/%!<>&|?:]+)/g;
  let out = '';
  let last = 0;
  for (const match of code.matchAll(token)) {
    out += escapeHtml(code.slice(last, match.index));
    const [text, comment, string, number, fn, word, punctuation, operator] = match;
    const kind =
      comment !== undefined ? 'comment'
      : string !== undefined ? 'string'
      : number !== undefined ? 'number'
      : fn !== undefined ? (KEYWORDS.has(fn) ? 'keyword' : 'function')
      : word !== undefined ? (KEYWORDS.has(word) ? 'keyword' : null)
      : punctuation !== undefined ? 'punctuation'
      : operator !== undefined ? 'operator'
      : null;
    out += kind === null ? escapeHtml(text) : `<span class="token ${kind}">${escapeHtml(text)}</span>`;
    last = match.index + text.length;
  }
  return out + escapeHtml(code.slice(last));
}
