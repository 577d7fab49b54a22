import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

/** `recursa:sandbox-worker` is the built worker's text, as in the bundles (`npm test` builds first). */
const inlineSandboxWorker: Plugin = {
  name: 'inline-sandbox-worker',
  resolveId: (id) => (id === 'recursa:sandbox-worker' ? '\0recursa:sandbox-worker' : null),
  load: (id) =>
    id === '\0recursa:sandbox-worker'
      ? `export default ${JSON.stringify(readFileSync(new URL('./dist/sandbox-worker.js', import.meta.url), 'utf8'))};`
      : null,
};

export default defineConfig({
  plugins: [inlineSandboxWorker],
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
