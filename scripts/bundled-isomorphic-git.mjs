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
// - It imports its CommonJS packages from one module, `recursa:isomorphic-git-dependencies`, which
//   esbuild.config.mjs makes a chunk of its own. esbuild starts a CommonJS package where it is first
//   imported: imported by the library, pako (its tables) and crc-32 (its table) started up in the
//   task that evaluates the library's chunk, the plugin's largest, which took over 100 ms on a
//   phone. Imported by that module, they start in a task of their own, before the library's.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const POSIX_JOIN = fileURLToPath(new URL('../src/core/git/posixJoin.ts', import.meta.url));
const BUFFER_POLYFILL = fileURLToPath(new URL('../src/obsidian/bufferPolyfill.ts', import.meta.url));
export const DEPENDENCIES = 'recursa:isomorphic-git-dependencies';
/** The packages isomorphic-git imports by their default export, by the name it gives each. */
const COMMONJS_IMPORTS = { AsyncLock: 'async-lock', cleanGitRef: 'clean-git-ref', crc32: 'crc-32', pako: 'pako', pify: 'pify', ignore: 'ignore', diff3Merge: 'diff3' };

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

/**
 * The library's module importing its CommonJS packages from `recursa:isomorphic-git-dependencies`,
 * which exports each under the name the library gives it.
 * @param {string} source
 * @returns {string}
 */
export function withDependenciesModule(source) {
  let rewritten = source;
  for (const [name, pkg] of Object.entries(COMMONJS_IMPORTS)) {
    const line = `import ${name} from '${pkg}';\n`;
    if (!rewritten.includes(line)) throw new Error(`isomorphic-git: \`${line.trim()}\` was not found; update scripts/bundled-isomorphic-git.mjs.`);
    rewritten = rewritten.replace(line, '');
  }
  const left = rewritten.match(/^import .+ from '(?!sha\.js\/)[^']+';$/m);
  if (left !== null) throw new Error(`isomorphic-git: \`${left[0]}\` is a new import; add it to scripts/bundled-isomorphic-git.mjs.`);
  return `import { ${Object.keys(COMMONJS_IMPORTS).join(', ')} } from ${JSON.stringify(DEPENDENCIES)};\n${rewritten}`;
}

/** @type {import('esbuild').Plugin} */
export const bundledIsomorphicGit = {
  name: 'bundled-isomorphic-git',
  setup(build) {
    build.onLoad({ filter: /[\\/]isomorphic-git[\\/]index\.js$/ }, async (args) => ({
      contents: withBufferImport(withDependenciesModule(withoutCopiedJoin(await readFile(args.path, 'utf8')))),
      loader: 'js',
    }));
    build.onResolve({ filter: new RegExp(`^${DEPENDENCIES}$`) }, () => ({ path: DEPENDENCIES, namespace: 'isomorphic-git-dependencies' }));
    build.onLoad({ filter: /.*/, namespace: 'isomorphic-git-dependencies' }, () => ({
      contents: `${Object.entries(COMMONJS_IMPORTS).map(([name, pkg]) => `import ${name} from '${pkg}';`).join('\n')}\nexport { ${Object.keys(COMMONJS_IMPORTS).join(', ')} };\n`,
      // The packages resolve as they do for the library.
      resolveDir: dirname(createRequire(import.meta.url).resolve('isomorphic-git')),
      loader: 'js',
    }));
  },
};
