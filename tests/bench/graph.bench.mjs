// Benchmarks the graph index (the built library, as users get it: `GraphIndex` over a
// `NodeVaultPort`) on generated vaults of realistic notes (2–4 KB, real English vocabulary, links,
// tags, frontmatter) against its anchors in the same run: a plain scan that reads every note for
// each question (what a plugin without an index does: `includes()` every word for full text, a
// `[[Name` regex for backlinks) and `grep -rl` for full text.
//   npm run bench                                 1k, 10k and 50k notes; writes tests/bench/results/graph.json
//   node tests/bench/graph.bench.mjs --notes 1000  one size (repeat or comma-separate for more)
// Each size runs in a child Node (with --expose-gc, so heap numbers are taken after a full GC, and
// with Node's default heap limit, as the app has): sizes do not share a heap, and a child that
// runs out of memory is reported with the step it died in, after what it measured before.
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { GraphIndex, NodeVaultPort, walkFiles } from '../../dist/recursa.mjs';
import { generateVault } from './generateVault.mjs';
import { eachLimited, percentile, timeOnce } from './benchTools.mjs';

const SEED = 20240611;
const CACHE_FILE = '.obsidian/plugins/recursa/graph-index.json';
const SKIP = new Set(['.git', '.obsidian', '.trash']);
const skipFolder = (folder) => SKIP.has(folder);
/** `mem.searchGlobal` asks for 50 hits. */
const SEARCH_LIMIT = 50;
const TARGETS = { atNotes: 10_000, buildMs: 4_000, heapMB: 150, loadMs: 500, searchP95Ms: 30, backlinksMs: 1, updateMs: 20 };
/** The targets for a large vault, judged at 50k notes: the heap is what stays after the build. */
const LARGE_TARGETS = { atNotes: 50_000, buildMs: 20_000, retainedMB: 300, searchP95Ms: 50 };

/**
 * Full-text queries as an agent or a person types them: words, several words, prefixes, typos. The
 * typos are one edit away (a letter dropped or changed): at the default fuzziness of 0.2 a short word
 * gets one edit, and a swap of two letters is two.
 */
const SEARCHES = [
  { kind: 'search: word', text: 'garden' },
  { kind: 'search: word', text: 'meditation' },
  { kind: 'search: word', text: 'kubernetes' },
  { kind: 'search: word', text: 'retrospective' },
  { kind: 'search: word', text: 'sourdough' },
  { kind: 'search: word', text: 'budget' },
  { kind: 'search: words', text: 'quarterly budget review' },
  { kind: 'search: words', text: 'sourdough starter recipe' },
  { kind: 'search: words', text: 'Lisbon trip itinerary' },
  { kind: 'search: words', text: 'database migration rollback plan' },
  { kind: 'search: prefix', text: 'gard' },
  { kind: 'search: prefix', text: 'medit' },
  { kind: 'search: prefix', text: 'kube' },
  { kind: 'search: prefix', text: 'retro' },
  { kind: 'search: prefix', text: 'sourd' },
  { kind: 'search: typo', text: 'gardem' },
  { kind: 'search: typo', text: 'meditaton' },
  { kind: 'search: typo', text: 'kuberntes' },
  { kind: 'search: typo', text: 'retrospectve' },
  { kind: 'search: typo', text: 'sourdogh' },
];
/** Structured queries; `{A}` and `{B}` are names of notes in the vault. */
const QUERIES = [
  { kind: 'query: tag', text: '(tag #project)' },
  { kind: 'query: tag', text: '(tag #research)' },
  { kind: 'query: property', text: '(property status:: active)' },
  { kind: 'query: property', text: '(property rating)' },
  { kind: 'query: link', text: '(outgoing-link [[{A}]])' },
  { kind: 'query: link', text: '(backlink [[{B}]])' },
  { kind: 'query: combined', text: '(tag #project) AND (outgoing-link [[{A}]])' },
  { kind: 'query: combined', text: '(property status:: waiting) AND NOT (tag #archive)' },
  { kind: 'query: combined', text: '(path "Projects/") AND ((tag #research) OR (tag #design))' },
  { kind: 'query: content', text: '(content "sourdough")' },
];

function parseSizes(argv) {
  const sizes = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = arg === '--notes' ? argv[++i] : arg.startsWith('--notes=') ? arg.slice('--notes='.length) : null;
    if (value === null || value === undefined) throw new Error(`Unknown argument "${arg}"; use --notes 1000 (repeat or comma-separate for several sizes).`);
    for (const part of String(value).split(',')) {
      const n = Number(part.replace(/[_k]/gi, (c) => (c.toLowerCase() === 'k' ? '000' : '')));
      if (!Number.isInteger(n) || n < 100) throw new Error(`--notes wants a whole number of notes (at least 100), got "${part}".`);
      sizes.push(n);
    }
  }
  return sizes.length > 0 ? sizes : [1_000, 10_000, 50_000];
}

function check(condition, message) {
  if (!condition) throw new Error(`Correctness check failed: ${message}`);
}

const stats = (samples) => ({
  p50: percentile(samples, 0.5),
  p95: percentile(samples, 0.95),
  max: Math.max(...samples),
  mean: samples.reduce((a, b) => a + b, 0) / samples.length,
  samples: samples.length,
});

