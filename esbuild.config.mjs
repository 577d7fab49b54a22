// Builds the sandbox worker (dist/sandbox-worker.js), then the Obsidian plugin (main.js), the Node
// library (dist/recursa.mjs) and the command line (dist/cli.mjs), which all carry the worker inline.
//   node esbuild.config.mjs production   one minified build of both, then exit
//   node esbuild.config.mjs watch        rebuild both on every change (development)
//   node esbuild.config.mjs test         the worker, then the plugin in the browser test harness (tests/e2e/)
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import esbuild from 'esbuild';
import { chunkBoundaries, chunkedPlugin } from './scripts/chunked-plugin.mjs';
import { inlineCl100kRanks } from './scripts/cl100k-ranks.mjs';
import { bundledIsomorphicGit } from './scripts/bundled-isomorphic-git.mjs';
import { startedCommonJs } from './scripts/started-commonjs.mjs';

const mode = process.argv[2] ?? 'production';
if (mode !== 'production' && mode !== 'watch' && mode !== 'test') {
  console.error(`Unknown mode "${mode}"; use "production", "watch" or "test".`);
  process.exit(1);
}
const production = mode === 'production' || mode === 'test';

// ASCII only, as main.js must be (see scripts/chunked-plugin.mjs).
const banner = '/* Recursa - a git-native memory agent for Obsidian. Bundled; see the repository for sources. */';

const WORKER_FILE = 'dist/sandbox-worker.js';
/** Outside `dist/` (which is published): the harness is a test artifact. */
const HARNESS_FILE = 'node_modules/.cache/recursa-e2e/harness.js';

/**
 * The sandbox worker: one classic script for Web Workers and `worker_threads` alike. SES refuses to
 * initialise in sloppy mode, so "use strict" must open the file.
 */
const worker = {
  entryPoints: ['src/core/sandbox/worker/sandboxWorker.ts'],
  outfile: WORKER_FILE,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2021',
  banner: { js: '"use strict";' },
  logLevel: 'info',
  minify: production,
  treeShaking: true,
};

/** `import source from 'recursa:sandbox-worker'` is the built worker's text. */
const inlineWorker = {
  name: 'inline-sandbox-worker',
  setup(build) {
    build.onResolve({ filter: /^recursa:sandbox-worker$/ }, () => ({ path: WORKER_FILE, namespace: 'sandbox-worker' }));
    build.onLoad({ filter: /.*/, namespace: 'sandbox-worker' }, async () => ({
      contents: `export default ${JSON.stringify(await readFile(WORKER_FILE, 'utf8'))};`,
      loader: 'js',
      watchFiles: [WORKER_FILE],
    }));
  },
};

/** What the plugin and its browser test harness share: everything bundled except what Obsidian provides at runtime. */
const pluginBase = {
  bundle: true,
  platform: 'browser',
  // Obsidian's oldest supported desktop (Electron) and mobile WebViews run ES2021.
  target: 'es2021',
  // Node builtins are deliberately not external: the plugin runs on mobile, where there are
  // none, so importing one must fail the build rather than fail on a phone.
  external: ['obsidian', 'electron', '@codemirror/*', '@lezer/*'],
  // What the MCP SDK's server imports but the plugin's server never calls (~260 KB), and the check
  // of Sucrase's options, which the plugin always gives alike (~16 KB; see each file).
  alias: {
    ajv: './src/obsidian/mcp/noAjv.ts',
    'ajv-formats': './src/obsidian/mcp/noAjvFormats.ts',
    'zod-to-json-schema': './src/obsidian/mcp/noZodToJsonSchema.ts',
    'ts-interface-checker': './src/obsidian/noTsInterfaceChecker.ts',
    // isomorphic-git's synchronous SHA-1, without sha.js's helper packages and their start-up work.
    'sha.js/sha1.js': './src/core/git/sha1Stream.ts',
  },
  logLevel: 'info',
  minify: production,
  treeShaking: true,
};

/** CommonJS packages started in chunks of their own, before the chunks that import them (see scripts/started-commonjs.mjs). */
const STARTED_COMMONJS = ['pako', 'crc-32', 'async-lock', 'clean-git-ref', 'pify', 'ignore', 'diff3'];

