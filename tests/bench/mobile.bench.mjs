// Recursa at phone speed: the BUILT main.js on the mobile harness (headless Chromium, the fake
// mobile `obsidian` module, files in IndexedDB, no Node), with Chromium's CPU throttling at 4×
// beside the same run unthrottled (the anchor: ratios are throttled / unthrottled). At 1k and 10k
// notes: main.js evaluated, the plugin's load and first snapshot, a one-file agent commit, the index
// build, search (p95), a sandbox cold start; long tasks on the page's main thread while main.js is
// evaluated and from the plugin's load on (PerformanceObserver); at 10k
// notes the peak JS heap, and the heap after disabling the plugin against before loading it.
//   npm run build && node tests/bench/mobile.bench.mjs    writes tests/bench/results/mobile.json
// The harness is TypeScript (tests/helpers/mobile/): it is bundled here first. The bundle sits
// three folders below the repository, as the harness's own file does, so its paths resolve alike.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { comparisonTable, median, percentile } from './benchTools.mjs';
import { generateVault } from './generateVault.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
if (!existsSync(join(root, 'main.js'))) throw new Error('main.js is missing: run `npm run build` first.');
const bundle = join(root, 'node_modules/.cache/recursa-bench/mobileHarness.mjs');
await build({
  entryPoints: [join(root, 'tests/helpers/mobile/mobileHarness.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  outfile: bundle,
  logLevel: 'warning',
});
const { MobileHarness, pluginSettingsFile } = await import('../../node_modules/.cache/recursa-bench/mobileHarness.mjs');

/** The targets, at 4× throttling and 10k notes. */
const TARGETS = { commitMs: 300, searchP95Ms: 100, longestTaskMs: 100, peakHeapMb: 150, heapAfterDisableRatio: 1.1 };
const SIZES = [1_000, 10_000];
const RATES = [1, 4];
const COMMITS = 5;
const SEARCHES = 40;
const COLD_STARTS = 5;
const MB = 1024 * 1024;

/** Long tasks since `since` on the page clock: the longest, and how many passed 100 ms. */
async function longTasksSince(harness, since) {
  const { now, tasks } = await harness.call((mobile, from) => mobile.longTasks(from), since);
  return { now, longest: Math.max(0, ...tasks.map((task) => task.duration)), over100: tasks.filter((task) => task.duration > 100).length };
}

/**
 * Samples the page's JS heap every `everyMs` through CDP; `stop()` returns the peak in bytes.
 * `between(work)` runs a timed operation with the sampler paused, sampling just before and just
 * after it: each sample is a call the page's main thread answers, and one landing inside a
 * one-file commit added to its time (commits allocate under a megabyte, so the peak is not missed).
 */
async function heapSampler(harness, everyMs = 100) {
  const session = await harness.cdp();
  await session.send('Performance.enable');
  let peak = 0;
  let pending = Promise.resolve();
  const sample = async () => {
    const { metrics } = await session.send('Performance.getMetrics');
    peak = Math.max(peak, metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0);
  };
  const tick = () => (pending = pending.then(sample).catch(() => undefined));
  let timer = setInterval(tick, everyMs);
  const pause = async () => {
    clearInterval(timer);
    await pending;
    await sample();
  };
  return {
    async between(work) {
      await pause();
      try {
        return await work();
      } finally {
        await sample();
        timer = setInterval(tick, everyMs);
      }
    },
    async stop() {
      await pause();
      return peak;
    },
  };
}

/** One run on a fresh page: `notes` notes at CPU throttling `rate`. */
async function runOnce(vaultDir, files, notes, rate) {
  const harness = await MobileHarness.open({ vaultName: `Bench ${notes} ${rate}x` });
  try {
    await harness.seedFromFolder(vaultDir);
    const settings = pluginSettingsFile('http://127.0.0.1:9/v1');
    await harness.seedFiles({ [settings.path]: settings.text });
    await harness.start();
    // "Before" is the page with the vault open and no plugin; main.js is evaluated (not loaded) only
    // to see what its code alone holds. Disabling lets go of the module, as Obsidian does.
    await harness.call((mobile, name) => mobile.forgetChanges(name), harness.vaultName);
    const entriesBefore = await harness.call((mobile, name) => mobile.storeEntryCount(name), harness.vaultName);
    const heapBefore = await harness.heapUsed(true);
    // Obsidian evaluates main.js in one go on the main thread before it calls `onload`: parsing,
    // compiling and the modules' top-level code, at the run's speed.
    await harness.throttleCpu(rate);
    const { now: evaluateStart } = await longTasksSince(harness, Infinity);
    const evaluateMs = await harness.call(async (mobile) => {
      const started = performance.now();
      await mobile.evaluateMainJs();
      return performance.now() - started;
    }, null);
    const evaluation = await longTasksSince(harness, evaluateStart);
    const heapWithCode = await harness.heapUsed(true);
    const sampler = await heapSampler(harness);
    const { now: loadStart } = await longTasksSince(harness, Infinity);

    // The plugin's load and first snapshot, then the background index build.
    const snapshotMs = await harness.call(async (mobile) => {
      const started = performance.now();
      await mobile.loadPlugin(600_000);
      await mobile.whenSnapshotDone();
      return performance.now() - started;
    }, null);
    await harness.call((mobile) => mobile.whenIndexBuilt(), null);
    await harness.call((mobile) => mobile.whenGitIdle(), null);
    const startup = await longTasksSince(harness, loadStart);

    // What the agent does once the vault is open: commit one file, search, start the sandbox.
    const commitMs = [];
    const writeAndCommitMs = [];
    for (let i = 0; i < COMMITS; i++) {
      const path = files[(i * 7919) % files.length];
      const times = await sampler.between(() =>
        harness.call(
          async (mobile, { note, n }) => {
            const started = performance.now();
            const text = await mobile.mem('readFile', note);
            await mobile.mem('updateFile', note, text, `${text}\n- [ ] Bench task ${n}\n`);
            const committing = performance.now();
            await mobile.mem('commitChanges', `Bench: add a task to ${note}`);
            return { commit: performance.now() - committing, total: performance.now() - started };
          },
          { note: path, n: i },
        ),
      );
      commitMs.push(times.commit);
      writeAndCommitMs.push(times.total);
    }
    const searchMs = [];
    for (let i = 0; i < SEARCHES; i++) {
      const title = files[(i * 104_729) % files.length].split('/').pop().replace(/\.md$/, '');
      searchMs.push(await sampler.between(() => harness.call((mobile, query) => mobile.timeMem('search', query, { limit: 10 }), title)));
    }
    const interactive = await longTasksSince(harness, startup.now);
    const indexMs = await harness.call((mobile) => mobile.timeIndexRebuild(), null);
    const coldStartMs = [];
    for (let i = 0; i < COLD_STARTS; i++) coldStartMs.push(await harness.call((mobile) => mobile.timeSandboxColdStart(), null));
    const overall = await longTasksSince(harness, loadStart);
    const peakHeap = await sampler.stop();

    // Disabling the plugin gives back what it held (the page's own store table stays).
    await harness.throttleCpu(1);
    await harness.unloadPlugin();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The export's change list is the harness's, not the plugin's: dropped before measuring.
    await harness.call((mobile, name) => mobile.forgetChanges(name), harness.vaultName);
    const entriesAfter = await harness.call((mobile, name) => mobile.storeEntryCount(name), harness.vaultName);
    const heapAfter = await harness.heapUsed(true);
    if (harness.pageErrors.length > 0) throw new Error(`the page failed: ${harness.pageErrors.join('; ')}`);
    return {
      notes,
      rate,
      evaluateMs,
      snapshotMs,
      commitMs,
      writeAndCommitMs,
      searchMs,
      indexMs,
      coldStartMs,
      longTasks: { evaluation, startup, interactive, overall },
      heap: { beforeLoad: heapBefore, withCode: heapWithCode, peak: peakHeap, afterDisable: heapAfter },
      storeEntries: { before: entriesBefore, after: entriesAfter },
    };
  } finally {
    await harness.close();
  }
}

const runs = [];
for (const notes of SIZES) {
  const dir = await mkdtemp(join(tmpdir(), `recursa-mobile-bench-${notes}-`));
  try {
    const { files } = await generateVault(dir, { notes, seed: 42 });
    for (const rate of RATES) {
      const started = Date.now();
      const run = await runOnce(dir, files, notes, rate);
      runs.push(run);
      console.error(`${notes} notes at ${rate}×: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const find = (notes, rate) => runs.find((run) => run.notes === notes && run.rate === rate);
const table = comparisonTable();
const anchor = '1× (unthrottled)';
for (const notes of SIZES) {
  const fast = find(notes, 1);
  const slow = find(notes, 4);
  const at10k = notes === 10_000;
  const label = `${notes / 1000}k`;
  table.compare(`${label}: main.js evaluated (parse, compile, top-level code), 4×`, slow.evaluateMs, null, fast.evaluateMs, anchor);
  table.compare(`${label}: plugin load + first snapshot, 4×`, slow.snapshotMs, null, fast.snapshotMs, anchor);
  table.compare(`${label}: one-file agent commit (commitChanges), p50, 4×`, median(slow.commitMs), at10k ? TARGETS.commitMs : null, median(fast.commitMs), anchor);
  table.compare(`${label}: one-file agent commit, max of ${COMMITS}, 4×`, Math.max(...slow.commitMs), at10k ? TARGETS.commitMs : null, Math.max(...fast.commitMs), anchor);
  table.compare(`${label}: readFile + updateFile + commitChanges, p50, 4×`, median(slow.writeAndCommitMs), null, median(fast.writeAndCommitMs), anchor);
  table.compare(`${label}: index build (full rebuild), 4×`, slow.indexMs, null, fast.indexMs, anchor);
  table.compare(`${label}: search, p95 of ${SEARCHES}, 4×`, percentile(slow.searchMs, 0.95), at10k ? TARGETS.searchP95Ms : null, percentile(fast.searchMs, 0.95), anchor);
  table.compare(`${label}: sandbox cold start, p50 of ${COLD_STARTS}, 4×`, median(slow.coldStartMs), null, median(fast.coldStartMs), anchor);
  // A long task is one of 50 ms or more: with none at 1×, there is nothing to divide by.
  const longest = (name, slowMs, fastMs) => table.compare(name, slowMs, at10k ? TARGETS.longestTaskMs : null, fastMs > 0 ? fastMs : null, fastMs > 0 ? anchor : '1×: no task ≥ 50 ms');
  longest(`${label}: longest main-thread task while main.js is evaluated, 4×`, slow.longTasks.evaluation.longest, fast.longTasks.evaluation.longest);
  longest(`${label}: longest main-thread task while working (commit, search), 4×`, slow.longTasks.interactive.longest, fast.longTasks.interactive.longest);
  longest(`${label}: longest main-thread task from the plugin's load on (load, snapshot, index), 4×`, slow.longTasks.overall.longest, fast.longTasks.overall.longest);
}
console.log('\nRecursa on the mobile harness: built main.js in headless Chromium, files in IndexedDB, no Node; 4× CPU throttling (CDP) against unthrottled\n');
table.print();

// The store's in-memory table of entries (the harness's file system: on a phone it is not in the
// JS heap) grows with the files the plugin wrote (git objects, the index cache). Its cost per
// entry is measured here from the two vault sizes, and taken out of the "after" figure beside it.
const small = find(SIZES[0], 1);
const large = find(SIZES[1], 1);
const bytesPerEntry = (large.heap.beforeLoad - small.heap.beforeLoad) / (large.storeEntries.before - small.storeEntries.before);
const afterLessStore = (run) => run.heap.afterDisable - bytesPerEntry * (run.storeEntries.after - run.storeEntries.before);
console.log('\n| run | long tasks > 100 ms (startup / working / total) | longest (ms) | peak JS heap (MB) | heap before (MB) | with main.js evaluated, not loaded (MB) | after disabling (MB) | after / before | store entries before → after | after less the store table\'s growth / before |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const run of runs) {
  const { startup, interactive, overall } = run.longTasks;
  const { beforeLoad, withCode, peak, afterDisable } = run.heap;
  console.log(
    `| ${run.notes / 1000}k, ${run.rate}× | ${startup.over100} / ${interactive.over100} / ${overall.over100} | ${overall.longest.toFixed(0)} | ${(peak / MB).toFixed(1)} | ${(beforeLoad / MB).toFixed(1)} | ${(withCode / MB).toFixed(1)} | ${(afterDisable / MB).toFixed(1)} | ${(afterDisable / beforeLoad).toFixed(2)} | ${run.storeEntries.before} → ${run.storeEntries.after} | ${(afterLessStore(run) / beforeLoad).toFixed(2)} |`,
  );
}
console.log(`\nThe store's table costs about ${bytesPerEntry.toFixed(0)} bytes of heap per entry (from the 1k and 10k runs before the plugin).`);

const heavy = find(10_000, 4);
const verdicts = [
  ['agent commit < 300 ms (10k, 4×, max)', Math.max(...heavy.commitMs) < TARGETS.commitMs, `${Math.max(...heavy.commitMs).toFixed(0)} ms`],
  ['search p95 < 100 ms (10k, 4×)', percentile(heavy.searchMs, 0.95) < TARGETS.searchP95Ms, `${percentile(heavy.searchMs, 0.95).toFixed(1)} ms`],
  ['no main-thread task > 100 ms while working (10k, 4×)', heavy.longTasks.interactive.over100 === 0, `${heavy.longTasks.interactive.over100} tasks, longest ${heavy.longTasks.interactive.longest.toFixed(0)} ms`],
  ['no main-thread task > 100 ms while main.js is evaluated (10k, 4×)', heavy.longTasks.evaluation.over100 === 0, `${heavy.longTasks.evaluation.over100} tasks, longest ${heavy.longTasks.evaluation.longest.toFixed(0)} ms`],
  ['no main-thread task > 100 ms from the plugin\'s load on, incl. snapshot and index (10k, 4×)', heavy.longTasks.overall.over100 === 0, `${heavy.longTasks.overall.over100} tasks, longest ${heavy.longTasks.overall.longest.toFixed(0)} ms`],
  ['peak JS heap < 150 MB (10k)', Math.max(...runs.filter((run) => run.notes === 10_000).map((run) => run.heap.peak)) < TARGETS.peakHeapMb * MB, `${(Math.max(...runs.filter((run) => run.notes === 10_000).map((run) => run.heap.peak)) / MB).toFixed(1)} MB`],
  ['heap after disabling within 10% of before (10k, 4×; the store table\'s growth taken out)', afterLessStore(heavy) / heavy.heap.beforeLoad < TARGETS.heapAfterDisableRatio, `${((afterLessStore(heavy) / heavy.heap.beforeLoad - 1) * 100).toFixed(1)}% (${((heavy.heap.afterDisable / heavy.heap.beforeLoad - 1) * 100).toFixed(1)}% with it)`],
];
console.log('\n| issue 22 target | met | measured |');
console.log('|---|---|---|');
for (const [name, met, measured] of verdicts) console.log(`| ${name} | ${met ? '✓' : '✗'} | ${measured} |`);

mkdirSync(join(root, 'tests/bench/results'), { recursive: true });
writeFileSync(
  join(root, 'tests/bench/results/mobile.json'),
  `${JSON.stringify({ date: new Date().toISOString(), targets: TARGETS, storeBytesPerEntry: bytesPerEntry, verdicts: verdicts.map(([name, met, measured]) => ({ name, met, measured })), rows: table.rows, runs }, null, 2)}\n`,
);