const gc = () => {
  globalThis.gc?.();
  globalThis.gc?.();
};
/**
 * Watches the event loop while work runs: a 1 ms timer, and the longest gap between its ticks is
 * the longest the work held up everything else (the app's main thread, in Obsidian).
 */
function watchPauses() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    return Math.max(longest, performance.now() - last);
  };
}

/** Where two JSON answers part: the first differing entry of each (or the lengths). */
function firstDifference(a, b) {
  const left = JSON.parse(a);
  const right = JSON.parse(b);
  if (!Array.isArray(left) || !Array.isArray(right)) return `${a.slice(0, 200)} vs ${b.slice(0, 200)}`;
  const at = left.findIndex((entry, i) => JSON.stringify(entry) !== JSON.stringify(right[i]));
  if (at < 0) return `${left.length} vs ${right.length} results`;
  return `result ${at}: ${JSON.stringify(left[at]).slice(0, 200)} vs ${JSON.stringify(right[at]).slice(0, 200)}`;
}

/**
 * The JavaScript heap plus the memory behind ArrayBuffers (typed arrays keep their bytes outside
 * the heap, and the index keeps texts and postings in them): what the index costs the app.
 */
const heapMB = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1048576;
};


// --- the anchors -------------------------------------------------------------------------------

/**
 * The plain scan: list the vault through the port, read every note (32 reads in flight) and keep
 * the notes `test` accepts. What answering a question costs without an index.
 */
async function scanNotes(port, test) {
  const files = (await walkFiles(port, '', (folder) => !skipFolder(folder))).filter((path) => path.endsWith('.md'));
  const found = [];
  await eachLimited(files, 32, async (path) => {
    if (test(await port.readText(path), path)) found.push(path);
  });
  return found.sort();
}
const scanText = (port, query) => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return scanNotes(port, (text) => {
    const lower = text.toLowerCase();
    return words.every((word) => lower.includes(word));
  });
};
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const scanBacklinks = (port, path) => {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');
  const link = new RegExp(`\\[\\[${escapeRegex(name)}(?:\\]|\\||#)`, 'i');
  return scanNotes(port, (text, from) => from !== path && link.test(text));
};

/** `grep -rliF` over the notes (C locale, its fastest), one word. */
function grep(dir, word) {
  return new Promise((resolve, reject) => {
    execFile('grep', ['-rliF', '--include=*.md', '-e', word, '.'], { cwd: dir, env: { ...process.env, LC_ALL: 'C' }, maxBuffer: 64 * 1048576 }, (error, stdout) => {
      if (error !== null && error.code !== 1) reject(error);
      else resolve(stdout.split('\n').filter(Boolean));
    });
  });
}

/** The query mix over `graph`; `names` fills the `{A}` and `{B}` in `QUERIES`. */
const mixOn = (graph, names) => [
  ...SEARCHES.map((s) => ({ ...s, run: () => graph.searchText(s.text, { limit: SEARCH_LIMIT }) })),
  ...QUERIES.map((q) => {
    const text = q.text.replace('{A}', names.A).replace('{B}', names.B);
    return { ...q, text, run: () => graph.query(text) };
  }),
];

// --- one size ----------------------------------------------------------------------------------

/**
 * Measures one size. `report(partial)` is called with what is measured so far before each step
 * (`partial.step` names it), so a parent can tell where a child that died was.
 */
