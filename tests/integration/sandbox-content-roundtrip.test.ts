/**
 * Whatever text the model's code writes lands on disk, and comes back from `mem.readFile`, exactly
 * as the code spelled it — `<!--`, `-->`, `import(`, backticks, `${`, backslashes, `String.raw`
 * templates and all — although SES refuses source that mentions some of them and `prepareCode`
 * has to rewrite it. Random strings over a nasty alphabet are embedded as a double-quoted string,
 * a single-quoted string, a template, a template with substitutions and a `String.raw` template,
 * run in the real sandbox (`worker_threads` worker, real SES) and compared with what the engine
 * makes of the same literals outside any sandbox.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useSandboxVault } from '../helpers/sandboxVault';

const vault = useSandboxVault({ limits: { timeMs: 5000 } });

const NASTY = [
  '<!--', '-->', '<!-->', '--->', 'import(', 'import (', 'import//', 'import/*', 'eval(', 'String.raw', 'String.raw`', '`', '${', '$', '{', '}',
  '\\', '\\\\', '\\x', '\\u{', "'", '"', '\n', '\r\n', '\r', '\t', '//', '/*', '*/', '<', '!', '-', '>', 'x', ' ', 'é', 'ß', '😀', '中文',
  '\u2028', '\u2029', '\u00a0', '\u200d',
];

const nastyText = fc.array(fc.constantFrom(...NASTY), { maxLength: 12 }).map((parts) => parts.join(''));

/** `text` as the body of a template: what a template would read as something else is escaped. */
function templateBody(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/[\\`]|\$\{/g, (match) => `\\${match}`);
}

/** The literals the code is written with, each meant to produce `text` (String.raw shows the escapes). */
function literalsFor(text: string, cut: number): string[] {
  const single = `'${text.replace(/[\\']/g, (match) => `\\${match}`).replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
  // Cut between code points: half a surrogate pair is not text a file can hold.
  const points = Array.from(text);
  const head = points.slice(0, cut % (points.length + 1)).join('');
  const tail = text.slice(head.length);
  return [
    JSON.stringify(text),
    single,
    `\`${templateBody(text)}\``,
    `\`${templateBody(head)}\${${JSON.stringify(tail)}}\${''}\``,
    `String.raw\`${templateBody(text)}\``,
    `String.raw\`${templateBody(head)}\${${JSON.stringify(tail)}}${templateBody(tail)}\``,
  ];
}

/** What the engine makes of the literals, with no sandbox and no rewriting. */
function reference(literals: readonly string[]): string[] {
  return runInNewContext(`[${literals.join(',\n')}]`) as string[];
}

function agentCode(literals: readonly string[], comment: string): string {
  return `
    // ${comment.replace(/[\r\n\u2028\u2029]/g, ' ')}
    /* ${comment.replace(/\*\//g, '* /')} */
    const values: string[] = [
      ${literals.join(',\n      ')},
    ];
    const read: string[] = [];
    for (let i = 0; i < values.length; i++) {
      await mem.writeFile('roundtrip/' + i + '.md', values[i]!);
      read.push(await mem.readFile('roundtrip/' + i + '.md') as string);
    }
    return { values, read };
  `;
}

describe('content written by sandboxed code round-trips exactly', () => {
  it('through strings, templates and String.raw templates, to disk and back', async () => {
    await fc.assert(
      fc.asyncProperty(nastyText, fc.nat(), nastyText, async (text, cutAt, comment) => {
        const literals = literalsFor(text, cutAt);
        const expected = reference(literals);
        const result = await vault.sandbox.run(agentCode(literals, comment));
        expect(result.error).toBeNull();
        expect(result.value).toEqual({ values: expected, read: expected });
        for (const [i, value] of expected.entries()) {
          expect(await readFile(join(vault.dir, `roundtrip/${i}.md`), 'utf8')).toBe(value);
        }
      }),
      { seed: 17, numRuns: 150 },
    );
  }, 120_000);

  it('keeps the exact spelling in the cases that used to change', async () => {
    const code = [
      'const a = String.raw`<!-- x --> import(y) eval(z) \\n \\x`;',
      'const b = "<!-- import(\'m\') -->";',
      'const c = `\\`<!--\\` ${"-->"} import (x)`;',
      'const d = String.raw`C:\\path\\import(x)`;',
      "await mem.writeFile('exact.md', [a, b, c, d].join('|'));",
      "return await mem.readFile('exact.md');",
    ].join('\n');
    const expected = String.raw`<!-- x --> import(y) eval(z) \n \x` + '|' + `<!-- import('m') -->` + '|' + '`<!--` --> import (x)' + '|' + String.raw`C:\path\import(x)`;
    const result = await vault.sandbox.run(code);
    expect(result).toMatchObject({ ok: true, value: expected });
    expect(await readFile(join(vault.dir, 'exact.md'), 'utf8')).toBe(expected);
  });

  it('still refuses a real dynamic import next to the same text in strings', async () => {
    const result = await vault.sandbox.run('const s = String.raw`import(x)`;\nconst m = await import("node:fs");\nreturn s;');
    expect(result).toMatchObject({ ok: false, error: { code: 'DynamicImport', line: 2 } });
  });
});
