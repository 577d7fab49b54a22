import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
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