async function benchSize(notes, root, report) {
  const log = (text) => console.error(`[${notes} notes] ${text}`);
  const small = notes <= 10_000;
  const dir = join(root, `vault-${notes}`);
  const rows = {};
  const extras = {};
  const result = { notes, files: 0, bytes: 0, rows, extras, targets: null, step: 'generate' };
  const step = (name) => {
    result.step = name;
    report(result);
  };
  step('generate');
  const generated = await timeOnce(() => generateVault(dir, { notes, seed: SEED, vocabulary: 'english' }));
  const { files, bytes } = generated.value;
  result.files = files.length;
  result.bytes = bytes;
  extras.generateMs = generated.ms;
  log(`generated ${files.length} notes (${(bytes / 1048576).toFixed(1)} MiB) in ${(generated.ms / 1000).toFixed(1)} s`);
  const port = await NodeVaultPort.open(dir, { watch: false });
  const pick = (i) => files[(i * 7919 + 101) % files.length];
  const nameOf = (path) => path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/, '');

  // --- one plain read of every note (warms the page cache for both sides; the build's anchor) ---
  step('plain read');
  await scanNotes(port, () => false);
  const readAll = [];
  for (let r = 0; r < (small ? 3 : 1); r++) readAll.push((await timeOnce(() => scanNotes(port, () => false))).ms);
  extras.readAllMs = percentile(readAll, 0.5);
  log(`plain read of every note: ${extras.readAllMs.toFixed(0)} ms`);

  // --- fresh build, with the heap sampled while it runs ----------------------------------------
  step('build');
  gc();
  const baseline = heapMB();
  let peak = baseline;
  const sampleHeap = () => {
    peak = Math.max(peak, heapMB());
  };
  const sampler = setInterval(sampleHeap, 5);
  const buildPauses = watchPauses();
  let progressCalls = 0;
  let index = new GraphIndex(port, {
    skipFolder,
    cacheFile: CACHE_FILE,
    onProgress: () => {
      progressCalls++;
      sampleHeap();
    },
  });
  const build = await timeOnce(() => index.build());
  const buildLongestPause = buildPauses();
  sampleHeap();
  clearInterval(sampler);
  gc();
  const retained = heapMB() - baseline;
  rows.build = { ms: build.ms, anchorMs: extras.readAllMs, longestPauseMs: buildLongestPause };
  rows.heap = { peakMB: peak - baseline, retainedMB: retained, vaultMB: bytes / 1048576 };
  log(`fresh build ${build.ms.toFixed(0)} ms (${progressCalls} progress reports, longest pause ${buildLongestPause.toFixed(0)} ms); heap peak +${(peak - baseline).toFixed(0)} MB, retained +${retained.toFixed(0)} MB`);
  // The first link question after a build makes the reverse map.
  const firstBacklinks = await timeOnce(() => index.backlinksOf(pick(0)));

  // --- correctness, on a few questions, against the plain scan ---------------------------------
  step('correctness');
  for (const word of small ? ['garden', 'sourdough', 'kubernetes'] : ['sourdough']) {
    const hits = (await index.searchText(word, { limit: 1e9, fuzzy: 0 })).map((hit) => hit.path);
    const scanned = new Set(await scanText(port, word));
    check(hits.length > 0, `searchText("${word}") found nothing`);
    const stray = hits.filter((path) => !scanned.has(path));
    check(stray.length === 0, `searchText("${word}", fuzzy 0) found ${stray.length} notes that do not contain "${word}", e.g. ${stray.slice(0, 3).join(', ')}`);
  }
  for (let i = 0; i < (small ? 3 : 1); i++) {
    const target = pick(1000 + i);
    const ours = await index.backlinksOf(target);
    const scanned = await scanBacklinks(port, target);
    check(JSON.stringify(ours) === JSON.stringify(scanned), `backlinksOf("${target}") gave ${ours.length} notes, the plain scan ${scanned.length}: ${JSON.stringify(ours.slice(0, 5))} vs ${JSON.stringify(scanned.slice(0, 5))}`);
  }

  // --- the query mix ---------------------------------------------------------------------------
  const names = { A: nameOf(pick(7)), B: nameOf(pick(8)) };
  const mix = mixOn(index, names);
  for (const q of mix) q.hits = (await q.run()).length; // the warm-up round
  check(mix.filter((q) => q.kind.startsWith('search')).every((q) => q.hits > 0), `a search found nothing: ${JSON.stringify(mix.filter((q) => q.hits === 0).map((q) => q.text))}`);

  // --- queries ---------------------------------------------------------------------------------
  step('queries');
  const rounds = small ? 7 : 3;
  for (const q of mix) q.times = [];
  for (let round = 0; round < rounds; round++) {
    for (const q of mix) q.times.push((await timeOnce(q.run)).ms);
  }
  const byKind = new Map();
  for (const q of mix) byKind.set(q.kind, [...(byKind.get(q.kind) ?? []), ...q.times]);
  rows.queries = [...byKind].map(([kind, times]) => ({ kind, queries: mix.filter((q) => q.kind === kind).length, ...stats(times) }));
  const searchTimes = mix.filter((q) => q.kind.startsWith('search')).flatMap((q) => q.times);
  const queryTimes = mix.filter((q) => q.kind.startsWith('query')).flatMap((q) => q.times);
  rows.search = stats(searchTimes);
  rows.query = stats(queryTimes);
  extras.queries = mix.map((q) => ({ kind: q.kind, text: q.text, hits: q.hits, ...stats(q.times) }));
  log(`searchText p50 ${rows.search.p50.toFixed(2)} p95 ${rows.search.p95.toFixed(2)} ms; query p50 ${rows.query.p50.toFixed(2)} p95 ${rows.query.p95.toFixed(2)} ms`);

  // The anchors for full text: every search query by the plain scan (fewer at 50k), single words by grep.
  step('full-text anchors');
  const scanSample = small ? SEARCHES : SEARCHES.filter((_, i) => i % 4 === 0);
  const scanTimes = [];
  for (const s of scanSample) scanTimes.push((await timeOnce(() => scanText(port, s.text))).ms);
  const grepSample = SEARCHES.filter((s) => !s.text.includes(' '));
  const grepTimes = [];
  for (const s of grepSample) grepTimes.push((await timeOnce(() => grep(dir, s.text))).ms);
  rows.searchAnchors = { scan: { ...stats(scanTimes), of: `${scanSample.length} of ${SEARCHES.length} search queries` }, grep: { ...stats(grepTimes), of: `${grepSample.length} one-word queries` } };
  log(`plain scan per search p50 ${rows.searchAnchors.scan.p50.toFixed(0)} ms (${scanSample.length} queries); grep -rl p50 ${rows.searchAnchors.grep.p50.toFixed(0)} ms`);

  // --- links -----------------------------------------------------------------------------------
  step('links');
  const lookups = Array.from({ length: 500 }, (_, i) => pick(i * 31 + 5));
  const backlinkTimes = [];
  const outgoingTimes = [];
  let edges = 0;
  for (const path of lookups) {
    const back = await timeOnce(() => index.backlinksOf(path));
    backlinkTimes.push(back.ms);
    edges += back.value.length;
    outgoingTimes.push((await timeOnce(() => index.outgoingOf(path))).ms);
  }
  const scanLinkSample = lookups.slice(0, small ? 5 : 2);
  const scanLinkTimes = [];
  for (const path of scanLinkSample) scanLinkTimes.push((await timeOnce(() => scanBacklinks(port, path))).ms);
  rows.backlinks = { ...stats(backlinkTimes), firstAfterBuildMs: firstBacklinks.ms, meanBacklinks: edges / lookups.length, anchor: { ...stats(scanLinkTimes), of: `${scanLinkSample.length} lookups` } };
  rows.outgoing = stats(outgoingTimes);
  log(`backlinksOf p50 ${(rows.backlinks.p50 * 1000).toFixed(0)} µs p95 ${(rows.backlinks.p95 * 1000).toFixed(0)} µs (first after build ${firstBacklinks.ms.toFixed(0)} ms); plain scan ${rows.backlinks.anchor.p50.toFixed(0)} ms`);

  // --- update after one edit -------------------------------------------------------------------
  step('update');
  // A plain write (the index is then brought up to date outside the timer), and a write followed
  // by the next searchText, which re-indexes the note first; the difference is the update's cost.
  // The edit adds a word no other note has and a link, and both must show at once.
  const updateRuns = 15;
  const writeTimes = [];
  const writeSearchTimes = [];
  const cleanSearchTimes = [];
  const edited = [];
  for (let r = 0; r < updateRuns; r++) {
    const plainPath = pick(200 + r);
    const plainText = await port.readText(plainPath);
    writeTimes.push((await timeOnce(() => port.write(plainPath, `${plainText}\nA plain edit ${r}.\n`))).ms);
    await index.searchText('garden');

    const path = pick(300 + r);
    const target = pick(400 + r) === path ? pick(500 + r) : pick(400 + r);
    const text = await port.readText(path);
    const word = `zqxbench${r}`;
    const edit = await timeOnce(async () => {
      await port.write(path, `${text}\nEdited: ${word}, see [[${nameOf(target)}]].\n`);
      return index.searchText(word, { limit: SEARCH_LIMIT });
    });
    writeSearchTimes.push(edit.ms);
    check(edit.value[0]?.path === path, `after editing ${path}, searchText("${word}") gave ${JSON.stringify(edit.value.slice(0, 3).map((hit) => hit.path))}`);
    check((await index.backlinksOf(target)).includes(path), `after ${path} gained a link to ${target}, backlinksOf does not list it`);
    cleanSearchTimes.push((await timeOnce(() => index.searchText(word, { limit: SEARCH_LIMIT }))).ms);
    edited.push({ path, target, word });
  }
  const writeP50 = percentile(writeTimes, 0.5);
  const writeSearchP50 = percentile(writeSearchTimes, 0.5);
  rows.update = {
    ms: writeSearchP50 - writeP50,
    writeMs: writeP50,
    writeAndSearchMs: writeSearchP50,
    searchAloneMs: percentile(cleanSearchTimes, 0.5),
    runs: updateRuns,
    writeAndSearch: stats(writeSearchTimes),
  };
  log(`update after one edit ${rows.update.ms.toFixed(2)} ms (write+search ${writeSearchP50.toFixed(2)} − write ${writeP50.toFixed(2)}; the same search alone ${rows.update.searchAloneMs.toFixed(2)} ms)`);

  // A new note (or a deleted one) can change how links resolve, so the next link question
  // re-resolves every link in the vault; measured as creating a note that links to another, then
  // the next backlinksOf.
  step('new note');
  const createTimes = [];
  for (let r = 0; r < (small ? 3 : 1); r++) {
    const target = pick(600 + r);
    const path = `Inbox/Bench new note ${r}.md`;
    const created = await timeOnce(async () => {
      await port.write(path, `# Bench new note ${r}\n\nAbout [[${nameOf(target)}]].\n`);
      return index.backlinksOf(target);
    });
    check(created.value.includes(path), `after creating ${path}, backlinksOf("${target}") does not list it`);
    createTimes.push(created.ms);
  }
  rows.newNote = stats(createTimes);
  log(`new note + next backlinksOf ${rows.newNote.p50.toFixed(0)} ms`);

  step('ranking drift');
  // After edits the same search must rank the same each time it is asked (an index that forgot a
  // replaced note's old postings lazily, a little per search, would drift over the next asks).
  // Each search is asked 20 times; the last answer is what the saved index must give.
  const drift = [];
  const reference = [];
  for (const q of mix) {
    const answers = [JSON.stringify(await q.run())];
    if (q.kind.startsWith('search')) for (let ask = 1; ask < 20; ask++) answers.push(JSON.stringify(await q.run()));
    const lastChange = answers.reduce((last, answer, i) => (i > 0 && answer !== answers[i - 1] ? i + 1 : last), 1);
    if (lastChange > 1) drift.push({ text: q.text, distinctAnswers: new Set(answers).size, lastChangeAtAsk: lastChange });
    reference.push(answers[answers.length - 1]);
  }
  extras.rankingDriftAfterEdits = { queries: drift.length, of: SEARCHES.length, edits: updateRuns * 2, drift };
  if (drift.length > 0) log(`after ${updateRuns * 2} edits, ${drift.length} of ${SEARCHES.length} searches changed their answer when simply asked again (up to ask ${Math.max(...drift.map((d) => d.lastChangeAtAsk))})`);

  // --- the cache file: save, then load on the unchanged vault, alone in memory -------------------
  if (typeof index.save === 'function') {
    step('save');
    const saved = await timeOnce(() => index.save());
    check(saved.value === true, `save() gave ${saved.value}`);
    // The header and its parts beside it (`graph-index.N.jsonl`).
    const cacheDir = join(dir, CACHE_FILE, '..');
    const cacheNames = (await readdir(cacheDir)).filter((name) => name.startsWith('graph-index.'));
    let size = 0;
    for (const name of cacheNames) size += (await stat(join(cacheDir, name))).size;
    rows.save = { ms: saved.ms, bytes: size, vaultBytes: bytes };
    log(`save ${saved.ms.toFixed(0)} ms, ${(size / 1048576).toFixed(1)} MiB`);
    // The load is measured after a restart, in a fresh child, as the app meets it.
    writeFileSync(handoffFile(root, notes), JSON.stringify({ names, reference, edited, buildMs: build.ms }));
    result.loadPending = true;
  } else {
    rows.save = null;
    rows.load = null;
    log('GraphIndex has no save(): cache rows are n/a');
  }
  index.close();
  port.close();
  if (!result.loadPending) await rm(dir, { recursive: true, force: true });

  result.targets = targetsOf(notes, rows);
  step('done');
  return result;
}