/**
 * The plugin: one main.js that Obsidian evaluates as CommonJS, carrying the plugin in chunks that
 * are evaluated when first needed, each in a task of its own (see scripts/chunked-plugin.mjs).
 * The packages and modules named here get chunks of their own, so that no chunk is large.
 */
const plugin = {
  ...pluginBase,
  entryPoints: { main: 'src/main.ts', ...chunkBoundaries(['isomorphic-git', ...STARTED_COMMONJS, 'yaml', 'sucrase', 'zod', './src/core/graph/GraphIndex.ts', './src/core/agent/createAgentService.ts', './src/obsidian/bufferPolyfill.ts']) },
  outdir: 'node_modules/.cache/recursa-plugin',
  format: 'esm',
  splitting: true,
  chunkNames: '[name]-[hash]',
  write: false,
  metafile: true,
  // isomorphic-git without its copy of LGPL code, and with the Buffer polyfill; see the plugin's file.
  plugins: [inlineWorker, inlineCl100kRanks, bundledIsomorphicGit, startedCommonJs(STARTED_COMMONJS), chunkedPlugin({ outfile: 'main.js', entry: 'main.js', banner, minify: production, report: true })],
};

/** The Node library: an ES module over a real folder, with the same core. */
const library = {
  entryPoints: { recursa: 'src/node/index.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: banner },
  packages: 'external',
  plugins: [inlineWorker, inlineCl100kRanks],
  logLevel: 'info',
  sourcemap: production ? false : 'inline',
  minify: false,
  treeShaking: true,
};

/** Where the command line's code-split chunks go, inside the published `dist/`. */
const CLI_CHUNKS = 'dist/cli-chunks';

/**
 * `recursa run …`: the library's command line, an executable ES module. It is split: dist/cli.mjs
 * holds the argument parsing and help, and each command imports its modules (the sandbox, git,
 * the tokenizer) from CLI_CHUNKS when it runs, so `--version` and `--help` start quickly. (The
 * banner, shebang included, opens every chunk; a hashbang line is valid at the start of any module.)
 */
const cli = {
  ...library,
  entryPoints: { cli: 'src/node/cli.ts' },
  splitting: true,
  chunkNames: 'cli-chunks/[name]-[hash]',
  banner: { js: `#!/usr/bin/env node\n${banner}` },
};

/**
 * The test obsidian module in a browser page: its file system and `requestUrl` become the versions
 * that reach Node through the page bridge (`hostFs.browser.ts`, `requestUrl.browser.ts`).
 */
const browserHostModules = {
  name: 'browser-host-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\/(hostFs|requestUrl)$/ }, (args) =>
      args.importer.replaceAll('\\', '/').includes('/tests/helpers/obsidian/') ? { path: join(dirname(args.importer), `${args.path}.browser.ts`) } : undefined,
    );
  },
};

/**
 * The plugin in the browser test harness (tests/e2e/harness/): the same plugin build, with
 * `obsidian` aliased to the test module and everything bundled into one page script.
 */
const harness = {
  ...pluginBase,
  banner: { js: banner },
  entryPoints: ['tests/e2e/harness/entry.ts'],
  outfile: HARNESS_FILE,
  format: 'iife',
  external: [],
  alias: { obsidian: './tests/helpers/obsidian/index.ts' },
  plugins: [inlineWorker, inlineCl100kRanks, bundledIsomorphicGit, browserHostModules],
  sourcemap: 'inline',
  minify: false,
  logLevel: 'warning',
};

if (mode === 'test') {
  await esbuild.build(worker);
  await esbuild.build(harness);
} else if (production) {
  // Chunks of earlier builds would otherwise be published alongside the current ones.
  await rm(CLI_CHUNKS, { recursive: true, force: true });
  await esbuild.build(worker);
  await Promise.all([esbuild.build(plugin), esbuild.build(library), esbuild.build(cli)]);
} else {
  // The worker is built first so the others can inline it; they rebuild when it changes.
  const workerContext = await esbuild.context(worker);
  await workerContext.rebuild();
  const contexts = await Promise.all([esbuild.context(plugin), esbuild.context(library), esbuild.context(cli)]);
  await Promise.all([workerContext, ...contexts].map((context) => context.watch()));
}
