/**
 * SES refuses to evaluate any source text that matches one of its censorship patterns, wherever the
 * match sits — in code, but also in a string, a template, a regular expression or a comment. The
 * patterns below are copied from `ses/src/transforms.js` (ses 2.3) and must stay identical to it:
 * the dynamic-import pattern and the HTML-comment pattern are always applied, the direct-eval
 * pattern is applied by `Compartment.prototype.evaluate` unless turned off.
 */
const IMPORT_PATTERN = new RegExp('(^|[^.]|\\.\\.\\.)\\bimport(\\s*(?:\\(|/[/*]))', 'g');
const EVAL_PATTERN = new RegExp('(^|[^.])\\beval(\\s*\\()', 'g');
const HTML_OPEN = '<!--';
const HTML_CLOSE = '-->';

/** `tagged-template` is the text of a template with a tag (`String.raw`…), whose spelling the tag sees. */
type SpanKind = 'string' | 'template' | 'tagged-template' | 'regex' | 'comment';

/** A literal's text (without its delimiters) or a whole comment, as `[start, end)` offsets. */
interface Span {
  kind: SpanKind;
  start: number;
  end: number;
}

/** Replaces `source[from, to)` by `text`. */
interface Edit {
  from: number;
  to: number;
  text: string;
}

/** Splits a tagged template's text in two: the tag gets the same characters, raw and cooked, with an empty value between. */
const EMPTY_SUBSTITUTION = '${""}';

/**
 * Rewrites `source` so SES accepts it without changing what it does: occurrences inside string
 * literals, template literal text, regex literals and comments are escaped; real code is left alone
 * (so a real dynamic `import(...)` still fails).
 *
 * Covers the three SES patterns: `import` followed by `(` or a comment, `<!--` and `-->`, and
 * `eval` followed by `(` (the direct-eval check `Compartment.evaluate` applies by default).
 *
 * In strings, untagged templates, regular expressions and comments one character of each match
 * becomes a hex escape: `\x69` for the `i` of `import`, `\x65` for the `e` of `eval`, `\x21` for
 * the `!` of `<!--`, `\x3e` for the `>` of `-->`; in regular expressions `\x3c` for the `<` of
 * `<!--` (or `\x2d` for its first `-` in the `(?<!--` of a lookbehind, where `<` and `!` are
 * syntax). The value of every literal stays the same, with and without the `u` flag; only a regular
 * expression's `source` shows the escape.
 *
 * A tagged template (`String.raw`…) would show an escape in its `raw` strings, so its text is split
 * by an empty substitution instead: `<${""}!--`, `--${""}>`, `import${""}(`, `eval${""}(`. What
 * `String.raw` (or any tag that joins strings and values) returns is exactly what was written; a tag
 * that looks at the strings array itself sees one more element and one more empty value. A template
 * counts as tagged when its backtick follows an operand (a name, `)`, `]`, `}` or another template);
 * an untagged one misjudged as tagged gets the split too, which keeps its value. Unlike an escape, a
 * split is not harmless where the lexer misread the code — a backtick right after a name inside a
 * regular expression it took for a division (`if (a) /x\`<!--/`); that rare risk buys exact data.
 *
 * Comments get the same escapes, although any change would do there: should the lexer misread one
 * kind of literal or comment as another, values still hold, and an escape landing in real code is a
 * syntax error rather than a change of meaning.
 *
 * No line break is added or removed, so every line keeps its number; columns move, by three per
 * escape and five per split, only after an edit on the same line.
 *
 * The lexer is small and, like every lexer without a parser, guesses whether a `/` starts a regular
 * expression from the token before it: after `)`, `]`, `}`, a name, a number, a literal or a
 * postfix `++`/`--` it reads a division; after an operator, `(`, `[`, `{`, `,`, `;` or one of the
 * keywords `return`, `typeof`, `case`, `do`, `else`, `in`, `of`, `new`, `delete`, `void`, `throw`,
 * `instanceof`, `yield`, `await` a regular expression. So `if (x) /import(/.test(s)` keeps its
 * regex unescaped and SES still rejects it. Never throws; an unterminated comment or template runs
 * to the end of the source, an unterminated string or regular expression to the end of its line.
 */
