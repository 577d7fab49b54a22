// Times the plugin's `onload` in the browser harness (target: under 30 ms), beside Obsidian's
// sample plugin and an empty plugin loaded the same way in the same page.
//   node tests/bench/plugin-onload.bench.mjs      writes tests/bench/results/plugin-onload.json
// The page driver is TypeScript (it reuses the e2e harness): it is bundled here first.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { comparisonTable, median, percentile } from './benchTools.mjs';

const TARGET_MS = 30;
const root = fileURLToPath(new URL('../..', import.meta.url));
execFileSync(process.execPath, ['esbuild.config.mjs', 'test'], { cwd: root, stdio: 'inherit' });
await build({
  entryPoints: [join(root, 'tests/bench/pluginOnload.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: join(root, 'node_modules/.cache/recursa-bench/pluginOnload.mjs'),
  logLevel: 'warning',
});
const { benchPluginOnload, EMPTY_BATCH, ROUNDS, WARMUP } = await import('../../node_modules/.cache/recursa-bench/pluginOnload.mjs');
const samples = await benchPluginOnload();

const table = comparisonTable();
table.compare('plugin onload, p50', median(samples.recursa), TARGET_MS, median(samples.sample), "Obsidian's sample plugin onload, p50");
table.compare('plugin onload, p95', percentile(samples.recursa, 0.95), TARGET_MS, percentile(samples.sample, 0.95), "Obsidian's sample plugin onload, p95");
console.log(`\nPlugin onload in headless Chromium (${ROUNDS} rounds after ${WARMUP} warm-up, demo vault, layout not ready)\n`);
table.print();
// Loading a plugin that does nothing costs next to nothing: the ratio to it says only that.
const empty = median(samples.empty);
const ratio = empty > 0 ? `${Math.round(median(samples.recursa) / empty)}×` : 'not measurable (below the page clock)';
console.log(`\nEmpty plugin onload, p50: ${(empty * 1000).toFixed(2)} µs per load (timed over ${EMPTY_BATCH} loads); ours / empty = ${ratio}.`);

mkdirSync(join(root, 'tests/bench/results'), { recursive: true });
writeFileSync(join(root, 'tests/bench/results/plugin-onload.json'), `${JSON.stringify({ date: new Date().toISOString(), targetMs: TARGET_MS, samples }, null, 2)}\n`);
