// Builds the sandbox worker (dist/sandbox-worker.js), then the Obsidian plugin (main.js), the Node
// library (dist/recursa.mjs) and the command line (dist/cli.mjs), which all carry the worker inline.
//   node esbuild.config.mjs production   one minified build of both, then exit
//   node esbuild.config.mjs watch        rebuild both on every change (development)
import { readFile } from 'node:fs/promises';
import esbuild from 'esbuild';

const mode = process.argv[2] ?? 'production';
if (mode !== 'production' && mode !== 'watch') {
  console.error(`Unknown mode "${mode}"; use "production" or "watch".`);
  process.exit(1);
}
const production = mode === 'production';

const banner = '/* Recursa — a git-native memory agent for Obsidian. Bundled; see the repository for sources. */';

const WORKER_FILE = 'dist/sandbox-worker.js';

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

/** The plugin: CommonJS, everything bundled except what Obsidian provides at runtime. */
const plugin = {
  entryPoints: ['src/main.ts'],
  outfile: 'main.js',
  bundle: true,
  format: 'cjs',
  platform: 'browser',
  // Obsidian's oldest supported desktop (Electron) and mobile WebViews run ES2021.
  target: 'es2021',
  banner: { js: banner },
  // Node builtins are deliberately not external: the plugin runs on mobile, where there are
  // none, so importing one must fail the build rather than fail on a phone.
  external: ['obsidian', 'electron', '@codemirror/*', '@lezer/*'],
  // isomorphic-git uses the global `Buffer`, which mobile lacks.
  inject: ['src/obsidian/bufferGlobal.ts'],
  plugins: [inlineWorker],
  logLevel: 'info',
  sourcemap: production ? false : 'inline',
  minify: production,
  treeShaking: true,
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
  plugins: [inlineWorker],
  logLevel: 'info',
  sourcemap: production ? false : 'inline',
  minify: false,
  treeShaking: true,
};

/** `recursa run …`: the library's command line, an executable ES module. */
const cli = {
  ...library,
  entryPoints: { cli: 'src/node/cli.ts' },
  banner: { js: `#!/usr/bin/env node\n${banner}` },
};

if (production) {
  await esbuild.build(worker);
  await Promise.all([esbuild.build(plugin), esbuild.build(library), esbuild.build(cli)]);
} else {
  // The worker is built first so the others can inline it; they rebuild when it changes.
  const workerContext = await esbuild.context(worker);
  await workerContext.rebuild();
  const contexts = await Promise.all([esbuild.context(plugin), esbuild.context(library), esbuild.context(cli)]);
  await Promise.all([workerContext, ...contexts].map((context) => context.watch()));
}
