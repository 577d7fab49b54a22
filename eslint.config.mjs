import { builtinModules } from 'node:module';
import { defineConfig, globalIgnores } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import globals from 'globals';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default defineConfig([
  globalIgnores(['node_modules/', 'main.js', 'dist/', 'coverage/', 'tests/bench/results/']),
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.mjs', 'scripts/*.mjs', 'tests/bench/*.mjs', 'tests/helpers/*.mjs'],
          // Every loose .mjs (build config, scripts, benchmarks) is type-checked through the default project.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 32,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    // Core runs on mobile and inside Workers: no Obsidian, no Node.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'obsidian', message: 'src/core must not depend on Obsidian; use a port.' },
            ...nodeBuiltins.map((name) => ({ name, message: 'src/core must not use Node builtins; it runs on mobile.' })),
          ],
          patterns: [
            { group: ['**/obsidian/**', '**/node/**', '**/main'], message: 'Dependencies point one way: core <- adapters.' },
          ],
        },
      ],
      // There is no `window` in a Worker or in Node; popout windows are the UI's concern, not core's.
      'obsidianmd/prefer-window-timers': 'off',
    },
  },
  {
    // Code shared by the command line and Obsidian desktop: it names Node's modules in types only
    // and is handed the modules by its callers (tests/integration/source-layout.test.ts holds it to that).
    files: ['src/desktop/**/*.ts'],
    rules: { 'obsidianmd/no-nodejs-modules': 'off' },
  },
  {
    // Node-only code: the headless runtime, tests, build scripts.
    files: ['src/node/**/*.ts', 'tests/**/*.ts', 'tests/**/*.mjs', 'scripts/**/*.mjs', '*.mjs', '*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'obsidianmd/no-nodejs-modules': 'off',
      'import/no-extraneous-dependencies': 'off',
      'no-console': 'off',
      'obsidianmd/rule-custom-message': 'off',
      'obsidianmd/prefer-window-timers': 'off',
      'obsidianmd/no-global-this': 'off',
    },
  },
  {
    // The one place in src the default config folder is named: the default for hosts without a
    // Vault (the Node runtime); the plugin passes `vault.configDir`. Tests name it to prove it is
    // protected; the install script takes it as an argument with Obsidian's default.
    files: ['tests/**/*.ts', 'tests/**/*.mjs', 'scripts/**/*.mjs', 'src/core/paths/pathPolicy.ts'],
    rules: { 'obsidianmd/hardcoded-config-path': 'off' },
  },
]);
