// Benchmarks the git half of Recursa (the built library, as users get it) in one run, on generated
// vaults of 1,000 and 10,000 notes, against its anchors measured side by side in the same run:
// isomorphic-git used the way a plugin that knows its changed paths would use it, the git CLI, and
// a naive isomorphic-git plugin (no write-set: it must find its changes with statusMatrix). Each
// contender gets its own copy of the vault, so they never share a repository, and every measured
// commit is checked with the git CLI (status, log, the paths it changed, the same trees, fsck).
//
// The headline, with a target each (PASS/FAIL):
//   1. agent commit of 1 changed file: `mem.writeFile` (reported apart) then `mem.commitChanges`
//      (timed), against isomorphic-git `add({ filepath })` + `commit` on a repository holding the
//      same content (≤ 1.0×) and against `git add <path> && git commit` (≤ 2×);
//   2. first snapshot: `openVault` on a folder with no `.git` until `git.whenSnapshotDone()`,
//      against `git init && git add -A && git commit` (≤ 2×);
//   3. agent commit right after `openVault`, while the graph and search index is still being
//      built in the background, against the CLI's commit of the same edit (≤ 2×); a run whose
//      build had already finished when the commit started makes the row INVALID, not PASS.
//   npm run bench                                      both sizes; writes tests/bench/results/git.json
//   node tests/bench/git.bench.mjs --notes 1000        one size (repeat or comma-separate for more)
import { execFileSync } from 'node:child_process';
import nodeFs from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import git from 'isomorphic-git';
import { GIT_ROOT, NodeVaultPort, SNAPSHOT_MESSAGE, createGitFs, openVault } from '../../dist/recursa.mjs';
import { generateVault } from './generateVault.mjs';
import { timeOnce } from './benchTools.mjs';

/** Runs of the one-file commit (each contender, taking turns). */
const COMMIT_RUNS = 7;
/** Runs of the first snapshot (each on fresh copies). */
const SNAPSHOT_RUNS = 5;
/** Runs of open-then-commit while the index is built (each reopens the vault). */
const REOPEN_RUNS = 5;
/** Runs of the changed-files check on a clean tree. */
const STATUS_RUNS = 5;
const SEED = 20240611;
/** Longer than this (estimated from a smaller size) and the naive copy's repository is made by the CLI. */
const NAIVE_SETUP_BUDGET_MS = 120_000;
/** The headline targets: ours ÷ anchor, medians, at every size. */
const HEADLINE_TARGETS = { commitOverIsomorphicGit: 1.0, commitOverCli: 2, snapshotOverCli: 2, commitWhileIndexingOverCli: 2 };
/** Older targets, kept beside the rows they belong to. */
const TARGETS = { atNotes: 10_000, changedFilesMs: 50 };
const AUTHOR = { name: 'Bench', email: 'bench@localhost' };
/**
 * How ours opens the vault everywhere: as `openVault(dir)` (git and the graph index on) but without
 * watching the folder with fs.watch (the plugin gets Obsidian's vault events instead), so no
 * watcher reacts to the bench's own writes or to `.git`.
 */
const OPEN = { watch: false };

/**
 * The git CLI, away from the machine's own config (hooks, signing, fsmonitor) and from any GIT_*
 * variable of the caller's (GIT_DIR, GIT_INDEX_FILE… from a hook), so runs are comparable.
 */
const GIT_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_'))),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: AUTHOR.name,
  GIT_AUTHOR_EMAIL: AUTHOR.email,
  GIT_COMMITTER_NAME: AUTHOR.name,
  GIT_COMMITTER_EMAIL: AUTHOR.email,
  // No `gc --auto`: after a snapshot's 10,000 loose objects it repacks in the background, while
  // the bench goes on measuring and then removes the folder under it.
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'gc.auto',
  GIT_CONFIG_VALUE_0: '0',
};
const gitCli = (cwd, ...args) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
/** The CLI's first commit of a folder: 3 spawns. */
const cliSnapshot = (dir) => {
  gitCli(dir, 'init', '-q', '-b', 'main');
  gitCli(dir, 'add', '-A');
  gitCli(dir, 'commit', '-q', '-m', 'snapshot');
};
/** The CLI's commit of one changed file: 2 spawns. */
const cliCommitOne = (dir, path, message) => {
  gitCli(dir, 'add', '--', path);
  gitCli(dir, 'commit', '-q', '-m', message);
};

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

