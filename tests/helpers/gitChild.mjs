// One Recursa process over a vault, run by the tests as a real child process (`node gitChild.mjs`),
// so several processes can share one repository and one can be killed at a chosen step of a commit.
//
// The job comes as JSON on stdin:
//   { "dir": "<vault folder>", "watch": false, "git": { "lockWait": { ... } }, "steps": [ ... ] }
// Each step is one of
//   { "do": "snapshot" }                                  wait for the first snapshot; prints its hash
//   { "do": "write", "path": "a.md", "content": "..." }    mem.writeFile
//   { "do": "read", "path": "a.md" }                       mem.readFile, kept for the next "append"
//   { "do": "append", "path": "a.md", "line": "..." }      mem.updateFile(read, read + line), retried on Conflict
//   { "do": "replace", "path": "a.md", "search": "x", "replacement": "y" }   mem.replaceInFile
//   { "do": "commit", "message": "..." }                   mem.commitChanges, retried on GitBusy
//   { "do": "lock", "path": "<folder outside the vault>" } / { "do": "unlock", ... }
//        a mutex between the test's processes (mkdir is atomic), e.g. around an edit + commit of a
//        note several processes change, so the test can know the note's final content
//   { "do": "sleep", "ms": 20 }
// and prints one JSON line per result on stdout: {"event":"commit","hash":...,"attempts":n},
// {"event":"busy","code":"GitBusy"}, {"event":"conflict"}, {"event":"step","step":...}, ... Exit 0
// when every step is done; on any other error one {"event":"error",...} line and exit 1.
//
// Crash injection: with CRASH_AT=<step> (and CRASH_AFTER=<n>, default 1) in the environment, the
// process kills itself with SIGKILL the n-th time the git service reports that step through its
// `onStep` option — no cleanup, no flush, as when the power goes.
import { mkdir, rmdir } from 'node:fs/promises';

const MAX_ATTEMPTS = 400;

// Pipes are written synchronously on Linux, so a line printed just before SIGKILL still arrives.
const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = () => pause(10 + Math.floor(Math.random() * 60));

async function readJob() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function crashHook() {
  const at = process.env.CRASH_AT ?? '';
  const after = Number(process.env.CRASH_AFTER ?? '1');
  let seen = 0;
  return (step) => {
    emit({ event: 'step', step });
    if (step === at && ++seen === after) {
      emit({ event: 'crash', step, occurrence: seen });
      process.kill(process.pid, 'SIGKILL');
    }
  };
}

/** Retries `run` while it fails with one of `codes`, after a short random pause. */
async function retrying(codes, run) {
  for (let attempts = 1; ; attempts++) {
    try {
      return { value: await run(), attempts };
    } catch (error) {
      const code = error?.code;
      if (!codes.includes(code) || attempts >= MAX_ATTEMPTS) throw error;
      emit({ event: code === 'GitBusy' ? 'busy' : 'conflict', code, attempts });
      await jitter();
    }
  }
}

async function lock(path) {
  for (;;) {
    try {
      await mkdir(path);
      return;
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
      await pause(5);
    }
  }
}

async function main() {
  const job = await readJob();
  const { openVault } = await import('../../dist/recursa.mjs');
  const vault = await openVault(job.dir, {
    watch: job.watch ?? false,
    graph: false,
    git: { ...(job.git ?? {}), onStep: crashHook() },
  });
  emit({ event: 'opened', pid: process.pid });
  const { mem } = vault;
  const reads = new Map();
  for (const step of job.steps ?? []) {
    switch (step.do) {
      case 'snapshot':
        emit({ event: 'snapshot', hash: await vault.git.whenSnapshotDone() });
        break;
      case 'write':
        await mem.writeFile(step.path, step.content);
        emit({ event: 'written', path: step.path });
        break;
      case 'read':
        reads.set(step.path, await mem.readFile(step.path));
        break;
      case 'append': {
        const { attempts } = await retrying(['Conflict'], async () => {
          // The first attempt uses what an earlier "read" step saw (another process may have
          // changed the note since: a real compare-and-swap conflict); later ones read again.
          const before = reads.get(step.path) ?? (await mem.readFile(step.path));
          reads.delete(step.path);
          return mem.updateFile(step.path, before, `${before}${step.line}\n`);
        });
        emit({ event: 'appended', path: step.path, attempts });
        break;
      }
      case 'replace':
        await mem.replaceInFile(step.path, step.search, step.replacement);
        emit({ event: 'replaced', path: step.path });
        break;
      case 'commit': {
        const { value, attempts } = await retrying(['GitBusy'], () => mem.commitChanges(step.message));
        emit({ event: 'commit', hash: value, message: step.message, attempts });
        break;
      }
      case 'lock':
        await lock(step.path);
        break;
      case 'unlock':
        await rmdir(step.path);
        break;
      case 'sleep':
        await pause(step.ms);
        break;
      default:
        throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }
  await vault.close();
  emit({ event: 'done' });
}

main().then(
  () => process.exit(0),
  (error) => {
    emit({ event: 'error', code: error?.code ?? null, name: error?.name ?? null, message: String(error?.message ?? error), stack: String(error?.stack ?? '') });
    process.exit(1);
  },
);
