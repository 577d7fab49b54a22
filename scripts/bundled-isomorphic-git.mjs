// isomorphic-git as the plugin bundles it (the Node library and the command line keep it an external
// dependency and bundle none of it). Two changes to the library's module:
//
// - It carries a `path.join` that, by its own comment, is copied from @zenfs/core under
//   LGPL-3.0-or-later. main.js is MIT, so the copy is cut out and Recursa's own `posixJoin`
//   (src/core/git/posixJoin.ts) put in its place. The build fails when the copy is not found where
//   expected, so a new isomorphic-git release that moves or changes it is looked at again rather
//   than shipped unnoticed.
// - It names the global `Buffer`, which Obsidian's mobile WebViews lack: the module imports the npm
//   polyfill instead. (A global inject would give every chunk of main.js the polyfill to start up.)
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const POSIX_JOIN = fileURLToPath(new URL('../src/core/git/posixJoin.ts', import.meta.url));
const BUFFER_POLYFILL = fileURLToPath(new URL('../src/obsidian/bufferPolyfill.ts', import.meta.url));

/** From the comment that names the copied code to the end of `function join`, the last of it. */
const COPIED_JOIN = /\/\*!(?:(?!\*\/)[^])*@zenfs\/core(?:(?!\*\/)[^])*\*\/[^]*?\nfunction join\(\.\.\.args\) \{\n[^]*?\n\}\n/;

/**
 * The library's module with its `join` replaced by an import of `posixJoin` under that name.
 * @param {string} source
 * @returns {string}
 */
export function withoutCopiedJoin(source) {
  const found = source.match(COPIED_JOIN);
  if (found === null) throw new Error('isomorphic-git: the path.join copied from @zenfs/core was not found; check the new release\'s licences and update scripts/bundled-isomorphic-git.mjs.');
  const rest = source.replace(COPIED_JOIN, '');
  if (/\bnormalizeString\(|\bgetWindowsDrivePrefix\(|[^.\w]normalize\(/.test(rest)) throw new Error('isomorphic-git: code outside path.join uses the helpers copied from @zenfs/core; update scripts/bundled-isomorphic-git.mjs.');
  return `import { posixJoin as join } from ${JSON.stringify(POSIX_JOIN)};\n${rest}`;
}

/**
 * The library's module importing the `buffer` package's `Buffer` (src/obsidian/bufferPolyfill.ts)
 * for the global it names.
 * @param {string} source
 * @returns {string}
 */
export function withBufferImport(source) {
  if (/\b(?:var|let|const|function|class)\s+Buffer\b/.test(source)) throw new Error('isomorphic-git declares its own Buffer; update scripts/bundled-isomorphic-git.mjs.');
  return `import { Buffer } from ${JSON.stringify(BUFFER_POLYFILL)};\n${source}`;
}

/** @type {import('esbuild').Plugin} */
export const bundledIsomorphicGit = {
  name: 'bundled-isomorphic-git',
  setup(build) {
    build.onLoad({ filter: /[\\/]isomorphic-git[\\/]index\.js$/ }, async (args) => ({
      contents: withBufferImport(withoutCopiedJoin(await readFile(args.path, 'utf8'))),
      loader: 'js',
    }));
  },
};