/** Median (the upper middle of an even count), min and every sample. */
function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], runs: times.length, times };
}

/** `runs` runs of `run(r)`, which returns the milliseconds it measured (setup stays outside its timer). */
async function sample(run, runs) {
  const times = [];
  for (let r = 0; r < runs; r++) times.push(await run(r));
  return stats(times);
}
const single = (ms) => stats([ms]);

/** `list` turned `by` places, so who goes first changes from run to run. */
const rotate = (list, by) => list.map((_, i) => list[(i + by) % list.length]);

/**
 * `runs` runs of every contender (`name → run(r)`, returning the milliseconds it measured), taking
 * turns within each run, who goes first rotating: a change in the machine's load falls on all alike.
 */
async function interleaved(contenders, runs) {
  const names = Object.keys(contenders);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < runs; r++) {
    for (const name of rotate(names, r)) times[name].push(await contenders[name](r));
  }
  return Object.fromEntries(names.map((name) => [name, stats(times[name])]));
}

function check(condition, message) {
  if (!condition) throw new Error(`Correctness check failed: ${message}`);
}

/**
 * After a commit: nothing left to commit (asked without refreshing the index), HEAD has our
 * message, and, given `path`, HEAD changed exactly that file from its parent.
 */
function checkCommitted(dir, who, message, path = null) {
  const status = gitCli(dir, '--no-optional-locks', 'status', '--porcelain');
  check(status === '', `${who}: \`git status --porcelain\` after committing "${message}" is not empty:\n${status.slice(0, 2000)}`);
  const subject = gitCli(dir, 'log', '-1', '--format=%s').trim();
  check(subject === message, `${who}: \`git log -1 --format=%s\` is "${subject}", expected "${message}"`);
  if (path !== null) {
    const changed = gitCli(dir, 'diff-tree', '--no-commit-id', '--name-only', '-r', '-z', 'HEAD').split('\0').filter((name) => name !== '');
    check(changed.length === 1 && changed[0] === path, `${who}: HEAD ("${message}") changed ${JSON.stringify(changed)}, expected ["${path}"]`);
  }
}

/** `git ls-tree -r HEAD` without Recursa's own `.gitignore`: the copies must commit the same blobs. */
const committedFiles = (dir) => gitCli(dir, 'ls-tree', '-r', 'HEAD').split('\n').filter((line) => line !== '' && !line.endsWith('\t.gitignore')).join('\n');
function checkSameTrees(dirs, names, when) {
  const cli = committedFiles(dirs.cli);
  for (const who of names) {
    check(committedFiles(dirs[who]) === cli, `${who}: HEAD's files ${when} differ from the CLI copy's (git ls-tree -r HEAD)`);
  }
}

function checkFsck(dir, who) {
  try {
    gitCli(dir, 'fsck', '--strict', '--no-dangling', '--no-progress');
  } catch (error) {
    check(false, `${who}: \`git fsck\` found problems:\n${String(error.stderr ?? error).slice(0, 2000)}`);
  }
}

const isClean = (matrix) => matrix.every(([, head, workdir, stage]) => head === 1 && workdir === 1 && stage === 1);
const dirtyRows = (matrix) => matrix.filter(([, head, workdir, stage]) => !(head === 1 && workdir === 1 && stage === 1));

/** Which note edit number `e` changes: a different one for every edit, spread over the vault. */
const editedNote = (files, e) => files[(e * 7919 + 101) % files.length];
const edited = (text, e) => `${text}\nEdited by bench run ${e}.\n`;

/** A headline row: ours against one anchor, with its target; `valid: false` fails it whatever the ratio. */
function headlineRow(id, name, ours, anchorLabel, anchorName, anchor, target, { valid = true, note = '', pairedRatios = null } = {}) {
  // Where each run timed ours and the anchor back to back, the median of those per-run ratios:
  // load that drifts between runs (seconds-long runs on a shared machine) then cancels out.
  const ratio = pairedRatios === null ? ours.median / anchor.median : stats(pairedRatios).median;
  const met = ratio <= target;
  return { id, name, ours, anchorName, anchor, ratio, target: `ours ≤ ${target}× ${anchorLabel}`, targetRatio: target, met, valid, result: !valid ? 'INVALID' : met ? 'PASS' : 'FAIL', note };
}

