import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import esbuild, { type Plugin } from 'esbuild';
import { inlineCl100kRanks } from '../../scripts/cl100k-ranks.mjs';
import { CLI } from './cliProcess';

/** Where the stand-in is built: under node_modules, so the SDK and other packages resolve from it. */
const OUT_DIR = join(process.cwd(), 'node_modules/.cache/recursa-mcp-test');
const WORKER_FILE = join(process.cwd(), 'dist/sandbox-worker.js');

let command: Promise<string[]> | null = null;

/**
 * How to start `recursa mcp`: the built command line when it has the command, else a bundle of
 * `mcpEntry.ts` (built once per test file; `node esbuild.config.mjs production` must have built
 * the sandbox worker). Arguments follow.
 */
export function mcpCommandLine(): Promise<string[]> {
  command ??= resolveCommand();
  return command;
}

async function resolveCommand(): Promise<string[]> {
  const help = (() => {
    try {
      return execFileSync(process.execPath, [CLI, 'help', 'mcp'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return '';
    }
  })();
  if (help.includes('--bridge')) return [CLI, 'mcp'];
  const outfile = join(OUT_DIR, `mcp-${process.pid}-${Date.now().toString(36)}.mjs`);
  const inlineWorker: Plugin = {
    name: 'inline-sandbox-worker',
    setup(build) {
      build.onResolve({ filter: /^recursa:sandbox-worker$/ }, () => ({ path: WORKER_FILE, namespace: 'sandbox-worker' }));
      build.onLoad({ filter: /.*/, namespace: 'sandbox-worker' }, async () => ({ contents: `export default ${JSON.stringify(await readFile(WORKER_FILE, 'utf8'))};`, loader: 'js' }));
    },
  };
  await esbuild.build({
    entryPoints: ['tests/helpers/mcpEntry.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [inlineWorker, inlineCl100kRanks],
    logLevel: 'silent',
  });
  return [outfile];
}
