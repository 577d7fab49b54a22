import { execFile, spawn, spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GitStep } from '../../src/core/git/repository';
import { GIT_ENV } from './gitCli';

/**
 * Runs `gitChild.mjs` — one Recursa process over a vault, through the built library — as a real
 * child process, and the git CLI beside it. For tests where several processes share a repository
 * or one dies at a chosen step.
 */

const CHILD = fileURLToPath(new URL('./gitChild.mjs', import.meta.url));

/** The steps of one commit, in the order the git service reports them. */
export const COMMIT_STEPS: readonly GitStep[] = [
  'blobs-written',
  'locks-taken',
  'tree-written',
  'commit-written',
  'locks-staged',
  'reflog-written',
  'ref-moved',
  'index-moved',
];

export type ChildStep =
  | { do: 'snapshot' }
  | { do: 'write'; path: string; content: string }
  | { do: 'read'; path: string }
  | { do: 'append'; path: string; line: string }
  | { do: 'replace'; path: string; search: string; replacement: string }
  | { do: 'commit'; message: string }
  | { do: 'lock'; path: string }
  | { do: 'unlock'; path: string }
  | { do: 'sleep'; ms: number };

export interface ChildJob {
  dir: string;
  /** `openVault`'s `watch`. Default false. */
  watch?: boolean;
  /** `openVault`'s `git` options (the child adds `onStep`). */
  git?: { lockWait?: { timeoutMs?: number; pollMs?: number; staleAfterMs?: number; abandonedJournalMs?: number } };
  steps: ChildStep[];
}

export interface ChildEvent {
  event: string;
  [key: string]: unknown;
}

export interface ChildResult {
  code: number | null;
  signal: string | null;
  events: ChildEvent[];
  stderr: string;
}

/** Kill the child at the `after`-th time it reaches `step`. */
export interface Crash {
  at: GitStep;
  after?: number;
}

/** Starts the child; resolves when it has exited, however it exited. */
export function runChild(job: ChildJob, crash?: Crash): Promise<ChildResult> {
  const env: Record<string, string | undefined> = { ...process.env, CRASH_AT: crash?.at ?? '', CRASH_AFTER: String(crash?.after ?? 1) };
  const child = spawn(process.execPath, [CHILD], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(JSON.stringify(job));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const events = stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line): ChildEvent => {
          try {
            return JSON.parse(line) as ChildEvent;
          } catch {
            return { event: 'unparsed', line };
          }
        });
      resolve({ code, signal, events, stderr });
    });
  });
}

/** What a run printed, for assertion messages. */
export function describeRun(result: ChildResult): string {
  const tail = result.events.slice(-12).map((event) => JSON.stringify(event));
  return `exit ${String(result.code)} signal ${String(result.signal)}\n${tail.join('\n')}\n${result.stderr.slice(-2000)}`;
}

/** The hashes of the commits a run reported, in order. */
export function committed(result: ChildResult): string[] {
  return result.events.filter((event) => event.event === 'commit').map((event) => event.hash as string);
}

export { GIT_ENV };

/** The git CLI without blocking the event loop (the children's output keeps flowing meanwhile). */
export function gitAsync(dir: string, ...args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, ...args], { env: GIT_ENV, encoding: 'utf8' }, (error, stdout, stderr) => resolve({ ok: error === null, stdout, stderr }));
  });
}

/**
 * What `git fsck --full` reports beyond objects nothing references yet (blobs stored before a
 * commit, or a commit object written by a process that died before moving the branch — as after
 * an interrupted `git commit`) and notices about an unborn branch: each remaining line is a defect.
 */
export function fsckProblems(dir: string): string[] {
  const run = spawnSync('git', ['-C', dir, 'fsck', '--full', '--strict', '--no-progress'], { env: GIT_ENV, encoding: 'utf8' });
  const lines = `${run.stdout}\n${run.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => !/^dangling (blob|tree|commit) [0-9a-f]{40}$/.test(line) && !line.startsWith('notice: '));
  return run.status === 0 ? lines : [`git fsck exited with ${String(run.status)}`, ...lines];
}

/** Every `*.lock` file anywhere under `.git`, relative to the vault. */
export async function lockFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(dir, '.git'), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.lock'))
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}
