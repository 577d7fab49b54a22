// What every benchmark here measures and prints with: timing, percentiles, bounded concurrency,
// and the table of rows that compare ours with an anchor and a target.
import { performance } from 'node:perf_hooks';

/** One run of `task`: its wall time and what it returned. */
export async function timeOnce(task) {
  const start = performance.now();
  const value = await task();
  return { ms: performance.now() - start, value };
}

/** Nearest-rank percentile (`q` from 0 to 1) of unsorted samples. */
export function percentile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** The middle sample (the upper one of an even count). */
export function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall time of `runs` runs of `task(r)`, in milliseconds. */
export async function medianTime(task, runs = 5) {
  const times = [];
  for (let r = 0; r < runs; r++) times.push((await timeOnce(() => task(r))).ms);
  return median(times);
}

/** Runs `task` over `items` with at most `limit` in flight. */
export async function eachLimited(items, limit, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Rows comparing ours with a target and an anchor; `compare` adds one, `print` writes the table. */
export function comparisonTable() {
  const rows = [];
  const compare = (name, ours, target, anchor, anchorName) =>
    rows.push({ name, ours, target, meetsTarget: target === null ? null : ours < target, anchor, anchorName, ratio: anchor === null ? null : ours / anchor });
  const ms = (value) => (value < 1 ? value.toFixed(3) : value.toFixed(1));
  const print = () => {
    console.log('| operation | ours (ms) | target | anchor | anchor (ms) | ours / anchor |');
    console.log('|---|---:|---|---|---:|---:|');
    for (const row of rows) {
      const target = row.target === null ? '—' : `< ${row.target} ms ${row.meetsTarget ? '✓' : '✗'}`;
      const anchor = row.anchor === null ? '—' : ms(row.anchor);
      const ratio = row.ratio === null ? '—' : `${row.ratio.toFixed(1)}×`;
      console.log(`| ${row.name} | ${ms(row.ours)} | ${target} | ${row.anchorName} | ${anchor} | ${ratio} |`);
    }
  };
  return { rows, compare, print };
}