export function sesSafeSource(source: string): string {
  if (!mayBeCensored(source)) return source;
  const spans = lex(source);
  const edits = new Map<number, Edit>();
  const edit = (at: number, span: Span): void => {
    const replacement = replacementFor(source, at, span);
    if (replacement) edits.set(at, replacement);
  };
  /** In a tagged template, `at` is where the split goes; elsewhere the character at `at` is escaped. */
  const editOrSplit = (at: number, span: Span): void => {
    if (span.kind === 'tagged-template') edits.set(at, { from: at, to: at, text: EMPTY_SUBSTITUTION });
    else edit(at, span);
  };

  for (const [pattern, word] of [[IMPORT_PATTERN, 'import'], [EVAL_PATTERN, 'eval']] as const) {
    for (const at of wordMatches(source, pattern)) {
      const span = spanAt(spans, at);
      if (span?.kind === 'tagged-template') editOrSplit(at + word.length, span);
      else if (span) edit(at, span);
    }
  }
  // A literal or comment never ends inside `<!--` or `-->` (no delimiter is one of `<!->`), so a
  // match that starts inside one lies wholly inside it.
  for (const at of occurrences(source, HTML_OPEN)) {
    const span = spanAt(spans, at);
    if (!span) continue;
    if (span.kind === 'regex') edit(isLookbehindOpening(source, at, span) ? at + 2 : at, span);
    else editOrSplit(at + 1, span);
  }
  for (const at of occurrences(source, HTML_CLOSE)) {
    const span = spanAt(spans, at);
    if (span) editOrSplit(at + 2, span);
  }
  return applyEdits(source, edits);
}

function mayBeCensored(source: string): boolean {
  return source.includes('import') || source.includes('eval') || source.includes(HTML_OPEN) || source.includes(HTML_CLOSE);
}

/** Start offsets of the word (`import`/`eval`) in every match of `pattern`, overlapping ones included. */
function wordMatches(source: string, pattern: RegExp): number[] {
  const found: number[] = [];
  const regex = new RegExp(pattern.source, 'g');
  for (let match = regex.exec(source); match; match = regex.exec(source)) {
    found.push(match.index + (match[1] ?? '').length);
    // The prefix group consumes a character, so `import(import(` needs a restart one step later.
    regex.lastIndex = match.index + 1;
  }
  return found;
}

function occurrences(source: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = source.indexOf(needle); at >= 0; at = source.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function spanAt(spans: readonly Span[], at: number): Span | undefined {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = spans[middle];
    if (!span) break;
    if (at < span.start) high = middle - 1;
    else if (at >= span.end) low = middle + 1;
    else return span;
  }
  return undefined;
}

function replacementFor(source: string, at: number, span: Span): Edit | undefined {
  const char = source.charAt(at);
  if (at < span.start || at >= span.end) return undefined;
  // An escaped character (`\i`, `\<`) is an identity escape; the hex escape replaces both characters.
  const from = isEscaped(source, at, span.start) ? at - 1 : at;
  return { from, to: at + 1, text: `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}` };
}

function isEscaped(source: string, at: number, start: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; i >= start && source.charCodeAt(i) === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * True when the `<!--` at `at` inside a regex body is the `(?<!` of a negative lookbehind, where
 * escaping `<` or `!` would break the group; its first `-` is then a plain character outside any
 * class, which `\x2d` matches the same way.
 */
function isLookbehindOpening(source: string, at: number, span: Span): boolean {
  if (source.charAt(at - 1) !== '?' || source.charAt(at - 2) !== '(') return false;
  let inClass = false;
  for (let i = span.start; i < at; i++) {
    const code = source.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === OPEN_BRACKET) inClass = true;
    else if (code === CLOSE_BRACKET) inClass = false;
  }
  return !inClass;
}

function applyEdits(source: string, edits: ReadonlyMap<number, Edit>): string {
  if (edits.size === 0) return source;
  const positions = [...edits.keys()].sort((a, b) => a - b);
  let out = '';
  let copied = 0;
  for (const at of positions) {
    const { from, to, text } = edits.get(at) as Edit;
    out += source.slice(copied, from) + text;
    copied = to;
  }
  return out + source.slice(copied);
}

// ---------------------------------------------------------------------------------------------
// The lexer

const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Words after which an expression, and so a regular expression, may start. */
const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

