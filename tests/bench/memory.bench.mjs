// Benchmarks `mem.recall` (the built library, as users get it: `openVault` over a real folder, the
// graph index's full-text search over the memory folder) on 1,000 and 10,000 memory notes written
// with `mem.remember`, against its anchors in the same run: a plain scan that reads every memory
// note and checks each word (what a memory tool without an index does), and `grep -rli`.
//   npm run bench                                  both sizes; writes tests/bench/results/memory.json
//   node tests/bench/memory.bench.mjs --memories 1000
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVault } from '../../dist/recursa.mjs';
import { createRng, generateVault } from './generateVault.mjs';
import { percentile, timeOnce } from './benchTools.mjs';

const SEED = 20240611;
const RUNS = 5;
const TAGS = ['project', 'decision', 'preference', 'person', 'bug', 'idea', 'meeting', 'travel'];
const QUERIES = ['budget', 'garden', 'meditation review', 'kubernetes migration', 'sourd', 'retrospectve'];

function parseSizes(argv) {
  const sizes = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--memories') throw new Error(`Unknown argument "${argv[i]}"; use --memories 1000 (repeat for several sizes).`);
    sizes.push(...String(argv[++i]).split(',').map(Number));
  }
  return sizes.length > 0 ? sizes : [1_000, 10_000];
}


/** Median and p95 of `fn` over every query, each run `RUNS` times after a warm-up. */
async function measure(queries, fn) {
  const times = [];
  for (const query of queries) {
    await fn(query);
    for (let r = 0; r < RUNS; r++) times.push((await timeOnce(() => fn(query))).ms);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

/** Sentences of realistic prose: the lines of a generated vault's notes. */
async function proseLines(dir) {
  await generateVault(dir, { notes: 300, seed: SEED, vocabulary: 'english' });
  const lines = [];
  const walk = async (folder) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.md')) for (const line of (await readFile(path, 'utf8')).split('\n')) if (line.length > 60 && !line.startsWith('#') && !line.includes('::')) lines.push(line.replace(/^[-*] /, ''));
    }
  };
  await walk(dir);
  return lines;
}

/** The anchor: every memory note read, kept when it holds every word of the query; newest first. */
async function plainScan(folder, query) {
  const words = query.toLowerCase().split(/\s+/);
  const hits = [];
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const text = (await readFile(path, 'utf8')).toLowerCase();
        if (words.every((word) => text.includes(word))) hits.push(path);
      }
    }
  };
  await walk(folder);
  return hits.sort().reverse().slice(0, 10);
}

const grep = (folder, word) =>
  new Promise((resolve) => execFile('grep', ['-rli', '--', word, folder], { maxBuffer: 64 * 1024 * 1024 }, (_error, stdout) => resolve(stdout.split('\n').filter(Boolean))));

async function benchSize(memories, lines) {
  const dir = await mkdtemp(join(tmpdir(), 'recursa-memory-bench-'));
  try {
    await writeFile(join(dir, 'Home.md'), '# Home\n');
    await mkdir(join(dir, '.obsidian'), { recursive: true });
    const opened = await openVault(dir, { watch: false, git: false });
    const rng = createRng(SEED + memories);
    const written = await timeOnce(async () => {
      for (let i = 0; i < memories; i++) {
        const content = Array.from({ length: rng.int(1, 4) }, () => rng.pick(lines)).join(' ');
        await opened.mem.remember(content, [rng.pick(TAGS), ...(rng.next() < 0.3 ? [rng.pick(TAGS)] : [])]);
      }
    });
    const built = await timeOnce(() => opened.mem.recall({ query: 'warm up' }));
    const folder = join(dir, 'Memories');
    const rows = {
      memories,
      rememberMs: written.ms / memories,
      firstRecallMs: built.ms,
      recallQuery: await measure(QUERIES, (query) => opened.mem.recall({ query })),
      recallTags: await measure(TAGS.slice(0, 4), (tag) => opened.mem.recall({ tags: [tag] })),
      recallNewest: await measure(['—'], () => opened.mem.recall({})),
      recallSince: await measure(QUERIES.slice(0, 3), (query) => opened.mem.recall({ query, since: '1d' })),
      plainScan: await measure(QUERIES.slice(0, 3), (query) => plainScan(folder, query)),
      grep: await measure(['budget', 'garden', 'meditation'], (word) => grep(folder, word)),
    };
    await opened.close();
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(a / b < 0.1 ? 4 : 2)}×` : '—');

const scratch = await mkdtemp(join(tmpdir(), 'recursa-memory-prose-'));
const lines = await proseLines(scratch);
await rm(scratch, { recursive: true, force: true });
const results = [];
for (const memories of parseSizes(process.argv.slice(2))) {
  const row = await benchSize(memories, lines);
  results.push(row);
  console.error(`[${memories} memories] remember ${row.rememberMs.toFixed(2)} ms each; first recall (builds the index) ${row.firstRecallMs.toFixed(0)} ms`);
}
console.log('| memories | operation | ours p50 (ms) | ours p95 (ms) | plain scan p50 (ms) | ours ÷ scan | grep -rli p50 (ms) | ours ÷ grep |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  for (const [name, m] of [['recall with a query', r.recallQuery], ['recall by tag', r.recallTags], ['recall, newest first', r.recallNewest], ['recall with a query, since 1d', r.recallSince]]) {
    console.log(`| ${r.memories} | ${name} | ${m.p50.toFixed(2)} | ${m.p95.toFixed(2)} | ${r.plainScan.p50.toFixed(1)} | ${ratio(m.p50, r.plainScan.p50)} | ${r.grep.p50.toFixed(1)} | ${ratio(m.p50, r.grep.p50)} |`);
  }
  console.log(`| ${r.memories} | remember, one note | ${r.rememberMs.toFixed(2)} | — | — | — | — | — |`);
  console.log(`| ${r.memories} | first recall (builds the index) | ${r.firstRecallMs.toFixed(0)} | — | — | — | — | — |`);
}
const out = new URL('./results/', import.meta.url);
await mkdir(out, { recursive: true });
await writeFile(new URL('memory.json', out), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
