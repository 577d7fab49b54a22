// Benchmarks the sandbox (the built library, as users get it: a `worker_threads` Worker, SES
// lockdown, a Compartment per run, `mem` calls over messages) against its anchor, a plain
// `node:vm` context running the same prepared source with `mem` in-process, in the same run.
//   npm run bench            prints a table of ratios and writes tests/bench/results/sandbox.json
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import vm from 'node:vm';
import esbuild from 'esbuild';
import { DEFAULT_RUN_LIMITS, Sandbox, createNodeSandboxWorker, openVault } from '../../dist/recursa.mjs';
import { comparisonTable, medianTime as median } from './benchTools.mjs';

const FIRST_RUNS = 10;
const WARM_RUNS = 200;
const ROUND_TRIP_RUNS = 10;
/** `mem` calls in the round-trip run; at most the per-run limit. */
const CALLS = Math.min(1000, DEFAULT_RUN_LIMITS.maxMemCalls);
const TARGETS = { firstMs: 100, warmMs: 5, roundTripMs: 0.2 };

const EMPTY = 'return 1';
const LOOP = `for (let i = 0; i < ${CALLS}; i++) await mem.fileExists('a.md');\nreturn 1`;

/**
 * The library does not export `prepareCode` (Sandbox applies it to every run); bundle it from the
 * source so the anchor evaluates exactly what the worker evaluates.
 */
async function loadPrepareCode() {
  const built = await esbuild.build({
    entryPoints: ['src/core/sandbox/prepareCode.ts'],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    logLevel: 'error',
  });
  const module = { exports: {} };
  vm.runInThisContext(`(function (module, exports, require) {${built.outputFiles[0].text}\n})`, { filename: 'prepareCode.cjs' })(module, module.exports, createRequire(import.meta.url));
  return module.exports.prepareCode;
}


/** Fails the bench loudly if a run did not do what it measures. */
function check(result, what) {
  if (!result.ok || result.value !== 1) throw new Error(`${what}: the run failed: ${JSON.stringify(result)}`);
}

const prepareCode = await loadPrepareCode();
const source = (code) => {
  const prepared = prepareCode(code);
  if (!prepared.ok) throw new Error(`prepareCode refused the bench's code: ${JSON.stringify(prepared.error)}`);
  return prepared.source;
};
const emptySource = source(EMPTY);
const loopSource = source(LOOP);

const started = performance.now();
const dir = await mkdtemp(join(tmpdir(), 'recursa-sandbox-bench-'));
const { mem, close } = await openVault(dir, { watch: false, git: false });
await mem.writeFile('a.md', '# A\n');
const { rows, compare, print } = comparisonTable();

/** The anchor: a fresh `vm` context with the same globals the Compartment gets, `mem` called in-process. */
const vmContext = () => {
  const memStub = { fileExists: (path) => mem.fileExists(path) };
  const quiet = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
  return vm.createContext({ mem: memStub, console: quiet });
};
const vmRun = async (context, text) => {
  const value = await vm.runInContext(text, context)();
  if (value !== 1) throw new Error('the vm run failed');
};

let sandbox = null;
try {
  compare(
    'first run (worker start + lockdown + run)',
    await median(async () => {
      const fresh = new Sandbox(() => createNodeSandboxWorker(), mem);
      try {
        check(await fresh.run(EMPTY), 'first run');
      } finally {
        fresh.dispose();
      }
    }, FIRST_RUNS),
    TARGETS.firstMs,
    await median(() => vmRun(vmContext(), emptySource), FIRST_RUNS),
    'vm.createContext + runInContext',
  );

  sandbox = new Sandbox(() => createNodeSandboxWorker(), mem);
  for (let i = 0; i < 20; i++) check(await sandbox.run(EMPTY), 'warm-up');
  const warmContext = vmContext();
  for (let i = 0; i < 20; i++) await vmRun(warmContext, emptySource);
  const warmMs = await median(async () => check(await sandbox.run(EMPTY), 'warm run'), WARM_RUNS);
  const vmWarmMs = await median(() => vmRun(warmContext, emptySource), WARM_RUNS);
  compare('warm run', warmMs, TARGETS.warmMs, vmWarmMs, 'vm.runInContext');

  const prepareMs = await median(() => source(EMPTY), WARM_RUNS);
  compare(`prepareCode('${EMPTY}'), part of every run`, prepareMs, null, null, '—');

  check(await sandbox.run(LOOP), 'round-trip warm-up');
  const loopMs = await median(async () => {
    const result = await sandbox.run(LOOP);
    check(result, 'round-trip run');
    if (result.memCalls !== CALLS) throw new Error(`round-trip run: ${result.memCalls} mem calls, expected ${CALLS}`);
  }, ROUND_TRIP_RUNS);
  await vmRun(warmContext, loopSource);
  const vmLoopMs = await median(() => vmRun(warmContext, loopSource), ROUND_TRIP_RUNS);
  compare(
    `mem round-trip (fileExists, per call of ${CALLS})`,
    Math.max(0, loopMs - warmMs) / CALLS,
    TARGETS.roundTripMs,
    Math.max(0, vmLoopMs - vmWarmMs) / CALLS,
    'in-process call in vm',
  );
} finally {
  sandbox?.dispose();
  await close();
  await rm(dir, { recursive: true, force: true });
}

print();
const totalSeconds = (performance.now() - started) / 1000;
console.log(`\nwhole sandbox bench: ${totalSeconds.toFixed(1)} s`);
const out = join('tests', 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'sandbox.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs: { first: FIRST_RUNS, warm: WARM_RUNS, roundTrip: ROUND_TRIP_RUNS }, calls: CALLS, totalSeconds, rows }, null, 2)}\n`,
);