function isWhitespace(char: string): boolean {
  return /\s/.test(char);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Letters, digits, `$`, `_`, `#` (private names), `\` (unicode escapes) and any non-ASCII non-space. */
function isWordChar(source: string, i: number): boolean {
  const code = source.charCodeAt(i);
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || isDigit(code)) return true;
  if (code === 0x24 || code === 0x5f || code === 0x23 || code === BACKSLASH) return true;
  return code >= 0x80 && !isWhitespace(source.charAt(i));
}

/** Splits `source` into the spans of its literals and comments, in order; the rest is code. */
function lex(source: string): Span[] {
  const spans: Span[] = [];
  const length = source.length;
  // One entry per open `{` and per open template substitution `${`, to know what a `}` closes.
  const braces: Array<'block' | 'substitution' | 'tagged-substitution'> = [];
  let regexAllowed = true;
  let afterDot = false;
  let i = 0;

  const lexTemplateText = (start: number, tagged: boolean): void => {
    const kind = tagged ? 'tagged-template' : 'template';
    let j = start;
    while (j < length) {
      const code = source.charCodeAt(j);
      if (code === BACKSLASH) {
        j += 2;
      } else if (code === 0x60) {
        spans.push({ kind, start, end: j });
        i = j + 1;
        regexAllowed = false;
        return;
      } else if (code === 0x24 && source.charCodeAt(j + 1) === 0x7b) {
        spans.push({ kind, start, end: j });
        braces.push(tagged ? 'tagged-substitution' : 'substitution');
        i = j + 2;
        regexAllowed = true;
        return;
      } else {
        j++;
      }
    }
    spans.push({ kind, start, end: length });
    i = length;
  };

  while (i < length) {
    const code = source.charCodeAt(i);
    const char = source.charAt(i);
    const next = source.charCodeAt(i + 1);
    const wasAfterDot: boolean = afterDot;
    afterDot = false;

    if (code === 0x2f && next === 0x2f) {
      let j = i + 2;
      while (j < length && !isLineTerminator(source.charCodeAt(j))) j++;
      spans.push({ kind: 'comment', start: i, end: j });
      i = j;
      afterDot = wasAfterDot;
    } else if (code === 0x2f && next === 0x2a) {
      const close = source.indexOf('*/', i + 2);
      const end = close < 0 ? length : close + 2;
      spans.push({ kind: 'comment', start: i, end });
      i = end;
      afterDot = wasAfterDot;
    } else if (code === 0x2f && regexAllowed) {
      let j = i + 1;
      let inClass = false;
      while (j < length) {
        const c = source.charCodeAt(j);
        if (isLineTerminator(c)) break;
        if (c === BACKSLASH) {
          if (j + 1 < length && isLineTerminator(source.charCodeAt(j + 1))) break;
          j += 2;
          continue;
        }
        if (c === OPEN_BRACKET) inClass = true;
        else if (c === CLOSE_BRACKET) inClass = false;
        else if (c === 0x2f && !inClass) break;
        j++;
      }
      j = Math.min(j, length);
      spans.push({ kind: 'regex', start: i + 1, end: j });
      i = source.charCodeAt(j) === 0x2f ? j + 1 : j;
      while (i < length && isWordChar(source, i)) i++; // flags
      regexAllowed = false;
    } else if (code === 0x27 || code === 0x22) {
      let j = i + 1;
      while (j < length) {
        const c = source.charCodeAt(j);
        // U+2028 and U+2029 are allowed in strings; only CR and LF end one.
        if (c === code || c === 0x0a || c === 0x0d) break;
        if (c === BACKSLASH) {
          // A line continuation may be CR LF: both characters belong to the escape.
          j += source.charCodeAt(j + 1) === 0x0d && source.charCodeAt(j + 2) === 0x0a ? 3 : 2;
          continue;
        }
        j++;
      }
      j = Math.min(j, length);
      spans.push({ kind: 'string', start: i + 1, end: j });
      i = source.charCodeAt(j) === code ? j + 1 : j;
      regexAllowed = false;
    } else if (code === 0x60) {
      // A backtick after an operand starts a tagged template (String.raw…); where an expression starts, a plain one.
      lexTemplateText(i + 1, !regexAllowed);
    } else if (code === 0x7d) {
      const closes = braces.pop();
      if (closes === 'substitution' || closes === 'tagged-substitution') {
        lexTemplateText(i + 1, closes === 'tagged-substitution');
      } else {
        i++;
        regexAllowed = false;
      }
    } else if (code === 0x7b) {
      braces.push('block');
      i++;
      regexAllowed = true;
    } else if (isDigit(code) || (code === 0x2e && isDigit(next))) {
      i++;
      while (i < length && (isWordChar(source, i) || source.charCodeAt(i) === 0x2e)) i++;
      regexAllowed = false;
    } else if (isWordChar(source, i)) {
      const start = i;
      i++;
      while (i < length && isWordChar(source, i)) i++;
      regexAllowed = !wasAfterDot && KEYWORDS_BEFORE_EXPRESSION.has(source.slice(start, i));
    } else if (isWhitespace(char)) {
      i++;
      afterDot = wasAfterDot;
    } else if ((code === 0x2b || code === 0x2d) && next === code) {
      // `++`/`--` keep the state: postfix follows an operand (division), prefix precedes one (regex).
      i += 2;
    } else if (code === 0x29 || code === 0x5d) {
      i++;
      regexAllowed = false;
    } else if (code === 0x2e && next === 0x2e && source.charCodeAt(i + 2) === 0x2e) {
      i += 3;
      regexAllowed = true;
    } else if (code === 0x2e || (code === 0x3f && next === 0x2e && !isDigit(source.charCodeAt(i + 2)))) {
      i += code === 0x2e ? 1 : 2;
      afterDot = true;
      regexAllowed = true;
    } else {
      i++;
      regexAllowed = true;
    }
  }
  return spans;
}