const handoffFile = (root, notes) => join(root, `handoff-${notes}.json`);

/**
 * After a restart: loads the index `benchSize` saved, on the vault it left unchanged, `runs` times,
 * each time a new index alone in memory; the first load must read no note and answer exactly as
 * the saved index did, the edits included.
 */
async function benchLoad(notes, root, report) {
  const log = (text) => console.error(`[${notes} notes] ${text}`);
  const { names, reference, edited } = JSON.parse(await readFile(handoffFile(root, notes), 'utf8'));
  const dir = join(root, `vault-${notes}`);
  const port = await NodeVaultPort.open(dir, { watch: false });
  const result = { step: 'load', load: null };
  report(result);
  // Each load in its own function, so nothing of one index is still reachable (from a suspended
  // async frame) while the next one loads: at 50k notes two of them do not fit in the heap.
  const loadOnce = async (r) => {
    gc();
    const before = heapMB();
    let loadPeak = before;
    const loadSampler = setInterval(() => {
      loadPeak = Math.max(loadPeak, heapMB());
    }, 5);
    // Counts the notes the load reads: on an unchanged vault it should read none.
    const reads = [];
    const counted = Object.create(port);
    counted.readText = (path) => {
      if (path.endsWith('.md')) reads.push(path);
      return port.readText(path);
    };
    const loaded = new GraphIndex(counted, { skipFolder, cacheFile: CACHE_FILE });
    const loadPauses = watchPauses();
    const load = await timeOnce(() => loaded.build());
    const loadLongestPause = loadPauses();
    clearInterval(loadSampler);
    check(reads.length === 0, `loading from the cache re-read ${reads.length} unchanged notes, e.g. ${reads.slice(0, 3).join(', ')}`);
    if (r === 0) {
      loadPeak = Math.max(loadPeak, heapMB());
      gc();
      result.load = { peakMB: loadPeak - before, retainedMB: heapMB() - before, heapBeforeMB: before, longestPauseMs: loadLongestPause };
      for (const [i, q] of mixOn(loaded, names).entries()) {
        const answer = JSON.stringify(await q.run());
        check(answer === reference[i], `the index loaded from the cache answers "${q.text}" differently: ${firstDifference(answer, reference[i])}`);
      }
      for (const { path, target, word } of edited) {
        check((await loaded.searchText(word))[0]?.path === path, `after save and load, searchText("${word}") does not find ${path}`);
        check((await loaded.backlinksOf(target)).includes(path), `after save and load, backlinksOf("${target}") does not list ${path}`);
      }
    }
    loaded.close();
    return load.ms;
  };
  const loads = [];
  for (let r = 0; r < (notes <= 10_000 ? 3 : 2); r++) {
    loads.push(await loadOnce(r));
    result.load.runsMs = [...loads];
    report(result);
  }
  port.close();
  result.load = { ...result.load, ...stats(loads), ms: percentile(loads, 0.5) };
  result.step = 'done';
  report(result);
  log(`load after a restart ${result.load.ms.toFixed(0)} ms (heap peak +${result.load.peakMB.toFixed(0)} MB, retained +${result.load.retainedMB.toFixed(0)} MB)`);
}

