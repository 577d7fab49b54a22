// Benchmarks the git half of Recursa (the built library, as users get it) against its anchor, the
// git CLI, and against a naive isomorphic-git plugin (no write-set: it must find its changes with
// statusMatrix), in the same run, on generated vaults of 1,000 and 10,000 notes. Each contender
// gets its own copy of the vault, so they never share a repository.
//   npm run bench                                      both sizes; writes tests/bench/results/git.json
//   node tests/bench/git.bench.mjs --notes 1000        one size (repeat or comma-separate for more)
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import git from 'isomorphic-git';
import { GIT_ROOT, NodeVaultPort, createGitFs, openVault } from '../../dist/recursa.mjs';
import { generateVault } from './generateVault.mjs';
import { timeOnce } from './benchTools.mjs';

const RUNS = 5;
const SEED = 20240611;
/** Longer than this (estimated from a smaller size) and the naive copy's repository is made by the CLI. */
const NAIVE_SETUP_BUDGET_MS = 120_000;
const TARGETS = { atNotes: 10_000, commitRatio: 2, changedFilesMs: 50 };
const AUTHOR = { name: 'Bench', email: 'bench@localhost' };

/** The git CLI, away from the machine's own config (hooks, signing, fsmonitor) so runs are comparable. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: AUTHOR.name,
  GIT_AUTHOR_EMAIL: AUTHOR.email,
  GIT_COMMITTER_NAME: AUTHOR.name,
  GIT_COMMITTER_EMAIL: AUTHOR.email,
};
const gitCli = (cwd, ...args) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });

function parseSizes(argv) {
  const sizes = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = arg === '--notes' ? argv[++i] : arg.startsWith('--notes=') ? arg.slice('--notes='.length) : null;
    if (value === null) throw new Error(`Unknown argument "${arg}"; use --notes 1000 (repeat or comma-separate for several sizes).`);
    for (const part of String(value).split(',')) {
      const n = Number(part.replace(/[_k]/gi, (c) => (c.toLowerCase() === 'k' ? '000' : '')));
      if (!Number.isInteger(n) || n < 10) throw new Error(`--notes wants a whole number of notes (at least 10), got "${part}".`);
      sizes.push(n);
    }
  }
  return sizes.length > 0 ? sizes : [1_000, 10_000];
}


/** `runs` runs of `run(r)`, which returns the milliseconds it measured (setup stays outside its timer). */
async function sample(run, runs = RUNS) {
  const times = [];
  for (let r = 0; r < runs; r++) times.push(await run(r));
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], runs: times.length, times };
}
const single = (ms) => ({ median: ms, min: ms, runs: 1, times: [ms] });

function check(condition, message) {
  if (!condition) throw new Error(`Correctness check failed: ${message}`);
}

/** After a commit: nothing left to commit (asked without refreshing the index), and HEAD has our message. */
function checkCommitted(dir, who, message) {
  const status = gitCli(dir, '--no-optional-locks', 'status', '--porcelain');
  check(status === '', `${who}: \`git status --porcelain\` after committing "${message}" is not empty:\n${status.slice(0, 2000)}`);
  const subject = gitCli(dir, 'log', '-1', '--format=%s').trim();
  check(subject === message, `${who}: \`git log -1 --format=%s\` is "${subject}", expected "${message}"`);
}

/** `git ls-tree -r HEAD` without Recursa's own `.gitignore`: the three copies must commit the same blobs. */
const committedFiles = (dir) => gitCli(dir, 'ls-tree', '-r', 'HEAD').split('\n').filter((line) => line !== '' && !line.endsWith('\t.gitignore')).join('\n');
function checkSameTrees(dirs, when) {
  const cli = committedFiles(dirs.cli);
  for (const who of ['ours', 'naive']) {
    check(committedFiles(dirs[who]) === cli, `${who}: HEAD's files ${when} differ from the CLI copy's (git ls-tree -r HEAD)`);
  }
}

const isClean = (matrix) => matrix.every(([, head, workdir, stage]) => head === 1 && workdir === 1 && stage === 1);
const dirtyRows = (matrix) => matrix.filter(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1));

/** Which notes run `r` edits: different for every run, spread over the vault. */
const editedNote = (files, r) => files[(r * 7919 + 101) % files.length];
const edited = (text, r) => `${text}\nEdited by bench run ${r}.\n`;

