import 'ses';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sesSafeSource } from '../../../../src/core/sandbox/sesSafeSource';

// The engine's own Function, taken before lockdown makes the global one apply SES's censorship.
const NativeFunction = Function;
// SES can lock a realm down once; vitest gives every test file its own worker.
globalThis.lockdown({ errorTaming: 'unsafe', overrideTaming: 'severe', consoleTaming: 'unsafe' });

/** The patterns of ses/src/transforms.js, to check what SES would still reject. */
const CENSORED = [
  new RegExp('(^|[^.]|\\.\\.\\.)\\bimport(\\s*(?:\\(|/[/*]))'),
  new RegExp(`(?:${'<'}!--|--${'>'})`),
  new RegExp('(^|[^.])\\beval(\\s*\\()'),
];

function isCensored(source: string): boolean {
  return CENSORED.some((pattern) => pattern.test(source));
}

/** What SES makes of the source: the completion value of the script, in a fresh Compartment. */
function inCompartment(source: string): unknown {
  // eslint-disable-next-line no-undef -- a global that ses declares and installs
  return new Compartment().evaluate(source);
}

/** What the engine makes of an expression, with no censorship. */
function reference(expression: string): unknown {
  const evaluate = new NativeFunction(`return (${expression}\n)`) as () => unknown;
  return evaluate();
}

function lines(text: string): number {
  return text.split(/\r\n|\r|\n|\u2028|\u2029/).length;
}

/** Asserts SES rejects `expression`, and accepts the rewrite with the same value and line count. */
function expectEvaded(expression: string): string {
  expect(isCensored(expression)).toBe(true);
  expect(() => inCompartment(expression)).toThrow(/SES_(IMPORT|HTML_COMMENT|EVAL)_REJECTED/);
  const rewritten = sesSafeSource(expression);
  expect(isCensored(rewritten)).toBe(false);
  expect(lines(rewritten)).toBe(lines(expression));
  expect(inCompartment(rewritten)).toEqual(reference(expression));
  return rewritten;
}

