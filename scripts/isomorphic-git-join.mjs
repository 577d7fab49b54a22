// isomorphic-git (MIT) carries a `path.join` that, by its own comment, is copied from @zenfs/core
// under LGPL-3.0-or-later. The plugin bundles isomorphic-git into main.js, which is MIT, so this
// plugin cuts that copy out of the library's module and puts Recursa's own `posixJoin`
// (src/core/git/posixJoin.ts) in its place. The Node library and the command line keep
// isomorphic-git an external dependency and bundle none of it.
//
// The build fails when the copy is not found where expected, so a new isomorphic-git release that
// moves or changes it is looked at again rather than shipped unnoticed.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const POSIX_JOIN = fileURLToPath(new URL('../src/core/git/posixJoin.ts', import.meta.url));

/** From the comment that names the copied code to the end of `function join`, the last of it. */
const COPIED_JOIN = /\/\*!(?:(?!\*\/)[^])*@zenfs\/core(?:(?!\*\/)[^])*\*\/[^]*?\nfunction join\(\.\.\.args\) \{\n[^]*?\n\}\n/;

/**
 * The library's module with its `join` replaced by an import of `posixJoin` under that name.
 * @param {string} source
 * @returns {string}
 */
export function withoutCopiedJoin(source) {
  const found = source.match(COPIED_JOIN);
  if (found === null) throw new Error('isomorphic-git: the path.join copied from @zenfs/core was not found; check the new release\'s licences and update scripts/isomorphic-git-join.mjs.');
  const rest = source.replace(COPIED_JOIN, '');
  if (/\bnormalizeString\(|\bgetWindowsDrivePrefix\(|[^.\w]normalize\(/.test(rest)) throw new Error('isomorphic-git: code outside path.join uses the helpers copied from @zenfs/core; update scripts/isomorphic-git-join.mjs.');
  return `import { posixJoin as join } from ${JSON.stringify(POSIX_JOIN)};\n${rest}`;
}

/** @type {import('esbuild').Plugin} */
export const ownPathJoin = {
  name: 'isomorphic-git-own-path-join',
  setup(build) {
    build.onLoad({ filter: /[\\/]isomorphic-git[\\/]index\.js$/ }, async (args) => ({
      contents: withoutCopiedJoin(await readFile(args.path, 'utf8')),
      loader: 'js',
    }));
  },
};
