// Proves that src/core runs where the plugin does (mobile WebViews, Workers): it must bundle for
// the browser with no Node builtins and no `obsidian` import available.
import { readdir } from 'node:fs/promises';
import esbuild from 'esbuild';
import { inlineCl100kRanks } from './cl100k-ranks.mjs';

const entries = (await readdir('src/core', { recursive: true }))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `src/core/${file.replaceAll('\\', '/')}`);

const result = await esbuild.build({
  entryPoints: entries,
  bundle: true,
  write: false,
  outdir: 'out',
  platform: 'browser',
  format: 'esm',
  // The tokenizer's table is generated data the bundles inline (scripts/cl100k-ranks.mjs).
  plugins: [inlineCl100kRanks],
  logLevel: 'silent',
}).catch((error) => error);

if (result instanceof Error) {
  for (const message of result.errors ?? [{ text: result.message }]) {
    const where = message.location ? `${message.location.file}:${message.location.line}: ` : '';
    console.error(`${where}${message.text}`);
  }
  console.error('src/core must bundle for the browser without Node builtins or obsidian.');
  process.exit(1);
}
console.log(`src/core: ${entries.length} modules bundle for the browser with no Node builtins or obsidian.`);
