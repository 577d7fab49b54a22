import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/tempVault';

// `npm test` builds before it runs the tests, so dist/recursa.d.ts is what a user would install.
// Each test makes a project the way a user would have one, with the package in its node_modules,
// and runs the real compiler over it.
const ROOT = process.cwd();
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const TYPE_CHECK_TIMEOUT = 120_000;

/** Stricter than this repository's own settings, and `skipLibCheck` off so the declarations themselves are checked. */
const STRICT = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  // A Node program: its own lib and @types/node, no DOM.
  lib: ['ES2022'],
  types: ['node'],
};

/** A consumer that uses the library the way its README shows. */
const CONSUMER = `
import {
  ask,
  openVault,
  runScript,
  DEFAULT_RUN_LIMITS,
  PathRefusedError,
  RecursaError,
  type AgentOutcome,
  type AskOptions,
  type LogEntry,
  type OpenedVault,
  type RunScriptResult,
} from 'recursa';

export async function useVault(dir: string): Promise<string[]> {
  const vault: OpenedVault = await openVault(dir, { watch: false, graph: false });
  const text: string = await vault.mem.readFile('Note.md');
  const wrote: boolean = await vault.mem.writeFile('Note.md', \`\${text}!\`);
  const history: LogEntry[] = await vault.mem.gitLog('Note.md', 5);
  const files: string[] = await vault.mem.listFiles();
  await vault.close();
  return wrote ? [...files, ...history.map((entry) => entry.hash)] : files;
}

export async function useRunScript(dir: string): Promise<number> {
  const result: RunScriptResult = await runScript(dir, 'return (await mem.listFiles()).length;', {
    limits: { timeMs: DEFAULT_RUN_LIMITS.timeMs / 2 },
    commit: 'Counted the files',
  });
  if (!result.ok) throw new Error(result.error?.message ?? 'failed');
  const commit: string | null = result.commit;
  return typeof result.value === 'number' && commit !== null ? result.value : result.logs.length;
}

export async function useAsk(dir: string): Promise<string | null> {
  const options: AskOptions = {
    provider: { kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' },
    budgets: { maxTurns: 4 },
    onEvent: (event) => {
      if (event.type === 'think') console.log(event.turn, event.text);
    },
  };
  const outcome: AgentOutcome = await ask(dir, 'Summarise my inbox', options);
  const commits: string[] = outcome.commits;
  return outcome.state === 'completed' ? outcome.reply : commits.join(', ');
}

export function describeError(error: unknown): string {
  if (error instanceof PathRefusedError) {
    const code: 'PathRefused' = error.code;
    return code;
  }
  return error instanceof RecursaError ? error.code : String(error);
}
`;

/** Mistakes the declarations must catch, one a line, and the error each must give. */
const MISTAKES = [
  ['const a: Promise<string> = vault.mem.readFile(42);', 'TS2345'],
  ["const b: number = await vault.mem.readFile('Note.md');", 'TS2322'],
  ["await vault.mem.noSuchMethod('Note.md');", 'TS2339'],
  ["await runScript(dir, 'return 1;', { limits: { timeMs: 'soon' } });", 'TS2322'],
  ["await ask(dir, 'Hello', { provider: { kind: 'gemini', baseUrl: '', model: '' } });", 'TS2322'],
  ["await ask(dir, 'Hello');", 'TS2554'],
] as const;

const WRONG_CONSUMER = `
import { ask, openVault, runScript } from 'recursa';

export async function misuse(dir: string): Promise<void> {
  const vault = await openVault(dir);
${MISTAKES.map(([line]) => `  ${line}`).join('\n')}
}
`;
/** The 1-based line of each mistake in WRONG_CONSUMER. */
const mistakeLine = (index: number): number => WRONG_CONSUMER.split('\n').indexOf(`  ${MISTAKES[index]![0]}`) + 1;

/** A project in `dir` whose node_modules holds this package (linked, as `npm link` would) and @types/node. */
async function makeProject(dir: string, source: string, compilerOptions: Record<string, unknown>): Promise<void> {
  await mkdir(join(dir, 'node_modules/@types'), { recursive: true });
  // 'junction' makes a folder link on Windows without extra rights; elsewhere it is a plain symlink.
  await symlink(ROOT, join(dir, 'node_modules/recursa'), 'junction');
  await symlink(join(ROOT, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'junction');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
  await writeFile(join(dir, 'consumer.ts'), source);
}

/** Runs the real `tsc` over the project in `dir`. */
function typeCheck(dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '-p', dir, '--pretty', 'false'], { cwd: dir }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe('dist/recursa.d.ts', () => {
  const temp = useTempDir('recursa-types-');

  it('is what package.json names for the package', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
    expect(pkg.types).toBe('dist/recursa.d.ts');
    expect(pkg.exports).toEqual({ '.': { types: './dist/recursa.d.ts', import: './dist/recursa.mjs', default: './dist/recursa.mjs' } });
    // `types` must come first: conditions are tried in order.
    expect(Object.keys((pkg.exports as Record<string, object>)['.']!)[0]).toBe('types');
  });

  it('is self-contained: it imports no source file and no package a user does not install', () => {
    const declarations = readFileSync('dist/recursa.d.ts', 'utf8');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    const imported = [...declarations.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']|<reference\s+(?:types|path)\s*=\s*["']([^"']+)["']/g)].map(
      (match) => match[1] ?? match[2] ?? '',
    );
    const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
    for (const specifier of imported) expect(Object.keys(pkg.dependencies)).toContain(packageOf(specifier));
    expect(declarations).toMatch(/export declare function openVault\(/);
  });

  it(
    'type-checks a strict consumer that imports the package by name (NodeNext resolution)',
    async () => {
      await makeProject(temp.dir, CONSUMER, { ...STRICT, module: 'NodeNext', moduleResolution: 'NodeNext' });
      const result = await typeCheck(temp.dir);
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
    },
    TYPE_CHECK_TIMEOUT,
  );

  it(
    'type-checks the same consumer under bundler resolution',
    async () => {
      await makeProject(temp.dir, CONSUMER, { ...STRICT, module: 'ESNext', moduleResolution: 'Bundler' });
      const result = await typeCheck(temp.dir);
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
    },
    TYPE_CHECK_TIMEOUT,
  );

  it(
    'rejects a consumer that misuses the API, at each mistake and nowhere else',
    async () => {
      await makeProject(temp.dir, WRONG_CONSUMER, { ...STRICT, module: 'NodeNext', moduleResolution: 'NodeNext' });
      const result = await typeCheck(temp.dir);
      expect(result.code).not.toBe(0);
      const errors = [...result.output.matchAll(/^consumer\.ts\((\d+),\d+\): error (TS\d+)/gm)].map((match) => `${match[1]} ${match[2]}`);
      // Every diagnostic is in consumer.ts (none in the declarations or the resolution of 'recursa').
      expect(result.output.trim().split('\n').filter((line) => /error TS\d+/.test(line))).toHaveLength(errors.length);
      expect(new Set(errors.map((error) => Number(error.split(' ')[0])))).toEqual(new Set(MISTAKES.map((_, index) => mistakeLine(index))));
      MISTAKES.forEach(([, code], index) => expect(errors).toContain(`${mistakeLine(index)} ${code}`));
    },
    TYPE_CHECK_TIMEOUT,
  );
});
