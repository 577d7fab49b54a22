// The `recursa:cl100k-ranks` module: js-tiktoken's cl100k_base rank table (about 1.1 MB of
// JavaScript, most of main.js were it bundled as it is) as raw deflate, level 9, in base64
// (about 0.67 MB). src/core/tokens/countTokens.ts inflates and parses it on first use.
//
// One generator for every build that sees the module, so the bundles (esbuild.config.mjs), the
// core check (check-core.mjs) and the tests (vitest.config.ts) carry the same bytes.
import { createRequire } from 'node:module';
import { deflateRawSync } from 'node:zlib';

export const CL100K_RANKS_ID = 'recursa:cl100k-ranks';

const require = createRequire(import.meta.url);
/** The rank table's file, for watch mode. */
export const CL100K_RANKS_FILE = require.resolve('js-tiktoken/ranks/cl100k_base');

/** @type {Promise<string> | undefined} */
let source;

/**
 * The module's JavaScript: `export default "<base64 of the raw-deflated JSON of the ranks>";`.
 * Generated once per process (the builds run side by side).
 * @returns {Promise<string>}
 */
export function cl100kRanksSource() {
  source ??= import('js-tiktoken/ranks/cl100k_base').then(({ default: ranks }) => {
    const compressed = deflateRawSync(JSON.stringify(ranks), { level: 9 }).toString('base64');
    return `export default ${JSON.stringify(compressed)};\n`;
  });
  return source;
}

/**
 * The esbuild side: `import ranks from 'recursa:cl100k-ranks'` resolves to the generated module.
 * @type {import('esbuild').Plugin}
 */
export const inlineCl100kRanks = {
  name: 'inline-cl100k-ranks',
  setup(build) {
    build.onResolve({ filter: /^recursa:cl100k-ranks$/ }, () => ({ path: CL100K_RANKS_ID, namespace: 'cl100k-ranks' }));
    build.onLoad({ filter: /.*/, namespace: 'cl100k-ranks' }, async () => ({
      contents: await cl100kRanksSource(),
      loader: 'js',
      watchFiles: [CL100K_RANKS_FILE],
    }));
  },
};
