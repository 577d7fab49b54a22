import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cl100kRanksSource } from '../../scripts/cl100k-ranks.mjs';
import { useTempDir } from '../helpers/tempVault';

// `recursa --version` and `--help` must start about as fast as Node itself: dist/cli.mjs loads the
// commands' modules (the sandbox and its worker source, git, the tokenizer) only when a command
// runs. Checked by what Node actually loads, not by timing: a module resolve hook records every
// module the command line imports.

const CLI = join(process.cwd(), 'dist/cli.mjs');
const hooks = mkdtempSync(join(tmpdir(), 'recursa-cli-startup-'));
afterAll(() => rmSync(hooks, { recursive: true, force: true }));
writeFileSync(
  join(hooks, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.RECURSA_LOADED_LOG, result.url + '\\n');
  return result;
}
`,
);
writeFileSync(join(hooks, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(hooks, 'hooks.mjs')).href)});\n`);

interface Loaded {
  status: number | null;
  stdout: string;
  /** The files the run imported (entry included), as paths. */
  files: string[];
  /** Everything else it imported: `node:` builtins. */
  builtins: string[];
}

let runs = 0;
function loadedBy(args: string[], input?: string): Loaded {
  const log = join(hooks, `loaded-${runs++}.txt`);
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(join(hooks, 'register.mjs')).href, CLI, ...args], {
    input,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, RECURSA_LOADED_LOG: log },
  });
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  return {
    status: result.status,
    stdout: result.stdout,
    files: urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url)),
    builtins: urls.filter((url) => !url.startsWith('file:')),
  };
}

/** The longest stretch of `text` that a string literal would carry unescaped: proof that text was inlined. */
function marker(text: string): string {
  const runs = text.match(/[A-Za-z0-9_.,()=+]{40,}/g) ?? [];
  const longest = runs.reduce((best, run) => (run.length > best.length ? run : best), '');
  expect(longest.length).toBeGreaterThanOrEqual(40);
  return longest.slice(0, 80);
}

const workerMarker = marker(readFileSync('dist/sandbox-worker.js', 'utf8'));
/** From the tokenizer's rank table, as the bundles inline it. */
const ranksMarker = marker(await cl100kRanksSource());
const textOf = (files: string[]): string => files.map((file) => readFileSync(file, 'utf8')).join('\n');

describe('recursa --version and --help (dist/cli.mjs)', () => {
  for (const args of [['--version'], ['--help'], ['help', 'ask'], ['run', '--help']]) {
    it(`\`recursa ${args.join(' ')}\` loads no package and none of the commands' code`, () => {
      const loaded = loadedBy(args);
      expect(loaded.status).toBe(0);
      expect(loaded.stdout).toMatch(/recursa/);
      expect(loaded.files).toContain(CLI);
      // No isomorphic-git, js-tiktoken, ses, sucrase…: nothing from node_modules at all.
      expect(loaded.files.filter((file) => file.includes('node_modules'))).toEqual([]);
      expect(loaded.builtins.filter((url) => !url.startsWith('node:'))).toEqual([]);
      expect(loaded.builtins).not.toContain('node:worker_threads');
      const code = textOf(loaded.files);
      expect(code).not.toContain(workerMarker);
      expect(code).not.toContain(ranksMarker);
    });
  }
});

describe('a command (the check above can see what it looks for)', () => {
  const temp = useTempDir();

  it('`recursa run` loads the sandbox worker source, git and the tokenizer when it runs', () => {
    const loaded = loadedBy(['run', '--vault', temp.dir, '-'], 'return 1 + 1;');
    expect(loaded.status).toBe(0);
    expect(JSON.parse(loaded.stdout)).toMatchObject({ ok: true, value: 2 });
    expect(loaded.files.some((file) => file.includes(join('node_modules', 'isomorphic-git')))).toBe(true);
    expect(loaded.builtins).toContain('node:worker_threads');
    const code = textOf(loaded.files.filter((file) => !file.includes('node_modules')));
    expect(code).toContain(workerMarker);
    expect(code).toContain(ranksMarker);
  });
});
