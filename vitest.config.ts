import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { CL100K_RANKS_ID, cl100kRanksSource } from './scripts/cl100k-ranks.mjs';

/** `recursa:sandbox-worker` is the built worker's text, as in the bundles (`npm test` builds first). */
const inlineSandboxWorker: Plugin = {
  name: 'inline-sandbox-worker',
  resolveId: (id) => (id === 'recursa:sandbox-worker' ? '\0recursa:sandbox-worker' : null),
  load: (id) =>
    id === '\0recursa:sandbox-worker'
      ? `export default ${JSON.stringify(readFileSync(new URL('./dist/sandbox-worker.js', import.meta.url), 'utf8'))};`
      : null,
};

/** `recursa:cl100k-ranks` is the compressed tokenizer table, from the generator the bundles use. */
const inlineCl100kRanks: Plugin = {
  name: 'inline-cl100k-ranks',
  resolveId: (id) => (id === CL100K_RANKS_ID ? `\0${CL100K_RANKS_ID}` : null),
  load: (id) => (id === `\0${CL100K_RANKS_ID}` ? cl100kRanksSource() : null),
};

export default defineConfig({
  plugins: [inlineSandboxWorker, inlineCl100kRanks],
  resolve: {
    alias: {
      // The plugin's Obsidian code runs against a test implementation of the `obsidian` module,
      // backed by a real folder and type-checked against the official declarations.
      obsidian: fileURLToPath(new URL('./tests/helpers/obsidian/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
