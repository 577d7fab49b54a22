// The `recursa:cl100k-ranks` module: js-tiktoken's cl100k_base rank table (about 1.1 MB of
// JavaScript, most of main.js were it bundled as it is) as raw deflate, level 9, in Z85 (about
// 0.61 MB; base64 would be 0.65 MB, and Z85 needs no escaping in a string literal either).
// src/core/tokens/countTokens.ts decodes, inflates and parses it on first use.
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

// The alphabet of src/core/text/z85.ts, which decodes; tests/unit/core/text/z85.test.ts round-trips
// bytes through both.
const Z85_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';

/**
 * Z85 (ZeroMQ RFC 32) of `bytes`, padded with zero bytes to a multiple of four.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function z85Encode(bytes) {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let text = '';
  for (let at = 0; at < padded.length; at += 4) {
    let value = view.getUint32(at);
    let group = '';
    for (let i = 0; i < 5; i++) {
      group = Z85_ALPHABET[value % 85] + group;
      value = Math.floor(value / 85);
    }
    text += group;
  }
  return text;
}

/**
 * The module's JavaScript: `export default { byteLength, z85 }`, the raw-deflated JSON of the
 * ranks in Z85 and its length in bytes before padding. Generated once per process (the builds run
 * side by side).
 * @returns {Promise<string>}
 */
export function cl100kRanksSource() {
  source ??= import('js-tiktoken/ranks/cl100k_base').then(({ default: ranks }) => {
    const compressed = deflateRawSync(JSON.stringify(ranks), { level: 9 });
    return `export default { byteLength: ${compressed.length}, z85: ${JSON.stringify(z85Encode(compressed))} };\n`;
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
