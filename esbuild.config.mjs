// Builds the Obsidian plugin (main.js) and the Node library (dist/recursa.mjs).
//   node esbuild.config.mjs production   one minified build of both, then exit
//   node esbuild.config.mjs watch        rebuild both on every change (development)
import esbuild from 'esbuild';

const mode = process.argv[2] ?? 'production';
if (mode !== 'production' && mode !== 'watch') {
  console.error(`Unknown mode "${mode}"; use "production" or "watch".`);
  process.exit(1);
}
const production = mode === 'production';

const banner = '/* Recursa — a git-native memory agent for Obsidian. Bundled; see the repository for sources. */';

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
  logLevel: 'info',
  sourcemap: production ? false : 'inline',
  minify: false,
  treeShaking: true,
};

if (production) {
  await Promise.all([esbuild.build(plugin), esbuild.build(library)]);
} else {
  const contexts = await Promise.all([esbuild.context(plugin), esbuild.context(library)]);
  await Promise.all(contexts.map((context) => context.watch()));
}
