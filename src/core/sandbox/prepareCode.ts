import { transform } from 'sucrase';
import { sesSafeSource } from './sesSafeSource';
import type { RunError } from './protocol';

/** Sits on the code's first line, so every line of the model's code keeps its number. */
const PREFIX = '(async function () {';

/** The same test SES applies (see `ses`'s `importPattern`): what is left after evasion is real code. */
const DYNAMIC_IMPORT = /(^|[^.]|\.\.\.)\bimport(\s*(?:\(|\/[/*]))/g;

export type PreparedCode = { ok: true; source: string } | { ok: false; error: RunError };

/**
 * Turns the TypeScript a model wrote into what a Compartment evaluates: types stripped (sucrase,
 * which keeps line numbers), wrapped as the body of an async function so top-level `await` and
 * `return` work, and mentions of `import(` or HTML comment tokens in strings and comments escaped
 * so SES accepts them. A real dynamic import is refused here with its line.
 */
export function prepareCode(code: string): PreparedCode {
  let js: string;
  try {
    js = transform(`${PREFIX}${code}\n})`, { transforms: ['typescript'], disableESTransforms: true, production: true }).code;
  } catch (error) {
    return { ok: false, error: syntaxError(error) };
  }
  const source = sesSafeSource(js);
  DYNAMIC_IMPORT.lastIndex = 0;
  const found = DYNAMIC_IMPORT.exec(source);
  if (found !== null) {
    return {
      ok: false,
      error: {
        code: 'DynamicImport',
        message: 'import() is not available in the sandbox: use the mem API for everything you need.',
        line: lineAt(source, found.index + (found[1] ?? '').length),
      },
    };
  }
  return { ok: true, source };
}

function syntaxError(error: unknown): RunError {
  const loc = (error as { loc?: { line?: unknown } }).loc;
  const message = error instanceof Error ? error.message.replace(/\s*\(\d+:\d+\)$/, '') : 'the code does not parse';
  const line = typeof loc?.line === 'number' ? loc.line : undefined;
  return { code: 'SyntaxError', name: 'SyntaxError', message: `${message}${line === undefined ? '' : ` on line ${line}`}`, ...(line === undefined ? {} : { line }) };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
