// Writes dist/recursa.d.ts: the library's type declarations (src/node/index.ts and everything it
// exports) bundled into one self-contained file, so `import … from 'recursa'` is typed. Run by
// `npm run build` after esbuild; tests/integration/library-types.test.ts type-checks a consumer
// against it.
//
// tsconfig.types.json is the project's config plus the ambient `recursa:sandbox-worker` and
// `recursa:cl100k-ranks` modules and pako's zlib files (dts-bundle-generator compiles only the
// entry, so the ambient files must come in through `types`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUTPUT = 'dist/recursa.d.ts';

const started = Date.now();
// Types the exports' signatures use but index.ts does not name (`JsonValue`, `SandboxWorker`…) are
// exported too (the tool's default), so a user can name what the functions take and return.
const [declarations] = generateDtsBundle([{ filePath: `${ROOT}src/node/index.ts`, output: { noBanner: true } }], {
  preferredConfigPath: `${ROOT}tsconfig.types.json`,
});

// Published declarations may import only what a user installs with the package: its runtime
// dependencies. Anything else (a source path, a dev dependency) would leave a consumer's types broken.
const { dependencies = {} } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'));
const specifiers = [
  ...declarations.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g),
  ...declarations.matchAll(/\/\/\/\s*<reference\s+(?:types|path)\s*=\s*["']([^"']+)["']/g),
].map((match) => match[1]);
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const foreign = specifiers.filter((specifier) => specifier.startsWith('.') || !(packageOf(specifier) in dependencies));
if (foreign.length > 0) {
  console.error(`${OUTPUT} would import what a user of the package does not have: ${[...new Set(foreign)].join(', ')}`);
  process.exit(1);
}

mkdirSync(`${ROOT}dist`, { recursive: true });
writeFileSync(
  `${ROOT}${OUTPUT}`,
  `/* Recursa — a git-native memory agent for Obsidian. Type declarations of the Node library (dist/recursa.mjs), generated from its sources. */\n\n${declarations}`,
);
console.log(`${OUTPUT} written in ${Date.now() - started} ms`);