/** The targets (set for 10k notes), judged at any size; `null` where the row is missing. */
function targetsOf(notes, rows) {
  const judge = (row, value, target, limit) => (row === undefined || row === null ? null : { target, value: value(row), met: value(row) < limit });
  return {
    applies: notes === TARGETS.atNotes,
    build: judge(rows.build, (r) => r.ms, `< ${TARGETS.buildMs / 1000} s`, TARGETS.buildMs),
    heap: judge(rows.heap, (r) => r.peakMB, `< ${TARGETS.heapMB} MB`, TARGETS.heapMB),
    load: judge(rows.load, (r) => r.ms, `< ${TARGETS.loadMs} ms`, TARGETS.loadMs),
    search: judge(rows.search, (r) => r.p95, `p95 < ${TARGETS.searchP95Ms} ms`, TARGETS.searchP95Ms),
    backlinks: judge(rows.backlinks, (r) => r.p95, `< ${TARGETS.backlinksMs} ms`, TARGETS.backlinksMs),
    update: judge(rows.update, (r) => r.ms, `< ${TARGETS.updateMs} ms`, TARGETS.updateMs),
    large: {
      applies: notes === LARGE_TARGETS.atNotes,
      build: judge(rows.build, (r) => r.ms, `< ${LARGE_TARGETS.buildMs / 1000} s`, LARGE_TARGETS.buildMs),
      retained: judge(rows.heap, (r) => r.retainedMB, `< ${LARGE_TARGETS.retainedMB} MB`, LARGE_TARGETS.retainedMB),
      search: judge(rows.search, (r) => r.p95, `p95 < ${LARGE_TARGETS.searchP95Ms} ms`, LARGE_TARGETS.searchP95Ms),
    },
  };
}
// --- printing ----------------------------------------------------------------------------------