describe('sesSafeSource', () => {
  it('returns source without censored text unchanged', () => {
    const source = 'const a = [1, "b", /c/g];\nreturn a.length / 2 / 1; // done';
    expect(sesSafeSource(source)).toBe(source);
  });

  describe('when censored text is in a string', () => {
    it.each([
      `'import("x")'`,
      `"import ('x')"`,
      `'import\t(x)'`,
      `"import// x"`,
      `"import/* x"`,
      `'...import(x)'`,
      `"a <!-- b --> c"`,
      `'<!-->'`,
      `'--->'`,
      `"eval(1)"`,
      `'\\import(x)'`,
      `"\\\\import(x)"`,
      `"\\\\\\<!--"`,
      `'import(' + "eval(" + '<!--'`,
      `'line one \\\nimport(x)'`,
    ])('escapes %s keeping its value', (source) => {
      expectEvaded(source);
    });

    it('escapes only the one character a match needs', () => {
      expect(sesSafeSource(`'import(' + "<!--" + '-->'`)).toBe(`'\\x69mport(' + "<\\x21--" + '--\\x3e'`);
    });

    it('leaves a match after a single dot alone, as SES does', () => {
      expect(sesSafeSource(`'a.import(x)'`)).toBe(`'a.import(x)'`);
    });
  });

  describe('when censored text is in a template literal', () => {
    it('escapes the text around nested substitutions and templates', () => {
      expectEvaded('`import(${`<!--${\'-->\' + `eval(${1 + 1})`}`}) ${ {a: "import("}.a }`');
    });

    it('keeps multi-line templates on their lines', () => {
      expectEvaded('`first import(\nsecond <!--\nthird -->`');
    });

    it('keeps what String.raw sees, raw spelling included, by splitting the text with an empty substitution', () => {
      const rewritten = sesSafeSource('String.raw`import(\\x <!-- \\n --> eval (`');
      expect(rewritten).toBe('String.raw`import${""}(\\x <${""}!-- \\n --${""}> eval${""} (`');
      expect(inCompartment(rewritten)).toBe('import(\\x <!-- \\n --> eval (');
      expectEvaded('String.raw`a ${1} import( ${`<!--`} -->`');
    });

    it('splits the text of any tagged template, which a tag joining strings and values reads the same', () => {
      const join = '((strings, ...values) => strings.raw.map((s, i) => s + (i < values.length ? values[i] : "")).join(""))';
      expectEvaded(`${join}\`x <!-- y --> import(z)\``);
      expectEvaded(`[${join}\`a\`, ${join}\`<!--\`, String.raw\`-->\`, (String.raw)\`eval(\`]`);
    });

    it('keeps U+2028 and U+2029 inside a string, where they do not end it', () => {
      expectEvaded('"a\u2028<!--\u2029-->" + `\u2028<!--`');
    });
  });

  describe('when censored text is in a regular expression', () => {
    it.each([
      String.raw`/import(\()/.test('imp' + 'ort(')`,
      String.raw`/import (\()/u.test('imp' + 'ort (')`,
      String.raw`(() => { const x = /-->/g; return x.test('a-' + '->b'); })()`,
      String.raw`/[/]<!--/.test('/<' + '!--')`,
      String.raw`[/[<!--]/.test('<'), /[<!--]/.test('#'), /[<!--]/.test('a')]`,
      String.raw`[/(?<!--)x/.test('x'), /(?<!--)x/.test('--x')]`,
      String.raw`[/[(?<!--]/.test('#'), /[(?<!--]/.test('a')]`,
      String.raw`/\<!--/.test('<' + '!--')`,
      String.raw`/\import(\()/i.test('IMP' + 'ORT(')`,
      String.raw`/[import(]eval\(/.exec('(ev' + 'al(')[0]`,
    ])('escapes %s keeping what it matches', (source) => {
      expectEvaded(source);
    });

    it('needs nothing for /import\\(/, which SES accepts as it is', () => {
      const source = String.raw`/import\(/.test('imp' + 'ort(')`;
      expect(sesSafeSource(source)).toBe(source);
      expect(inCompartment(source)).toBe(true);
    });

    it('tells division from a regular expression by the token before the slash', () => {
      // Were a division read as a regex, the quote inside it would open a string and hide "<!--" from the rewrite.
      for (const division of [
        '12 / "/".length',
        '(12) / "/".length',
        '[12][0] / "/".length',
        '`12` / "/".length',
        '({ return: 12 }).return / "/".length',
        '((n) => n++ / "/".length)(12)',
        '12 / 3 / 2 / "/".length',
      ]) {
        expectEvaded(`[${division}, "<!--"]`);
      }
      for (const regex of [
        'typeof /"/',
        'void /"/',
        '"source" in /"/',
        '(() => { return /"/.source; })()',
        '(() => { switch (1) { case 1: return /"/.source; } })()',
        '(() => { try { throw /"/; } catch (e) { return e.source; } })()',
        '(async () => await /"/)()',
        '[++/"/.lastIndex][0]',
        '(() => { if (true) {} else /"/; return 1; })()',
      ]) {
        expectEvaded(`[${regex}, "<!--"]`);
      }
    });
  });

  describe('when censored text is in a comment', () => {
    it('escapes the match as in a string', () => {
      const source = '[1, /* import( <!-- --> eval( */ 2 // import("x") -->\n]';
      const rewritten = expectEvaded(source);
      expect(rewritten).toBe('[1, /* \\x69mport( <\\x21-- --\\x3e \\x65val( */ 2 // \\x69mport("x") --\\x3e\n]');
    });

    it('breaks a match that runs from a comment into the code after it', () => {
      expectEvaded('((f) => f // ends with import\n(3))((x) => x)');
    });
  });

  describe('when censored text is real code', () => {
    it.each([`import('x')`, `import /* c */ ('x')`, `import\n('x')`, `eval('1')`, `x-->0`, `a <!-- b`])(
      'leaves %s for SES to reject',
      (source) => {
        expect(sesSafeSource(source)).toBe(source);
        expect(() => inCompartment(source)).toThrow(/SES_(IMPORT|HTML_COMMENT|EVAL)_REJECTED/);
      },
    );

    it('rewrites the literals around it but still fails', () => {
      const source = `const m = 'import('; import(m)`;
      expect(sesSafeSource(source)).toBe(`const m = '\\x69mport('; import(m)`);
      expect(() => inCompartment(sesSafeSource(source))).toThrow(/SES_IMPORT_REJECTED/);
    });
  });

  describe('when the source is broken', () => {
    it.each([`'import(`, '`<!-- ${', '/* -->', '/import(', `"a\\`, '}}} ]]] import(', '`${`${`'])(
      'does not throw on %s',
      (source) => {
        expect(() => sesSafeSource(source)).not.toThrow();
      },
    );

    it('treats an unterminated string as running to the end of its line', () => {
      expect(sesSafeSource(`'import(\n'import(`)).toBe(`'\\x69mport(\n'\\x69mport(`);
    });
  });

  it('never throws, keeps every line, and is idempotent on arbitrary code-like text', () => {
    const alphabet = fc.constantFrom(
      ...['import', '(', '<!--', '-->', 'eval', '/', '*', '\\', "'", '"', '`', '${', '{', '}', '[', ']', '\n', '\r', ' ', '.', 'x', '1', '+', '-', 'return', ')'],
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const source = parts.join('');
        const rewritten = sesSafeSource(source);
        expect(lines(rewritten)).toBe(lines(source));
        expect(sesSafeSource(rewritten)).toBe(rewritten);
      }),
      { seed: 1729, numRuns: 2000 },
    );
  });

  it('keeps the value of generated programs while removing every censored pattern', () => {
    const program = fc.array(fc.tuple(item(2), comment()), { minLength: 1, maxLength: 6 }).map(
      (parts) => `[${parts.map(([value, note]) => `${value},${note}`).join('')}]`,
    );
    fc.assert(
      fc.property(program, (source) => {
        const rewritten = sesSafeSource(source);
        expect(isCensored(rewritten)).toBe(false);
        expect(lines(rewritten)).toBe(lines(source));
        expect(inCompartment(rewritten)).toEqual(reference(source));
      }),
      { seed: 20240601, numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// A small grammar of expressions full of censored text, for the property test.

/** Pieces of text valid in '…', "…" and `…` alike (as written in the source). */
const QUOTED_TEXT = [
  'import(',
  'import (',
  'import\t(',
  'import//',
  'import/*',
  '\\import(',
  '...import(',
  '.import(',
  '<!--',
  '-->',
  '<!-->',
  '--->',
  'eval(',
  '\\\\',
  '\\n',
  '/',
  '*',
  'x',
  ' ',
  "\\'",
  '\\"',
  '\\`',
  '\\${',
  '{',
  '}',
  '\\\n',
];

/** Pieces of a regex body, valid with and without the `u` flag. */
const REGEX_TEXT = [
  'import\\(',
  'import\\s*\\(',
  '<!--',
  '-->',
  '[/]',
  '\\/',
  '[<!--]',
  String.raw`(?<!--)x`, // a template, which the lookbehind lint rule (about iOS before 16.4) leaves alone
  'eval\\(',
  'import\\/\\/',
  '[import(]',
  'x',
  '.',
];

const COMMENT_TEXT = ['import(', 'import (', 'import', '<!--', '-->', 'eval(', '/', ' ', 'x', '`', "'", '"', '(', '{'];

function text(pieces: readonly string[], maxLength = 6): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

function stringLiteral(): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom("'", '"'), text(QUOTED_TEXT)).map(([quote, body]) => `${quote}${body}${quote}`);
}

function template(depth: number): fc.Arbitrary<string> {
  const inner = depth > 0 ? fc.oneof(stringLiteral(), template(depth - 1), fc.constant('{ a: "import(" }.a')) : stringLiteral();
  return fc
    .array(fc.tuple(text([...QUOTED_TEXT, '\n']), fc.option(inner, { nil: undefined })), { minLength: 1, maxLength: 3 })
    .map((parts) => `\`${parts.map(([body, substitution]) => body + (substitution === undefined ? '' : `\${ ${substitution} }`)).join('')}\``);
}

function regex(): fc.Arbitrary<string> {
  return fc
    .tuple(text(REGEX_TEXT, 4), fc.constantFrom('', 'g', 'u', 'i'), text(QUOTED_TEXT.filter((piece) => !piece.includes("'")), 4))
    .map(([body, flags, probe]) => {
      const literal = `/${body || 'x'}/${flags}`;
      return `[${literal}.exec('${probe}'), ${literal}.flags, typeof ${literal}]`;
    });
}

function division(): fc.Arbitrary<string> {
  return fc.constantFrom('12 / "/".length / 2', '(12) / 3 / 2', '[12][0] / "/".length', '((n) => n++ / 2 / "/".length)(4)', '({ of: 6 }).of / "/".length');
}

function item(depth: number): fc.Arbitrary<string> {
  return fc.oneof(stringLiteral(), template(depth), regex(), division());
}

function comment(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(''),
    text(COMMENT_TEXT).map((body) => `/*${body}*/`),
    text(COMMENT_TEXT).map((body) => `//${body}\n`),
  );
}
