import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMIT_STEPS,
  committed,
  describeRun,
  fsckProblems,
  GIT_ENV,
  lockFiles,
  runChild,
  type ChildResult,
  type Crash,
} from '../helpers/childVault';
import { gitCli } from '../helpers/gitCli';
import { makeTempDir } from '../helpers/tempVault';

/**
 * A Recursa process killed (SIGKILL, no cleanup) at each step of a commit and of the first
 * snapshot, in a real child process over a real folder. What it leaves must be a repository the
 * `git` CLI finds valid, with HEAD at the old or the new commit, and the next process must recover
 * it — treating the dead process's journal and locks as abandoned at once — and commit normally.
 */

const SNAPSHOT_NOTES = 200;
/** The next process may take the dead one's leftovers at once (the default waits 30 s). */
const RECOVERING = { lockWait: { abandonedJournalMs: 0 } };
const CRASH_NOTE = 'Crash.md';
const CRASH_TEXT = '# Written by the process that dies\n';
const AFTER_NOTE = 'After.md';
const AFTER_TEXT = '# Written by the process that comes next\n';

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');
const nulSeparated = (text: string): string[] => text.split('\0').filter((item) => item !== '');
const head = (dir: string): string => gitCli(dir, 'rev-parse', 'HEAD').trim();

/** The child was killed where it was told to, not earlier and not by something else. */
function expectKilledAt(result: ChildResult, crash: Crash): void {
  const where = describeRun(result);
  expect(result.signal, where).toBe('SIGKILL');
  expect(result.events.at(-1), where).toMatchObject({ event: 'crash', step: crash.at, occurrence: crash.after ?? 1 });
}

/** Files on disk outside `.git` that git does not ignore, as git names them. */
function trackableFiles(dir: string, files: string[]): string[] {
  const check = spawnSync('git', ['-C', dir, 'check-ignore', '--no-index', '--stdin', '-z'], { env: GIT_ENV, encoding: 'utf8', input: files.join('\0') });
  const ignored = new Set(check.stdout.split('\0').filter((path) => path !== ''));
  return files.filter((path) => !ignored.has(path)).sort();
}

async function filesOnDisk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/'))
    .filter((path) => path !== '.git' && !path.startsWith('.git/'));
}

/** After recovery: valid, unlocked, clean apart from what `untracked` allows, `note` in HEAD. */
async function expectRecovered(dir: string, untracked: string[], note: { path: string; text: string }): Promise<void> {
  expect.soft(fsckProblems(dir), 'git fsck --full').toEqual([]);
  expect.soft(await lockFiles(dir), 'lock files left in .git').toEqual([]);
  // The index is HEAD's: a commit rolled forward moved both, one rolled back neither.
  expect.soft(gitCli(dir, 'diff', '--cached', '--name-status', 'HEAD'), 'index against HEAD').toBe('');
  expect.soft(gitCli(dir, 'status', '--porcelain', '--untracked-files=all'), 'git status').toBe(untracked.map((path) => `?? ${path}\n`).join(''));
  expect(gitCli(dir, 'show', `HEAD:${note.path}`), `${note.path} in HEAD`).toBe(note.text);
}