const ms = (m) => (m === null || m === undefined ? 'n/a' : m < 1 ? m.toFixed(3) : m < 10 ? m.toFixed(2) : m < 100 ? m.toFixed(1) : m.toFixed(0));
const mb = (m) => (m === null || m === undefined ? 'n/a' : m.toFixed(1));
const ratio = (ours, anchor) => {
  if (ours === null || ours === undefined || anchor === null || anchor === undefined) return 'n/a';
  const r = ours / anchor;
  return r >= 100 ? `${Math.round(r).toLocaleString('en-US')}×` : `${r.toPrecision(2)}×`;
};

function print(results) {
  console.log('| notes | operation | ours | anchor | anchor value | ours ÷ anchor |');
  console.log('|---:|---|---:|---|---:|---:|');
  for (const { notes, rows: r, crashed } of results) {
    const line = (op, ours, anchorName, anchorValue, ratioText) => console.log(`| ${notes} | ${op} | ${ours} | ${anchorName} | ${anchorValue} | ${ratioText} |`);
    const vaultMB = r.heap?.vaultMB;
    line('build, fresh (ms)', ms(r.build?.ms), 'plain read of every note', ms(r.build?.anchorMs), ratio(r.build?.ms, r.build?.anchorMs));
    line('longest pause during the build (ms)', ms(r.build?.longestPauseMs), 'fresh build', ms(r.build?.ms), ratio(r.build?.longestPauseMs, r.build?.ms));
    line('heap during build, peak (MB)', mb(r.heap?.peakMB), 'notes on disk (MB)', mb(vaultMB), ratio(r.heap?.peakMB, vaultMB));
    line('heap after build, retained (MB)', mb(r.heap?.retainedMB), 'notes on disk (MB)', mb(vaultMB), ratio(r.heap?.retainedMB, vaultMB));
    line('searchText p50 (ms)', ms(r.search?.p50), 'plain scan p50', ms(r.searchAnchors?.scan.p50), ratio(r.search?.p50, r.searchAnchors?.scan.p50));
    line('searchText p50 (ms)', ms(r.search?.p50), 'grep -rl p50', ms(r.searchAnchors?.grep.p50), ratio(r.search?.p50, r.searchAnchors?.grep.p50));
    line('searchText p95 (ms)', ms(r.search?.p95), 'plain scan p95', ms(r.searchAnchors?.scan.p95), ratio(r.search?.p95, r.searchAnchors?.scan.p95));
    line('query p50 (ms)', ms(r.query?.p50), 'plain read of every note', ms(r.build?.anchorMs), ratio(r.query?.p50, r.build?.anchorMs));
    line('query p95 (ms)', ms(r.query?.p95), 'plain read of every note', ms(r.build?.anchorMs), ratio(r.query?.p95, r.build?.anchorMs));
    line('backlinksOf p50 (ms)', ms(r.backlinks?.p50), 'plain scan p50', ms(r.backlinks?.anchor.p50), ratio(r.backlinks?.p50, r.backlinks?.anchor.p50));
    line('backlinksOf p95 (ms)', ms(r.backlinks?.p95), 'plain scan p95', ms(r.backlinks?.anchor.p95), ratio(r.backlinks?.p95, r.backlinks?.anchor.p95));
    line('backlinksOf, first after a build (ms)', ms(r.backlinks?.firstAfterBuildMs), '—', '—', '—');
    line('outgoingOf p95 (ms)', ms(r.outgoing?.p95), '—', '—', '—');
    line('update after one edit (ms)', ms(r.update?.ms), 'the same search, nothing changed', ms(r.update?.searchAloneMs), ratio(r.update?.ms, r.update?.searchAloneMs));
    line('new note + next backlinksOf (ms)', ms(r.newNote?.p50), 'backlinksOf p50', ms(r.backlinks?.p50), ratio(r.newNote?.p50, r.backlinks?.p50));
    line('cache file (MB)', mb(r.save?.bytes === undefined ? undefined : r.save.bytes / 1048576), 'notes on disk (MB)', mb(vaultMB), ratio(r.save?.bytes, r.save?.vaultBytes));
    line('save (ms)', ms(r.save?.ms), '—', '—', '—');
    line('load from the cache, unchanged vault (ms)', ms(r.load?.ms), 'fresh build', ms(r.build?.ms), ratio(r.load?.ms, r.build?.ms));
    line('longest pause during the load (ms)', ms(r.load?.longestPauseMs), 'load', ms(r.load?.ms), ratio(r.load?.longestPauseMs, r.load?.ms));
    line('heap during load, peak (MB)', mb(r.load?.peakMB), 'heap during build, peak', mb(r.heap?.peakMB), ratio(r.load?.peakMB, r.heap?.peakMB));
    if (crashed !== undefined) line(`**crashed in step "${crashed.step}"**`, '—', crashed.reason.replace(/\|/g, '\\|'), '—', '—');
  }

  console.log('\nQueries by kind (ms; the index is current, each query run after a warm-up)\n');
  console.log('| notes | kind | queries × runs | p50 | p95 | max |');
  console.log('|---:|---|---:|---:|---:|---:|');
  for (const { notes, rows: r } of results) {
    for (const q of r.queries ?? []) console.log(`| ${notes} | ${q.kind} | ${q.samples} | ${ms(q.p50)} | ${ms(q.p95)} | ${ms(q.max)} |`);
  }

  const tenK = results.find((result) => result.targets?.applies);
  console.log(`\nTargets at ${TARGETS.atNotes / 1000}k notes${tenK === undefined ? ` (no ${TARGETS.atNotes}-note run: judged at every size)` : ''}\n`);
  console.log('| notes | build | heap (peak) | load | searchGlobal p95 | getBacklinks (p95) | update after an edit |');
  console.log('|---:|---|---|---|---|---|---|');
  for (const result of tenK === undefined ? results : [tenK]) {
    const t = result.targets ?? targetsOf(result.notes, result.rows);
    const cellOf = (entry, format) => (entry === null ? 'n/a' : `${format(entry.value)} ${entry.target}: ${entry.met ? 'met' : 'MISSED'}`);
    console.log(`| ${result.notes} | ${cellOf(t.build, (v) => `${ms(v)} ms`)} | ${cellOf(t.heap, (v) => `${mb(v)} MB`)} | ${cellOf(t.load, (v) => `${ms(v)} ms`)} | ${cellOf(t.search, (v) => `${ms(v)} ms`)} | ${cellOf(t.backlinks, (v) => `${ms(v)} ms`)} | ${cellOf(t.update, (v) => `${ms(v)} ms`)} |`);
  }

  const large = results.find((result) => result.notes === LARGE_TARGETS.atNotes);
  console.log(`\nTargets at ${LARGE_TARGETS.atNotes / 1000}k notes${large === undefined ? ` (no ${LARGE_TARGETS.atNotes}-note run: judged at every size)` : ''}\n`);
  console.log('| notes | build | heap after build (retained) | searchGlobal p95 |');
  console.log('|---:|---|---|---|');
  for (const result of large === undefined ? results : [large]) {
    const t = targetsOf(result.notes, result.rows).large;
    const cellOf = (entry, format) => (entry === null ? 'n/a' : `${format(entry.value)} ${entry.target}: ${entry.met ? 'met' : 'MISSED'}`);
    console.log(`| ${result.notes} | ${cellOf(t.build, (v) => `${ms(v)} ms`)} | ${cellOf(t.retained, (v) => `${mb(v)} MB`)} | ${cellOf(t.search, (v) => `${ms(v)} ms`)} |`);
  }

  printGrowth(results);

  console.log('');
  for (const { notes, bytes, rows: r, extras, crashed } of results) {
    const parts = [`${notes} notes (${(bytes / 1048576).toFixed(1)} MiB, generated in ${((extras.generateMs ?? 0) / 1000).toFixed(1)} s)`];
    if (r.searchAnchors !== undefined) parts.push(`plain scan timed on ${r.searchAnchors.scan.of}, grep on ${r.searchAnchors.grep.of}`);
    if (r.backlinks !== undefined) parts.push(`${r.backlinks.samples} backlink lookups (${r.backlinks.meanBacklinks.toFixed(1)} backlinks each on average), the plain scan timed on ${r.backlinks.anchor.of}`);
    if (r.update !== undefined) parts.push(`update = write + next searchText (${ms(r.update.writeAndSearchMs)} ms) − plain write (${ms(r.update.writeMs)} ms), medians of ${r.update.runs}`);
    const drift = extras.rankingDriftAfterEdits;
    if (drift !== undefined) parts.push(`after ${drift.edits} edits, ${drift.queries} of ${drift.of} searches changed their answer when simply asked again (settled by ask ${Math.max(1, ...drift.drift.map((d) => d.lastChangeAtAsk))})`);
    if (r.load !== undefined && r.load !== null) parts.push(`the loaded index retains ${mb(r.load.retainedMB)} MB of heap`);
    if (crashed !== undefined) parts.push(`crashed in step "${crashed.step}": ${crashed.reason}`);
    console.log(`${parts.join('; ')}.`);
  }
}