async function benchSize(notes, root, naiveRate) {
  const log = (text) => console.error(`[${notes} notes] ${text}`);
  const template = join(root, `template-${notes}`);
  const generated = await timeOnce(() => generateVault(template, { notes, seed: SEED }));
  const { files, bytes } = generated.value;
  log(`generated ${files.length} notes (${(bytes / 1048576).toFixed(1)} MiB) in ${(generated.ms / 1000).toFixed(1)} s`);
  const dirs = { cli: join(root, `cli-${notes}`), ours: join(root, `ours-${notes}`), naive: join(root, `naive-${notes}`) };
  for (const dir of Object.values(dirs)) await cp(template, dir, { recursive: true });
  await rm(template, { recursive: true, force: true });

  const rows = [];
  const extras = {};
  const row = (name, values, note = '') => rows.push({ name, ...values, note });

  // --- initial commit -------------------------------------------------------------------------
  const cliInit = await timeOnce(() => gitCli(dirs.cli, 'init', '-q', '-b', 'main'));
  const cliAddCommit = await timeOnce(() => {
    gitCli(dirs.cli, 'add', '-A');
    gitCli(dirs.cli, 'commit', '-q', '-m', 'snapshot');
  });
  checkCommitted(dirs.cli, 'CLI', 'snapshot');
  log(`CLI init + add -A + commit: ${(cliInit.ms + cliAddCommit.ms).toFixed(0)} ms`);

  const opened = await timeOnce(() => openVault(dirs.ours, { watch: false }));
  const { mem, git: history, close } = opened.value;
  check(history !== null, 'openVault gave no git service');
  const snapshot = await timeOnce(() => history.whenSnapshotDone());
  check(typeof snapshot.value === 'string', `whenSnapshotDone() gave ${snapshot.value}, expected the snapshot commit's hash`);
  const oursInitMs = opened.ms + snapshot.ms;
  log(`ours openVault ${opened.ms.toFixed(0)} ms + whenSnapshotDone ${snapshot.ms.toFixed(0)} ms`);
  extras.oursOpenVaultMs = opened.ms;
  extras.oursWhenSnapshotDoneMs = snapshot.ms;
  extras.cliInitMs = cliInit.ms;
  extras.cliAddCommitMs = cliAddCommit.ms;

  const port = await NodeVaultPort.open(dirs.naive, { watch: false });
  const fs = createGitFs(port);
  const iso = { fs, dir: GIT_ROOT };
  const estimate = naiveRate === null ? null : naiveRate * notes;
  let naiveInit;
  let naiveSetup;
  if (estimate !== null && estimate > NAIVE_SETUP_BUDGET_MS) {
    naiveSetup = `CLI (isomorphic-git init + add + commit estimated at ${(estimate / 1000).toFixed(0)} s from the smaller vault)`;
    log(`naive setup: ${naiveSetup}`);
    naiveInit = null;
    gitCli(dirs.naive, 'init', '-q', '-b', 'main');
    gitCli(dirs.naive, 'add', '-A');
    gitCli(dirs.naive, 'commit', '-q', '-m', 'snapshot');
    // The CLI's index holds real inode, device and owner numbers the vault port cannot report, so
    // isomorphic-git would hash every file on every status until one statusMatrix refreshes it.
    await git.statusMatrix({ ...iso, cache: {} });
  } else {
    naiveSetup = 'isomorphic-git init + add "." + commit';
    const made = await timeOnce(async () => {
      await git.init({ ...iso, defaultBranch: 'main' });
      await git.add({ ...iso, filepath: '.', cache: {} });
      await git.commit({ ...iso, message: 'snapshot', author: AUTHOR, cache: {} });
    });
    naiveInit = made.ms;
    log(`naive isomorphic-git init + add + commit: ${(made.ms / 1000).toFixed(1)} s`);
  }
  checkCommitted(dirs.naive, 'naive isomorphic-git', 'snapshot');
  checkCommitted(dirs.ours, 'ours', 'Snapshot of the vault when Recursa started keeping its history');
  checkSameTrees(dirs, 'after the initial commit');
  row('initial commit (init + add all + commit), 1 run', {
    ours: single(oursInitMs),
    cli: single(cliInit.ms + cliAddCommit.ms),
    naive: naiveInit === null ? null : single(naiveInit),
  }, `ours = openVault ${opened.ms.toFixed(0)} + whenSnapshotDone ${snapshot.ms.toFixed(0)} ms; CLI = init ${cliInit.ms.toFixed(0)} + add -A & commit ${cliAddCommit.ms.toFixed(0)} ms`);

  // --- full working-tree check ----------------------------------------------------------------
  const verified = await timeOnce(() => history.verifyChangedFiles());
  check(verified.value.length === 0, `ours verifyChangedFiles() on the fresh snapshot gave ${JSON.stringify(verified.value.slice(0, 10))}`);
  const cliFirstStatus = await timeOnce(() => gitCli(dirs.cli, 'status', '--porcelain'));
  check(cliFirstStatus.value === '', 'CLI: `git status --porcelain` after the initial commit is not empty');
  const coldMatrix = await timeOnce(() => git.statusMatrix({ ...iso, cache: {} }));
  check(isClean(coldMatrix.value), `naive statusMatrix after the initial commit is not clean: ${JSON.stringify(dirtyRows(coldMatrix.value).slice(0, 10))}`);
  row('full working-tree check, 1 run', { ours: single(verified.ms), cli: single(cliFirstStatus.ms), naive: single(coldMatrix.ms) },
    'ours verifyChangedFiles(); CLI first `git status --porcelain`; naive statusMatrix, fresh cache');

  // --- commit of 1 changed file ---------------------------------------------------------------
  const oursCommit = await sample(async (r) => {
    const path = editedNote(files, r);
    const message = `bench: edit ${r}`;
    await mem.writeFile(path, edited(await mem.readFile(path), r));
    const { ms } = await timeOnce(() => mem.commitChanges(message));
    checkCommitted(dirs.ours, 'ours', message);
    return ms;
  });
  const cliCommit = await sample(async (r) => {
    const path = editedNote(files, r);
    const message = `bench: edit ${r}`;
    const file = join(dirs.cli, path);
    await writeFile(file, edited(await readFile(file, 'utf8'), r));
    const { ms } = await timeOnce(() => {
      gitCli(dirs.cli, 'add', '--', path);
      gitCli(dirs.cli, 'commit', '-q', '-m', message);
    });
    checkCommitted(dirs.cli, 'CLI', message);
    return ms;
  });
  const naiveCache = {};
  const naiveCommit = await sample(async (r) => {
    const path = editedNote(files, r);
    const message = `bench: edit ${r}`;
    const file = join(dirs.naive, path);
    await writeFile(file, edited(await readFile(file, 'utf8'), r));
    const { ms, value: committed } = await timeOnce(async () => {
      const changed = dirtyRows(await git.statusMatrix({ ...iso, cache: naiveCache }));
      const gone = changed.filter(([, , workdir]) => workdir === 0).map(([filepath]) => filepath);
      const present = changed.filter(([, , workdir]) => workdir !== 0).map(([filepath]) => filepath);
      if (present.length > 0) await git.add({ ...iso, filepath: present, cache: naiveCache });
      for (const filepath of gone) await git.remove({ ...iso, filepath, cache: naiveCache });
      await git.commit({ ...iso, message, author: AUTHOR, cache: naiveCache });
      return changed.map(([filepath]) => filepath);
    });
    check(committed.length === 1 && committed[0] === path, `naive statusMatrix found ${JSON.stringify(committed)} changed, expected ["${path}"]`);
    checkCommitted(dirs.naive, 'naive isomorphic-git', message);
    return ms;
  });
  checkSameTrees(dirs, `after ${RUNS} commits`);
  row(`commit 1 changed file, median of ${RUNS}`, { ours: oursCommit, cli: cliCommit, naive: naiveCommit },
    'ours mem.commitChanges(); CLI `git add <path>` + `git commit` (2 spawns); naive statusMatrix + add + commit');

  // --- changed files on a clean tree ----------------------------------------------------------
  const firstAfter = await timeOnce(() => history.changedFiles());
  check(firstAfter.value.length === 0, `ours changedFiles() after the commits gave ${JSON.stringify(firstAfter.value)}`);
  extras.oursFirstChangedFilesAfterCommitsMs = firstAfter.ms;
  const oursChanged = await sample(async () => {
    const { ms, value } = await timeOnce(() => history.changedFiles());
    check(value.length === 0, `ours changedFiles() on the clean tree gave ${JSON.stringify(value)}`);
    return ms;
  });
  const cliStatus = await sample(() => {
    const { ms, value } = timeSync(() => gitCli(dirs.cli, 'status', '--porcelain'));
    check(value === '', `CLI: \`git status --porcelain\` on the clean tree gave:\n${value.slice(0, 2000)}`);
    return ms;
  });
  const warmCache = {};
  check(isClean(await git.statusMatrix({ ...iso, cache: warmCache })), 'naive statusMatrix (warm-up) is not clean');
  const naiveStatus = await sample(async () => {
    const { ms, value } = await timeOnce(() => git.statusMatrix({ ...iso, cache: warmCache }));
    check(isClean(value), `naive statusMatrix on the clean tree is not clean: ${JSON.stringify(dirtyRows(value).slice(0, 10))}`);
    return ms;
  });
  const coldAfter = await timeOnce(() => git.statusMatrix({ ...iso, cache: {} }));
  check(isClean(coldAfter.value), 'naive statusMatrix (cold) on the clean tree is not clean');
  extras.naiveStatusMatrixColdMs = coldAfter.ms;
  row(`changed files, clean tree, median of ${RUNS}`, { ours: oursChanged, cli: cliStatus, naive: naiveStatus },
    `ours git.changedFiles() (first call after the commits: ${firstAfter.ms.toFixed(1)} ms); CLI \`git status --porcelain\`; naive statusMatrix warm (cold: ${coldAfter.ms.toFixed(0)} ms)`);

  await close();
  port.close();
  for (const who of ['ours', 'naive']) {
    try {
      gitCli(dirs[who], 'fsck', '--no-dangling', '--no-progress');
    } catch (error) {
      check(false, `${who}: \`git fsck\` found problems:\n${String(error.stderr ?? error).slice(0, 2000)}`);
    }
  }
  for (const dir of Object.values(dirs)) await rm(dir, { recursive: true, force: true });

  for (const r of rows) {
    r.oursOverCli = r.ours.median / r.cli.median;
    r.naiveOverCli = r.naive === null ? null : r.naive.median / r.cli.median;
    r.naiveOverOurs = r.naive === null ? null : r.naive.median / r.ours.median;
  }
  const commitRow = rows.find((r) => r.name.startsWith('commit 1'));
  const changedRow = rows.find((r) => r.name.startsWith('changed files'));
  const targets = {
    applies: notes >= TARGETS.atNotes,
    commit: { target: `ours ≤ ${TARGETS.commitRatio}× CLI`, value: commitRow.oursOverCli, met: commitRow.oursOverCli <= TARGETS.commitRatio },
    changedFiles: { target: `ours < ${TARGETS.changedFilesMs} ms`, value: changedRow.ours.median, met: changedRow.ours.median < TARGETS.changedFilesMs },
  };
  return { notes, files: files.length, bytes, generateMs: generated.ms, naiveSetup, naiveSetupMsPerNote: naiveInit === null ? null : naiveInit / notes, rows, extras, targets };
}

