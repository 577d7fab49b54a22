/**
 * Model output as Markdown that holds no HTML: every `<` outside code becomes `&lt;`, which
 * Markdown shows as a plain `<`. Code (fenced blocks and inline spans) is left alone: Markdown
 * already shows it as text. So `<img src=x onerror=…>` or `<script>` in a reply reach the screen
 * as the characters the model wrote, never as elements.
 */
export function neutralizeMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  let prose: string[] = [];
  const flushProse = (): void => {
    // Code spans are taken within one line only: a span Markdown would stretch over lines has its
    // `<` escaped too (shown as "&lt;" in code), so no reading of the text leaves a tag behind.
    for (const line of prose) out.push(escapeOutsideCodeSpans(line));
    prose = [];
  };
  for (const line of lines) {
    if (fence !== null) {
      out.push(line);
      if (new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(line)) fence = null;
      continue;
    }
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (opening !== null && !(opening[1]?.startsWith('`') === true && line.slice(opening[0].length).includes('`'))) {
      flushProse();
      fence = opening[1] ?? '```';
      out.push(line);
      continue;
    }
    prose.push(line);
  }
  flushProse();
  // An unclosed fence runs to the end: Markdown shows the rest as code, which is text.
  return out.join('\n');
}

/** Escapes `<` in text, keeping inline code spans (a run of backticks to the same run) as they are. */
function escapeOutsideCodeSpans(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const tick = text.indexOf('`', at);
    if (tick < 0) {
      out += escapeAngle(text.slice(at));
      break;
    }
    out += escapeAngle(text.slice(at, tick));
    const run = /^`+/.exec(text.slice(tick))?.[0] ?? '`';
    const close = findClosingRun(text, tick + run.length, run.length);
    if (close < 0) {
      // No closing run: the backticks are literal text.
      out += run;
      at = tick + run.length;
      continue;
    }
    out += text.slice(tick, close + run.length);
    at = close + run.length;
  }
  return out;
}

function findClosingRun(text: string, from: number, length: number): number {
  for (let at = text.indexOf('`', from); at >= 0; at = text.indexOf('`', at + 1)) {
    const run = /^`+/.exec(text.slice(at))?.[0].length ?? 0;
    if (run === length) return at;
    at += run - 1;
  }
  return -1;
}

function escapeAngle(text: string): string {
  return text.replace(/</g, '&lt;');
}

/** A Markdown code fence around `code` that `code` itself cannot close. */
export function fenceCode(code: string, language: string): string {
  const longest = Math.max(2, ...Array.from(code.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${code}\n${fence}`;
}