/**
 * The main figures at every size side by side, each with its ratio to its anchor in the same run,
 * so growth with the vault's size shows at a glance.
 */
function printGrowth(results) {
  const cell = (ours, anchor, format) => (ours === null || ours === undefined ? 'n/a' : `${format(ours)} (${ratio(ours, anchor)})`);
  const rowsOf = [
    ['build (ms) ÷ plain read of every note', (r) => cell(r.build?.ms, r.build?.anchorMs, ms)],
    ['heap after build, retained (MB) ÷ notes on disk', (r) => cell(r.heap?.retainedMB, r.heap?.vaultMB, mb)],
    ['searchText p50 (ms) ÷ plain scan p50', (r) => cell(r.search?.p50, r.searchAnchors?.scan.p50, ms)],
    ['searchText p50 (ms) ÷ grep -rl p50', (r) => cell(r.search?.p50, r.searchAnchors?.grep.p50, ms)],
    ['searchText p95 (ms) ÷ plain scan p95', (r) => cell(r.search?.p95, r.searchAnchors?.scan.p95, ms)],
    ['backlinksOf p50 (ms) ÷ plain scan p50', (r) => cell(r.backlinks?.p50, r.backlinks?.anchor.p50, ms)],
    ['queryGraph p95 (ms) ÷ plain read of every note', (r) => cell(r.query?.p95, r.build?.anchorMs, ms)],
  ];
  console.log('\nBy vault size (ours, and ours ÷ anchor in the same run)\n');
  console.log(`| figure | ${results.map((result) => `${result.notes} notes`).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---:').join('|')}|`);
  for (const [name, format] of rowsOf) console.log(`| ${name} | ${results.map((result) => format(result.rows)).join(' | ')} |`);
}