async function benchSize(notes, root, naiveRate) {
  const log = (text) => console.error(`[${notes} notes] ${text}`);
  const template = join(root, `template-${notes}`);
  const generated = await timeOnce(() => generateVault(template, { notes, seed: SEED }));
  const { files, bytes } = generated.value;
  log(`generated ${files.length} notes (${(bytes / 1048576).toFixed(1)} MiB) in ${(generated.ms / 1000).toFixed(1)} s`);

  const rows = [];
  const other = [];
  const extras = {};
  const row = (name, values, note = '') => rows.push({ name, ...values, note });

  // --- headline 2: first snapshot, on fresh copies every run ---------------------------------
  // ours as users open it (the graph index is built alongside), ours with `graph: false` (the git
  // work alone), and the CLI; the copies of the last run go on to the commits below.
  const snapshotTimes = { cli: [], ours: [], oursNoGraph: [] };
  const snapshotRuns = [];
  const dirs = {};
  let ours = null;
  for (let r = 0; r < SNAPSHOT_RUNS; r++) {
    const last = r === SNAPSHOT_RUNS - 1;
    const run = { cli: join(root, `cli-${notes}-${r}`), ours: join(root, `ours-${notes}-${r}`), oursNoGraph: join(root, `ours-no-graph-${notes}-${r}`) };
    for (const dir of Object.values(run)) await cp(template, dir, { recursive: true });
    const detail = { run: r };
    for (const who of rotate(['cli', 'ours', 'oursNoGraph'], r)) {
      if (who === 'cli') {
        const made = await timeOnce(() => cliSnapshot(run.cli));
        checkCommitted(run.cli, 'CLI', 'snapshot');
        snapshotTimes.cli.push(made.ms);
        detail.cliMs = made.ms;
        continue;
      }
      const start = performance.now();
      const opened = await openVault(run[who], who === 'ours' ? OPEN : { ...OPEN, graph: false });
      const openMs = performance.now() - start;
      check(opened.git !== null, `${who}: openVault gave no git service`);
      const hash = await opened.git.whenSnapshotDone();
      const ms = performance.now() - start;
      check(typeof hash === 'string' && /^[0-9a-f]{40}$/.test(hash), `${who}: whenSnapshotDone() gave ${hash}, expected the snapshot commit's hash`);
      check(gitCli(run[who], 'rev-parse', 'HEAD').trim() === hash, `${who}: HEAD is not the hash whenSnapshotDone() gave`);
      checkCommitted(run[who], who, SNAPSHOT_MESSAGE);
      snapshotTimes[who].push(ms);
      detail[`${who}Ms`] = ms;
      detail[`${who}OpenVaultMs`] = openMs;
      if (who === 'ours' && last) ours = opened;
      else await opened.close();
    }
    checkSameTrees(run, ['ours', 'oursNoGraph'], `after the first snapshot (run ${r + 1})`);
    snapshotRuns.push(detail);
    log(`first snapshot, run ${r + 1}/${SNAPSHOT_RUNS}: CLI ${detail.cliMs.toFixed(0)} ms, ours ${detail.oursMs.toFixed(0)} ms, ours without the graph index ${detail.oursNoGraphMs.toFixed(0)} ms`);
    await rm(run.oursNoGraph, { recursive: true, force: true });
    if (last) {
      dirs.cli = run.cli;
      dirs.ours = run.ours;
    } else {
      await rm(run.cli, { recursive: true, force: true });
      await rm(run.ours, { recursive: true, force: true });
    }
  }
  const snapshot = { cli: stats(snapshotTimes.cli), ours: stats(snapshotTimes.ours), oursNoGraph: stats(snapshotTimes.oursNoGraph) };
  extras.snapshotRuns = snapshotRuns;
  other.push({ name: `first snapshot, graph: false (the git work alone), median of ${SNAPSHOT_RUNS}`, value: snapshot.oursNoGraph, anchorName: 'git CLI init + add -A + commit', anchor: snapshot.cli });

  // The graph index the snapshot's openVault started is left to finish: the commits below measure git alone.
  const graphWait = await timeOnce(() => ours.graph.build());
  extras.oursGraphBuildLeftAfterSnapshotMs = graphWait.ms;

  // --- the other contenders' repositories (setup, not timed) ---------------------------------
  // isomorphic-git's own copies hold the same content committed by the CLI: the fair baseline is
  // a repository that already exists, as ours has one (its snapshot).
  dirs.iso = join(root, `iso-${notes}`);
  dirs.isoPort = join(root, `iso-port-${notes}`);
  dirs.naive = join(root, `naive-${notes}`);
  for (const who of ['iso', 'isoPort', 'naive']) await cp(template, dirs[who], { recursive: true });
  await rm(template, { recursive: true, force: true });
  cliSnapshot(dirs.iso);
  cliSnapshot(dirs.isoPort);
  const isoPortPort = await NodeVaultPort.open(dirs.isoPort, { watch: false });
  const isoFs = { fs: nodeFs, dir: dirs.iso };
  const isoPortFs = { fs: createGitFs(isoPortPort), dir: GIT_ROOT };

  const port = await NodeVaultPort.open(dirs.naive, { watch: false });
  const iso = { fs: createGitFs(port), dir: GIT_ROOT };
  const estimate = naiveRate === null ? null : naiveRate * notes;
  let naiveInit;
  let naiveSetup;
  if (estimate !== null && estimate > NAIVE_SETUP_BUDGET_MS) {
    naiveSetup = `CLI (isomorphic-git init + add + commit estimated at ${(estimate / 1000).toFixed(0)} s from the smaller vault)`;
    log(`naive setup: ${naiveSetup}`);
    naiveInit = null;
    cliSnapshot(dirs.naive);
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
  checkSameTrees(dirs, ['ours', 'iso', 'isoPort', 'naive'], 'after the initial commit');
  row(`initial commit (init + add all + commit), ours and CLI median of ${SNAPSHOT_RUNS}`, {
    ours: snapshot.ours,
    cli: snapshot.cli,
    naive: naiveInit === null ? null : single(naiveInit),
  }, 'ours = openVault + whenSnapshotDone (graph index built alongside); CLI = init + add -A + commit (3 spawns); naive 1 run');

  // --- full working-tree check ----------------------------------------------------------------
  const history = ours.git;
  const verified = await timeOnce(() => history.verifyChangedFiles());
  check(verified.value.length === 0, `ours verifyChangedFiles() on the fresh snapshot gave ${JSON.stringify(verified.value.slice(0, 10))}`);
  const cliFirstStatus = await timeOnce(() => gitCli(dirs.cli, 'status', '--porcelain'));
  check(cliFirstStatus.value === '', 'CLI: `git status --porcelain` after the initial commit is not empty');
  const coldMatrix = await timeOnce(() => git.statusMatrix({ ...iso, cache: {} }));
  check(isClean(coldMatrix.value), `naive statusMatrix after the initial commit is not clean: ${JSON.stringify(dirtyRows(coldMatrix.value).slice(0, 10))}`);
  row('full working-tree check, 1 run', { ours: single(verified.ms), cli: single(cliFirstStatus.ms), naive: single(coldMatrix.ms) },
    'ours verifyChangedFiles(); CLI first `git status --porcelain`; naive statusMatrix, fresh cache');

  // --- headline 1: commit of 1 changed file ---------------------------------------------------
  // Edits 0 … COMMIT_RUNS-1, the same file with the same new text in every copy, the contenders
  // taking turns. Only the commit is timed; ours' write is timed apart.
  const oursWrites = [];
  const naiveCache = {};
  const editOnDisk = async (dir, path, e) => {
    const file = join(dir, path);
    await writeFile(file, edited(await readFile(file, 'utf8'), e));
  };
  const isoCommitOne = (who, dir, repo) => {
    const cache = {};
    return async (e) => {
      const path = editedNote(files, e);
      const message = `bench: edit ${e}`;
      await editOnDisk(dir, path, e);
      const { ms, value: hash } = await timeOnce(async () => {
        await git.add({ ...repo, filepath: path, cache });
        return git.commit({ ...repo, message, author: AUTHOR, cache });
      });
      checkCommitted(dir, who, message, path);
      check(gitCli(dir, 'rev-parse', 'HEAD').trim() === hash, `${who}: HEAD is not the hash git.commit() gave (${hash})`);
      return ms;
    };
  };
  const commit1 = await interleaved({
    ours: async (e) => {
      const path = editedNote(files, e);
      const message = `bench: edit ${e}`;
      const text = edited(await ours.mem.readFile(path), e);
      const write = await timeOnce(() => ours.mem.writeFile(path, text));
      oursWrites.push(write.ms);
      const { ms, value: hash } = await timeOnce(() => ours.mem.commitChanges(message));
      checkCommitted(dirs.ours, 'ours', message, path);
      check(gitCli(dirs.ours, 'rev-parse', 'HEAD').trim() === hash, `ours: HEAD is not the hash commitChanges() gave (${hash})`);
      return ms;
    },
    iso: isoCommitOne('isomorphic-git', dirs.iso, isoFs),
    isoPort: isoCommitOne('isomorphic-git over the vault port', dirs.isoPort, isoPortFs),
    cli: async (e) => {
      const path = editedNote(files, e);
      const message = `bench: edit ${e}`;
      await editOnDisk(dirs.cli, path, e);
      const { ms } = await timeOnce(() => cliCommitOne(dirs.cli, path, message));
      checkCommitted(dirs.cli, 'CLI', message, path);
      return ms;
    },
    naive: async (e) => {
      const path = editedNote(files, e);
      const message = `bench: edit ${e}`;
      await editOnDisk(dirs.naive, path, e);
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
      checkCommitted(dirs.naive, 'naive isomorphic-git', message, path);
      return ms;
    },
  }, COMMIT_RUNS);
  checkSameTrees(dirs, ['ours', 'iso', 'isoPort', 'naive'], `after ${COMMIT_RUNS} one-file commits`);
  const oursWrite = stats(oursWrites);
  extras.oursWriteFile = oursWrite;
  log(`one-file commit, medians: ours ${commit1.ours.median.toFixed(1)} ms (write ${oursWrite.median.toFixed(1)} ms apart), isomorphic-git ${commit1.iso.median.toFixed(1)} ms, CLI ${commit1.cli.median.toFixed(1)} ms`);
  row(`commit 1 changed file, median of ${COMMIT_RUNS}`, { ours: commit1.ours, cli: commit1.cli, naive: commit1.naive },
    'ours mem.commitChanges(); CLI `git add <path>` + `git commit` (2 spawns); naive statusMatrix + add + commit');
  other.push({ name: `commit 1 changed file: isomorphic-git add(path) + commit over the vault port (createGitFs), median of ${COMMIT_RUNS}`, value: commit1.isoPort, anchorName: 'ours mem.commitChanges()', anchor: commit1.ours });
  other.push({ name: `ours mem.writeFile() before each commit (not in the commit's time), median of ${COMMIT_RUNS}`, value: oursWrite, anchorName: null, anchor: null });

  // --- changed files on a clean tree ----------------------------------------------------------
  const firstAfter = await timeOnce(() => history.changedFiles());
  check(firstAfter.value.length === 0, `ours changedFiles() after the commits gave ${JSON.stringify(firstAfter.value)}`);
  extras.oursFirstChangedFilesAfterCommitsMs = firstAfter.ms;
  const oursChanged = await sample(async () => {
    const { ms, value } = await timeOnce(() => history.changedFiles());
    check(value.length === 0, `ours changedFiles() on the clean tree gave ${JSON.stringify(value)}`);
    return ms;
  }, STATUS_RUNS);
  const cliStatus = await sample(() => {
    const { ms, value } = timeSync(() => gitCli(dirs.cli, 'status', '--porcelain'));
    check(value === '', `CLI: \`git status --porcelain\` on the clean tree gave:\n${value.slice(0, 2000)}`);
    return ms;
  }, STATUS_RUNS);
  const warmCache = {};
  check(isClean(await git.statusMatrix({ ...iso, cache: warmCache })), 'naive statusMatrix (warm-up) is not clean');
  const naiveStatus = await sample(async () => {
    const { ms, value } = await timeOnce(() => git.statusMatrix({ ...iso, cache: warmCache }));
    check(isClean(value), `naive statusMatrix on the clean tree is not clean: ${JSON.stringify(dirtyRows(value).slice(0, 10))}`);
    return ms;
  }, STATUS_RUNS);
  const coldAfter = await timeOnce(() => git.statusMatrix({ ...iso, cache: {} }));
  check(isClean(coldAfter.value), 'naive statusMatrix (cold) on the clean tree is not clean');
  extras.naiveStatusMatrixColdMs = coldAfter.ms;
  row(`changed files, clean tree, median of ${STATUS_RUNS}`, { ours: oursChanged, cli: cliStatus, naive: naiveStatus },
    `ours git.changedFiles() (first call after the commits: ${firstAfter.ms.toFixed(1)} ms); CLI \`git status --porcelain\`; naive statusMatrix warm (cold: ${coldAfter.ms.toFixed(0)} ms)`);

  await ours.close();
  ours = null;
  port.close();
  isoPortPort.close();

  // --- headline 3: commit right after openVault, while the index is being built ----------------
  // Every run reopens the vault (its repository exists: no snapshot), which starts the graph and
  // search index build in the background, then writes one note and commits it at once. The same
  // edit is committed by the CLI. As a control, ours also reopens with `graph: false` and commits
  // another note (its first commit after opening, with nothing else running).
  const indexing = [];
  const noGraphRuns = [];
  const cliControl = [];
  const reopenCommit = (withGraph) => async (r) => {
    const e = COMMIT_RUNS + 2 * r + (withGraph ? 0 : 1);
    const path = editedNote(files, e);
    const message = `bench: edit ${e}`;
    const text = edited(await readFile(join(dirs.ours, path), 'utf8'), e);
    const start = performance.now();
    const opened = await openVault(dirs.ours, withGraph ? OPEN : { ...OPEN, graph: false });
    const openMs = performance.now() - start;
    check((opened.graph !== null) === withGraph, `ours: openVault(${withGraph ? '' : 'graph: false'}) gave ${opened.graph === null ? 'no' : 'a'} graph index`);
    let buildMs = null;
    const built = () => {
      buildMs = performance.now() - start;
    };
    opened.graph?.build().then(built, built);
    const write = await timeOnce(() => opened.mem.writeFile(path, text));
    // The build promise settles in a microtask; the write awaited real I/O, so `buildMs` is current.
    const buildingAtStart = withGraph && buildMs === null;
    const { ms, value: hash } = await timeOnce(() => opened.mem.commitChanges(message));
    const buildingAtEnd = withGraph && buildMs === null;
    checkCommitted(dirs.ours, withGraph ? 'ours (graph index building)' : 'ours (graph: false)', message, path);
    check(gitCli(dirs.ours, 'rev-parse', 'HEAD').trim() === hash, `ours: HEAD is not the hash commitChanges() gave (${hash})`);
    await opened.close(); // waits for the build to end
    const detail = { run: r, path, openMs, writeMs: write.ms, commitMs: ms };
    if (withGraph) indexing.push({ ...detail, buildingAtStart, buildingAtEnd, buildMs });
    else noGraphRuns.push(detail);
    return ms;
  };
  const reopened = await interleaved({
    ours: reopenCommit(true),
    oursNoGraph: reopenCommit(false),
    cli: async (r) => {
      let timed = 0;
      for (const withGraph of [true, false]) {
        const e = COMMIT_RUNS + 2 * r + (withGraph ? 0 : 1);
        const path = editedNote(files, e);
        const message = `bench: edit ${e}`;
        await editOnDisk(dirs.cli, path, e);
        const { ms } = await timeOnce(() => cliCommitOne(dirs.cli, path, message));
        checkCommitted(dirs.cli, 'CLI', message, path);
        if (withGraph) timed = ms;
        else cliControl.push(ms);
      }
      return timed;
    },
  }, REOPEN_RUNS);
  checkSameTrees(dirs, ['ours'], `after the commits made while the index was built (${REOPEN_RUNS} runs)`);
  const buildingAtStart = indexing.filter((run) => run.buildingAtStart).length;
  const buildingAtEnd = indexing.filter((run) => run.buildingAtEnd).length;
  extras.commitWhileIndexing = { runs: indexing, buildingAtStart, buildingAtEnd, writeFile: stats(indexing.map((run) => run.writeMs)), openVault: stats(indexing.map((run) => run.openMs)), graphBuild: stats(indexing.map((run) => run.buildMs)) };
  extras.commitAfterReopenNoGraph = { runs: noGraphRuns, cli: stats(cliControl) };
  log(`commit while the index is built: ours ${reopened.ours.median.toFixed(1)} ms, CLI ${reopened.cli.median.toFixed(1)} ms; build still running at the commit's start in ${buildingAtStart}/${REOPEN_RUNS} runs, at its end in ${buildingAtEnd}/${REOPEN_RUNS}`);
  other.push({ name: `control: first commit after openVault with graph: false, median of ${REOPEN_RUNS}`, value: reopened.oursNoGraph, anchorName: 'git CLI add <path> + commit', anchor: stats(cliControl) });

  for (const who of Object.keys(dirs)) checkFsck(dirs[who], who);
  for (const dir of Object.values(dirs)) await rm(dir, { recursive: true, force: true });

  for (const r of rows) {
    r.oursOverCli = r.ours.median / r.cli.median;
    r.naiveOverCli = r.naive === null ? null : r.naive.median / r.cli.median;
    r.naiveOverOurs = r.naive === null ? null : r.naive.median / r.ours.median;
  }
  for (const o of other) o.ratio = o.anchor === null ? null : o.value.median / o.anchor.median;

  const indexingNote = `the index build was still running when the commit started in ${buildingAtStart}/${REOPEN_RUNS} runs and when it ended in ${buildingAtEnd}/${REOPEN_RUNS} (build: median ${ms(extras.commitWhileIndexing.graphBuild.median)} ms from openVault's start; openVault ${ms(extras.commitWhileIndexing.openVault.median)} ms and writeFile ${ms(extras.commitWhileIndexing.writeFile.median)} ms before the commit, not timed)`;
  const headline = [
    headlineRow('commit-vs-isomorphic-git', `agent commit of 1 changed file, median of ${COMMIT_RUNS}`, commit1.ours, 'isomorphic-git',
      'isomorphic-git: add({ filepath }) + commit, node:fs, same content already committed', commit1.iso, HEADLINE_TARGETS.commitOverIsomorphicGit,
      { note: `ours mem.commitChanges() after mem.writeFile() (write apart: median ${ms(oursWrite.median)} ms)` }),
    headlineRow('commit-vs-cli', `agent commit of 1 changed file, median of ${COMMIT_RUNS}`, commit1.ours, 'CLI',
      'CLI: git add <path> && git commit -m (2 spawns)', commit1.cli, HEADLINE_TARGETS.commitOverCli,
      { note: `ours mem.commitChanges() after mem.writeFile() (write apart: median ${ms(oursWrite.median)} ms)` }),
    headlineRow('first-snapshot-vs-cli', `first snapshot of a folder with no .git, median of ${SNAPSHOT_RUNS}`, snapshot.ours, 'CLI',
      'CLI: git init && git add -A && git commit -m (3 spawns)', snapshot.cli, HEADLINE_TARGETS.snapshotOverCli,
      {
        note: `ours openVault() until git.whenSnapshotDone(), graph index built alongside (with graph: false: median ${ms(snapshot.oursNoGraph.median)} ms); ratio = median of the per-run ratios ${snapshotRuns.map((run) => (run.oursMs / run.cliMs).toFixed(2)).join(', ')} (ratio of the medians: ${(snapshot.ours.median / snapshot.cli.median).toFixed(2)})`,
        pairedRatios: snapshotRuns.map((run) => run.oursMs / run.cliMs),
      }),
    headlineRow('commit-while-indexing-vs-cli', `agent commit right after openVault, index still building, median of ${REOPEN_RUNS}`, reopened.ours, 'CLI',
      'CLI: git add <path> && git commit -m, same edits', reopened.cli, HEADLINE_TARGETS.commitWhileIndexingOverCli,
      { valid: buildingAtStart === REOPEN_RUNS, note: indexingNote }),
  ];
  const targets = {
    applies: notes >= TARGETS.atNotes,
    changedFiles: { target: `ours < ${TARGETS.changedFilesMs} ms`, value: rows.find((r) => r.name.startsWith('changed files')).ours.median, met: rows.find((r) => r.name.startsWith('changed files')).ours.median < TARGETS.changedFilesMs },
  };
  return { notes, files: files.length, bytes, generateMs: generated.ms, naiveSetup, naiveSetupMsPerNote: naiveInit === null ? null : naiveInit / notes, headline, rows, other, extras, targets };
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
  console.log('## Headline: ours against its anchors, medians, same run, each contender on its own copy\n');
  console.log('| notes | measurement | ours (ms) | anchor | anchor (ms) | ours ÷ anchor | target | result |');
  console.log('|---:|---|---:|---|---:|---:|---|---|');
  for (const result of results) {
    for (const h of result.headline) {
      console.log(`| ${result.notes} | ${h.name} | ${cell(h.ours)} | ${h.anchorName} | ${cell(h.anchor)} | ${ratio(h.ratio)} | ≤ ${h.targetRatio}× | ${h.result} |`);
    }
  }
  console.log('');
  for (const result of results) {
    console.log(`${result.notes} notes:`);
    for (const h of result.headline) console.log(`  ${h.id}: ${h.note}`);
  }

  console.log('\n## All rows: ours, the git CLI and a naive isomorphic-git plugin (statusMatrix to find changes)\n');
  console.log('| notes | operation | ours (ms) | git CLI (ms) | naive isomorphic-git (ms) | ours ÷ CLI | naive ÷ CLI | naive ÷ ours | target |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
  for (const result of results) {
    for (const r of result.rows) {
      let target = '';
      const t = result.targets;
      const scope = t.applies ? '' : ` (target is for ${TARGETS.atNotes / 1000}k)`;
      if (r.name.startsWith('changed files')) target = `${t.changedFiles.target}: ${t.changedFiles.met ? 'met' : 'MISSED'}${scope}`;
      console.log(`| ${result.notes} | ${r.name} | ${cell(r.ours)} | ${cell(r.cli)} | ${cell(r.naive)} | ${ratio(r.oursOverCli)} | ${ratio(r.naiveOverCli)} | ${ratio(r.naiveOverOurs)} | ${target} |`);
    }
  }
  console.log('\n| notes | other measurement | median (ms) | compared with | that (ms) | ratio |');
  console.log('|---:|---|---:|---|---:|---:|');
  for (const result of results) {
    for (const o of result.other) console.log(`| ${result.notes} | ${o.name} | ${cell(o.value)} | ${o.anchorName ?? '—'} | ${cell(o.anchor)} | ${ratio(o.ratio)} |`);
  }
  console.log('');
  for (const result of results) {
    console.log(`${result.notes} notes (${(result.bytes / 1048576).toFixed(1)} MiB, generated in ${(result.generateMs / 1000).toFixed(1)} s); naive copy's repository: ${result.naiveSetup}`);
    for (const r of result.rows) console.log(`  ${r.name}: ${r.note}`);
  }
}

const sizes = parseSizes(process.argv.slice(2));
const started = performance.now();
// Other work on the machine skews the ratios (the CLI's processes and ours suffer it differently): recorded beside them.
const machine = { cpus: availableParallelism(), loadAverageAtStart: loadavg() };
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
machine.loadAverageAtEnd = loadavg();
console.log(`\nwhole git bench: ${totalSeconds.toFixed(0)} s; ${machine.cpus} CPUs, load average ${machine.loadAverageAtStart.map((l) => l.toFixed(1)).join(' ')} at the start, ${machine.loadAverageAtEnd.map((l) => l.toFixed(1)).join(' ')} at the end`);
if (Math.max(machine.loadAverageAtStart[0], machine.loadAverageAtEnd[0]) > machine.cpus) console.log('warning: the machine was busy with other work (load average above its CPUs): the medians are noisy, run again on a quiet machine');
const out = join('tests', 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'git.json'), `${JSON.stringify({
  date: new Date().toISOString(),
  node: process.version,
  git: gitCli(process.cwd(), '--version').trim(),
  isomorphicGit: git.version(),
  machine,
  runs: { commit: COMMIT_RUNS, snapshot: SNAPSHOT_RUNS, reopen: REOPEN_RUNS, status: STATUS_RUNS },
  seed: SEED,
  headlineTargets: HEADLINE_TARGETS,
  totalSeconds,
  headline: results.flatMap((result) => result.headline.map((h) => ({ notes: result.notes, ...h }))),
  results,
}, null, 2)}\n`);