describe('a Recursa process killed in the middle of a commit', () => {
  let template = '';
  let removeTemplate: () => Promise<void> = () => Promise.resolve();
  let cleanRun: ChildResult | null = null;

  beforeAll(async () => {
    const temp = await makeTempDir('recursa-crash-template-');
    template = temp.dir;
    removeTemplate = temp.remove;
    for (let i = 0; i < 5; i++) await writeFile(join(template, `Note ${i}.md`), `# Note ${i}\n`);
    cleanRun = await runChild({
      dir: template,
      steps: [
        { do: 'snapshot' },
        { do: 'write', path: 'Base 1.md', content: '# Base 1\n' },
        { do: 'commit', message: 'Add base 1' },
        { do: 'write', path: 'Base 2.md', content: '# Base 2\n' },
        { do: 'commit', message: 'Add base 2' },
      ],
    });
  }, 30_000);

  afterAll(async () => removeTemplate());

  it('reports every step of a clean commit, in order', () => {
    const run = cleanRun as ChildResult;
    expect(run.code, describeRun(run)).toBe(0);
    expect(committed(run)).toHaveLength(2);
    // The steps between the second write and its commit: one commit's, in order, each once.
    const written = run.events.findIndex((event) => event.event === 'written' && event.path === 'Base 2.md');
    const done = run.events.findIndex((event, i) => i > written && event.event === 'commit');
    const between = run.events.slice(written + 1, done).filter((event) => event.event === 'step').map((event) => event.step);
    expect(between).toEqual(COMMIT_STEPS);
  });

  it.each(COMMIT_STEPS)('leaves a valid repository when killed at %s, and the next process commits after it', async (step) => {
    const { dir, remove } = await makeTempDir('recursa-crash-');
    try {
      await cp(template, dir, { recursive: true });
      const before = head(dir);
      const crash: Crash = { at: step };
      const armed = await runChild({ dir, steps: [{ do: 'write', path: CRASH_NOTE, content: CRASH_TEXT }, { do: 'commit', message: 'Add the crash note' }] }, crash);
      expectKilledAt(armed, crash);

      // Right after the crash, before anyone recovers: valid, and HEAD at the old or the new commit.
      expect.soft(fsckProblems(dir), 'git fsck --full right after the crash').toEqual([]);
      const moved = COMMIT_STEPS.indexOf(step) >= COMMIT_STEPS.indexOf('ref-moved');
      const atCrash = head(dir);
      if (moved) {
        expect(atCrash, 'the branch had moved').not.toBe(before);
        expect(gitCli(dir, 'rev-parse', `${atCrash}^`).trim(), 'the new commit follows the old').toBe(before);
        expect(gitCli(dir, 'show', `${atCrash}:${CRASH_NOTE}`)).toBe(CRASH_TEXT);
      } else {
        expect(atCrash, 'the branch had not moved yet').toBe(before);
      }

      const next = await runChild({ dir, git: RECOVERING, steps: [{ do: 'write', path: AFTER_NOTE, content: AFTER_TEXT }, { do: 'commit', message: 'Add the after note' }] });
      expect(next.code, describeRun(next)).toBe(0);
      const [hash] = committed(next);
      expect(head(dir)).toBe(hash);
      // The new commit follows the old one or the crashed one, whichever recovery settled on.
      const parent = gitCli(dir, 'rev-parse', `${hash as string}^`).trim();
      const crashCommitted = parent !== before;
      if (crashCommitted) {
        expect(gitCli(dir, 'rev-parse', `${parent}^`).trim(), 'the rolled-forward commit follows the old one').toBe(before);
        expect(gitCli(dir, 'show', `${parent}:${CRASH_NOTE}`)).toBe(CRASH_TEXT);
      }
      if (moved) expect(crashCommitted, 'a commit whose branch had moved stays committed').toBe(true);
      // The reflog of HEAD and of the branch names every commit the branch holds, the rolled-forward one too.
      const branch = gitCli(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
      for (const ref of ['HEAD', `refs/heads/${branch}`]) {
        const logged = lines(gitCli(dir, 'log', '--walk-reflogs', '--format=%H', ref));
        expect(logged.slice(0, 2), `the reflog of ${ref}`).toEqual(crashCommitted ? [hash, parent] : [hash, before]);
      }
      // The dead process's note, when its commit was rolled back, is a file nobody committed.
      await expectRecovered(dir, crashCommitted ? [] : [CRASH_NOTE], { path: AFTER_NOTE, text: AFTER_TEXT });
      expect(await readFile(join(dir, CRASH_NOTE), 'utf8'), 'the dead process\'s note is still on disk').toBe(CRASH_TEXT);
    } finally {
      await remove();
    }
  }, 20_000);
});

describe('a Recursa process killed during the first snapshot of a vault', () => {
  let template = '';
  let removeTemplate: () => Promise<void> = () => Promise.resolve();
  let snapshotMessage = '';

  beforeAll(async () => {
    const temp = await makeTempDir('recursa-snapshot-template-');
    template = temp.dir;
    removeTemplate = temp.remove;
    for (let i = 0; i < SNAPSHOT_NOTES; i++) {
      const folder = ['', 'Projects', 'People', 'Daily notes/2025', 'Ärchiv'][i % 5] as string;
      await mkdir(join(template, folder), { recursive: true });
      await writeFile(join(template, folder, `Note ${i}.md`), `# Note ${i}\n\n${'Some text. '.repeat(i % 17)}\n`);
    }
    // What git must leave out: the user's own rule, and Obsidian's per-device state (Recursa's rule).
    await writeFile(join(template, '.gitignore'), '*.tmp\n');
    await writeFile(join(template, 'cache.tmp'), 'scratch\n');
    await mkdir(join(template, '.obsidian'));
    await writeFile(join(template, '.obsidian/workspace.json'), '{}\n');
    await writeFile(join(template, '.obsidian/app.json'), '{}\n');
    // The built library the child processes run, for the message its snapshot commits carry.
    // eslint-disable-next-line no-unsanitized/method -- a fixed URL into this repository's build output
    const library = (await import(/* @vite-ignore */ new URL('../../dist/recursa.mjs', import.meta.url).href)) as { SNAPSHOT_MESSAGE: string };
    snapshotMessage = library.SNAPSHOT_MESSAGE;
  }, 30_000);

  afterAll(async () => removeTemplate());

  const crashes: Required<Crash>[] = [{ at: 'snapshot-started', after: 1 }, { at: 'snapshot-batch', after: 3 }, { at: 'snapshot-stored', after: 1 }];

  it.each(crashes)('finishes the snapshot once when killed at $at (occurrence $after), with every note in it', async (crash) => {
    const { dir, remove } = await makeTempDir('recursa-snapshot-crash-');
    try {
      await cp(template, dir, { recursive: true });
      const armed = await runChild({ dir, steps: [{ do: 'snapshot' }, { do: 'write', path: CRASH_NOTE, content: CRASH_TEXT }, { do: 'commit', message: 'Never made' }] }, crash);
      expectKilledAt(armed, crash);
      expect.soft(fsckProblems(dir), 'git fsck --full right after the crash').toEqual([]);

      const next = await runChild({
        dir,
        git: RECOVERING,
        steps: [{ do: 'snapshot' }, { do: 'write', path: AFTER_NOTE, content: AFTER_TEXT }, { do: 'commit', message: 'Add the after note' }],
      });
      expect(next.code, describeRun(next)).toBe(0);
      const roots = lines(gitCli(dir, 'rev-list', '--max-parents=0', 'HEAD'));
      expect(roots, 'root commits').toHaveLength(1);
      const root = roots[0] as string;
      expect(gitCli(dir, 'log', '-1', '--format=%s', root).trim(), 'the root is the snapshot').toBe(snapshotMessage);
      expect(lines(gitCli(dir, 'rev-list', 'HEAD')), 'the snapshot, then the next process\'s commit').toEqual([committed(next)[0], root]);

      // The snapshot holds every file git does not ignore, as it is on disk; HEAD adds the new note.
      const onDisk = trackableFiles(dir, await filesOnDisk(dir));
      const inRoot = nulSeparated(gitCli(dir, 'ls-tree', '-r', '--name-only', '-z', root)).sort();
      const notes = onDisk.filter((path) => path.endsWith('.md') && path !== AFTER_NOTE);
      expect(notes, 'notes on disk').toHaveLength(SNAPSHOT_NOTES);
      expect(inRoot, 'the snapshot\'s files').toEqual(onDisk.filter((path) => path !== AFTER_NOTE));
      expect(inRoot).not.toContain('cache.tmp');
      expect(inRoot).not.toContain('.obsidian/workspace.json');
      expect(inRoot).toContain('.obsidian/app.json');
      const inHead = nulSeparated(gitCli(dir, 'ls-tree', '-r', '--name-only', '-z', 'HEAD')).sort();
      expect(inHead, 'HEAD\'s files').toEqual(onDisk);
      for (const path of notes.slice(0, 20)) expect(gitCli(dir, 'show', `${root}:${path}`), path).toBe(await readFile(join(dir, path), 'utf8'));
      await expectRecovered(dir, [], { path: AFTER_NOTE, text: AFTER_TEXT });
    } finally {
      await remove();
    }
  }, 20_000);
});