// --- the parent runs each size in a child ------------------------------------------------------

const SELF = fileURLToPath(import.meta.url);

/** Runs one part (`--child` or `--load-child`) of one size in a child Node; forwards its progress lines and keeps the tail of the rest. */
function runChild(mode, notes, root, out) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', SELF, mode, String(notes), root, out], { stdio: ['ignore', 'inherit', 'pipe'] });
    const prefix = `[${notes} notes]`;
    let pending = '';
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      pending += chunk;
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (line.startsWith(prefix)) process.stderr.write(`${line}\n`);
        else tail = `${tail}${line}\n`.slice(-20_000);
      }
    });
    child.on('close', (code, signal) => resolve({ code, signal, tail: tail + pending }));
  });
}

/** How a child that failed failed: the step, the first error line, and whether it ran out of memory. */
function crashOf(run, step) {
  const outOfMemory = /heap out of memory|Reached heap limit/.test(run.tail);
  const reason = run.tail.split('\n').map((line) => line.trim()).find((line) => /^(FATAL ERROR|Error|RangeError|TypeError)\b/.test(line)) ?? `exit code ${run.code}${run.signal === null ? '' : `, signal ${run.signal}`}`;
  return { step, reason, outOfMemory };
}

const args = process.argv.slice(2);
if (args[0] === '--child' || args[0] === '--load-child') {
  const [mode, notes, root, out] = args;
  check(typeof globalThis.gc === 'function', 'the child runs with --expose-gc');
  const report = (partial) => writeFileSync(out, JSON.stringify(partial));
  if (mode === '--child') await benchSize(Number(notes), root, report);
  else await benchLoad(Number(notes), root, report);
} else {
  const sizes = parseSizes(args);
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), 'recursa-graph-bench-'));
  const results = [];
  let failure = null;
  try {
    for (const notes of sizes) {
      const out = join(root, `result-${notes}.json`);
      let run = await runChild('--child', notes, root, out);
      const result = JSON.parse(await readFile(out, 'utf8').catch(() => 'null')) ?? { notes, files: 0, bytes: 0, rows: {}, extras: {}, targets: null, step: 'start' };
      if (run.code !== 0) result.crashed = crashOf(run, result.step);
      else if (result.loadPending) {
        const loadOut = join(root, `load-${notes}.json`);
        run = await runChild('--load-child', notes, root, loadOut);
        const loaded = JSON.parse(await readFile(loadOut, 'utf8').catch(() => 'null')) ?? { step: 'load', load: null };
        if (loaded.load !== null && loaded.step === 'done') result.rows.load = { ...loaded.load, freshBuildMs: result.rows.build.ms };
        else if (loaded.load !== null) result.extras.partialLoad = loaded.load;
        if (run.code !== 0) result.crashed = crashOf(run, 'load after a restart');
        await rm(join(root, `vault-${notes}`), { recursive: true, force: true });
      }
      delete result.loadPending;
      result.targets = targetsOf(notes, result.rows);
      if (result.crashed !== undefined) {
        console.error(`[${notes} notes] crashed in step "${result.crashed.step}": ${result.crashed.reason}`);
        if (!result.crashed.outOfMemory) {
          failure = result;
          console.error(run.tail.slice(-4000));
        }
      }
      results.push(result);
      if (failure !== null) break;
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  print(results);
  const totalSeconds = (performance.now() - started) / 1000;
  console.log(`\nwhole graph bench: ${totalSeconds.toFixed(0)} s`);
  const outDir = join('tests', 'bench', 'results');
  await mkdir(outDir, { recursive: true });
  await writeFile(
    join(outDir, 'graph.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, heapLimitMB: getHeapStatistics().heap_size_limit / 1048576, seed: SEED, vocabulary: 'english', searchLimit: SEARCH_LIMIT, totalSeconds, results }, null, 2)}\n`,
  );
  // Running out of memory is a result (reported above); any other failure fails the bench.
  if (failure !== null) process.exit(1);
}