function timeSync(task) {
  const start = performance.now();
  const value = task();
  return { ms: performance.now() - start, value };
}

const ms = (m) => (m < 10 ? m.toFixed(2) : m < 100 ? m.toFixed(1) : m.toFixed(0));
const cell = (stat) => (stat === null ? '—' : stat.runs === 1 ? ms(stat.median) : `${ms(stat.median)} (min ${ms(stat.min)})`);
const ratio = (value) => (value === null ? '—' : `${value.toFixed(2)}×`);

function print(results) {
  console.log('| notes | operation | ours (ms) | git CLI (ms) | naive isomorphic-git (ms) | ours ÷ CLI | naive ÷ CLI | naive ÷ ours | target |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
  for (const result of results) {
    for (const r of result.rows) {
      let target = '';
      const t = result.targets;
      const scope = t.applies ? '' : ` (target is for ${TARGETS.atNotes / 1000}k)`;
      if (r.name.startsWith('commit 1')) target = `${t.commit.target}: ${t.commit.met ? 'met' : 'MISSED'}${scope}`;
      if (r.name.startsWith('changed files')) target = `${t.changedFiles.target}: ${t.changedFiles.met ? 'met' : 'MISSED'}${scope}`;
      console.log(`| ${result.notes} | ${r.name} | ${cell(r.ours)} | ${cell(r.cli)} | ${cell(r.naive)} | ${ratio(r.oursOverCli)} | ${ratio(r.naiveOverCli)} | ${ratio(r.naiveOverOurs)} | ${target} |`);
    }
  }
  console.log('');
  for (const result of results) {
    console.log(`${result.notes} notes (${(result.bytes / 1048576).toFixed(1)} MiB, generated in ${(result.generateMs / 1000).toFixed(1)} s); naive copy's repository: ${result.naiveSetup}`);
    for (const r of result.rows) console.log(`  ${r.name}: ${r.note}`);
  }
}

const sizes = parseSizes(process.argv.slice(2));
const started = performance.now();
const root = await mkdtemp(join(tmpdir(), 'recursa-git-bench-'));
const results = [];
try {
  let naiveRate = null;
  for (const notes of sizes) {
    const result = await benchSize(notes, root, naiveRate);
    results.push(result);
    if (result.naiveSetupMsPerNote !== null) naiveRate = result.naiveSetupMsPerNote;
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
print(results);
const totalSeconds = (performance.now() - started) / 1000;
console.log(`\nwhole git bench: ${totalSeconds.toFixed(0)} s`);
const out = join('tests', 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'git.json'), `${JSON.stringify({
  date: new Date().toISOString(),
  node: process.version,
  git: gitCli(process.cwd(), '--version').trim(),
  isomorphicGit: git.version(),
  runs: RUNS,
  seed: SEED,
  totalSeconds,
  results,
}, null, 2)}\n`);
