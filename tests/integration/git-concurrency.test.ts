import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { committed, describeRun, fsckProblems, gitAsync, lockFiles, runChild, type ChildResult, type ChildStep } from '../helpers/childVault';
import { gitCli } from '../helpers/gitCli';
import { useTempDir } from '../helpers/tempVault';

/**
 * Several programs, one repository, at the same time: three Recursa processes (the built library in
 * real child processes) commit their own notes and take turns on one shared note, while the test
 * commits a file of its own with the `git` CLI in a loop. Git's lock protocol must keep every
 * commit: afterwards the CLI finds a valid repository whose history holds all of them, in one line.
 */

const PROCESSES = 3;
const COMMITS_EACH = 10;
const SHARED = 'Shared.md';
const END = '(end of list)';
const RUN_TRAILER = 'Recursa-Run: headless';
const ZERO = '0'.repeat(40);

const notePath = (process: number, i: number): string => `Process ${process}/Note ${i}.md`;
const noteText = (process: number, i: number): string => `# Note ${i} of process ${process}\n\nWritten by process ${process}, commit ${i}.\n`;
const sharedLine = (process: number, i: number): string => `- process ${process} was here (${i})`;

/**
 * One process's job: ten commits of its own notes; three of them also add a line to the shared
 * note (by `updateFile`, retried on a compare-and-swap conflict, or by `replaceInFile`). The note is
 * read before the process waits for its turn, so another process may change it meanwhile — a real
 * conflict. The turn (a mutex outside the vault) covers the edit and the commit: two agents
 * rewriting one note at once would each commit their own text, and the test could not know which
 * the note ends with.
 */
function jobFor(process: number, mutex: string): ChildStep[] {
  const steps: ChildStep[] = [];
  for (let i = 0; i < COMMITS_EACH; i++) {
    steps.push({ do: 'write', path: notePath(process, i), content: noteText(process, i) });
    if (i % 3 === 1) {
      steps.push({ do: 'read', path: SHARED }, { do: 'sleep', ms: 5 * process }, { do: 'lock', path: mutex });
      steps.push(
        i === 4
          ? { do: 'replace', path: SHARED, search: END, replacement: `${sharedLine(process, i)}\n${END}` }
          : { do: 'append', path: SHARED, line: sharedLine(process, i) },
      );
      steps.push({ do: 'commit', message: `Process ${process}: note ${i} and the shared note` }, { do: 'unlock', path: mutex });
    } else {
      steps.push({ do: 'commit', message: `Process ${process}: note ${i}` });
    }
  }
  return steps;
}

/** `git add own.md && git commit`, again after a pause whenever git finds another program's lock. */
async function cliCommit(dir: string, i: number): Promise<void> {
  await writeFile(join(dir, 'own.md'), `# The test's own file\n\nversion ${i}\n`);
  for (let attempt = 1; ; attempt++) {
    const add = await gitAsync(dir, 'add', 'own.md');
    const commit = add.ok ? await gitAsync(dir, 'commit', '-q', '-m', `CLI commit ${i}`) : add;
    if (commit.ok) return;
    const busy = /\.lock'?: File exists|Unable to create .*\.lock|cannot lock ref/i.test(commit.stderr);
    if (!busy || attempt >= 200) throw new Error(`git CLI commit ${i} failed (attempt ${attempt}): ${commit.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 30)));
  }
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

describe('several processes committing to one vault at once', () => {
  const temp = useTempDir('recursa-concurrency-');

  it('keeps every commit of three Recursa processes and the git CLI, in one valid history', async () => {
    const dir = join(temp.dir, 'vault');
    // Outside the vault: the processes' turn on the shared note.
    const mutex = join(temp.dir, 'shared-note-turn');
    await mkdir(dir);
    for (let i = 0; i < 5; i++) await writeFile(join(dir, `Seed ${i}.md`), `# Seed ${i}\n`);
    await writeFile(join(dir, SHARED), `# Shared\n\n${END}\n`);
    // A first process makes the repository and its snapshot.
    const first = await runChild({ dir, steps: [{ do: 'snapshot' }] });
    expect(first.code, describeRun(first)).toBe(0);
    const snapshot = gitCli(dir, 'rev-parse', 'HEAD').trim();

    const children = Array.from({ length: PROCESSES }, (_, k) =>
      // One of them watches the folder, as the CLI does by default.
      runChild({ dir, watch: k === 0, steps: jobFor(k, mutex) }),
    );
    let running = true;
    const all = Promise.all(children).finally(() => (running = false));
    let cliCommits = 0;
    // The test's own commits, while the processes run (and at least a few).
    while (running || cliCommits < 5) {
      await cliCommit(dir, cliCommits);
      cliCommits++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const results: ChildResult[] = await all;

    const reported: string[][] = [];
    for (const [k, result] of results.entries()) {
      expect(result.code, `process ${k}: ${describeRun(result)}`).toBe(0);
      const hashes = committed(result);
      expect(hashes, `process ${k}`).toHaveLength(COMMITS_EACH);
      reported.push(hashes);
    }
    const total = 1 + PROCESSES * COMMITS_EACH + cliCommits;

    // The CLI is the judge.
    expect.soft(fsckProblems(dir), 'git fsck --full').toEqual([]);
    expect.soft(await lockFiles(dir), 'lock files left in .git').toEqual([]);
    expect.soft(gitCli(dir, 'status', '--porcelain', '--untracked-files=all'), 'git status').toBe('');
    expect.soft(lines(gitCli(dir, 'rev-list', '--max-parents=0', 'HEAD')), 'root commits').toEqual([snapshot]);
    const history = lines(gitCli(dir, 'log', '--format=%H'));
    expect.soft(history.length, 'commits in the history: 1 snapshot + every process\'s + the CLI\'s').toBe(total);
    const lost = reported.flatMap((hashes, k) => hashes.map((hash, i) => ({ hash, k, i }))).filter(({ hash }) => !history.includes(hash));
    expect.soft(lost.map(({ hash, k, i }) => `process ${k} commit ${i}: ${hash}`), 'reported commits missing from HEAD\'s history').toEqual([]);
    // One line of history: nobody's commit was made on a stale parent and lost.
    expect.soft(lines(gitCli(dir, 'rev-list', '--merges', 'HEAD')), 'merge commits').toEqual([]);

    for (const [k, hashes] of reported.entries()) {
      for (const [i, hash] of hashes.entries()) {
        const where = `process ${k} commit ${i} (${hash})`;
        if (!history.includes(hash)) continue;
        expect((await gitAsync(dir, 'merge-base', '--is-ancestor', hash, 'HEAD')).ok, `${where} is an ancestor of HEAD`).toBe(true);
        // The commit holds this process's note as it wrote it, and nothing another process or the
        // test had not committed (their notes, written meanwhile, are not swept in).
        expect(gitCli(dir, 'show', `${hash}:${notePath(k, i)}`), where).toBe(noteText(k, i));
        const changed = lines(gitCli(dir, 'diff-tree', '--no-commit-id', '-r', '--name-only', '--no-renames', hash)).sort();
        expect(changed, where).toEqual(i % 3 === 1 ? [notePath(k, i), SHARED].sort() : [notePath(k, i)]);
        expect(gitCli(dir, 'log', '-1', '--format=%(trailers:key=Recursa-Run)', hash).trim(), where).toBe(RUN_TRAILER);
        if (i > 0) {
          const previous = hashes[i - 1] as string;
          expect((await gitAsync(dir, 'merge-base', '--is-ancestor', previous, hash)).ok, `${where} comes after the process's commit ${i - 1}`).toBe(true);
        }
      }
    }

    // The test's CLI commits each changed own.md alone: the index Recursa rewrote kept every other entry.
    const cliHashes = lines(gitCli(dir, 'log', '--format=%H', '--grep=^CLI commit ', '--', 'own.md'));
    expect(cliHashes, 'CLI commits').toHaveLength(cliCommits);
    for (const hash of cliHashes) {
      expect(lines(gitCli(dir, 'diff-tree', '--no-commit-id', '-r', '--name-only', hash)), `CLI commit ${hash}`).toEqual(['own.md']);
    }

    // Every note and every shared-note line is in HEAD.
    const tree = new Set(lines(gitCli(dir, 'ls-tree', '-r', '--name-only', 'HEAD')));
    for (let k = 0; k < PROCESSES; k++) for (let i = 0; i < COMMITS_EACH; i++) expect(tree.has(notePath(k, i)), notePath(k, i)).toBe(true);
    const shared = gitCli(dir, 'show', `HEAD:${SHARED}`);
    expect(await readFile(join(dir, SHARED), 'utf8')).toBe(shared);
    for (let k = 0; k < PROCESSES; k++) for (const i of [1, 4, 7]) expect(shared, `shared note, process ${k}`).toContain(`${sharedLine(k, i)}\n`);
    expect(shared.split('\n').filter((line) => line.startsWith('- process ')), 'shared note lines').toHaveLength(PROCESSES * 3);
    expect(shared.split('\n').filter((line) => line === END)).toHaveLength(1);

    // The branch's reflog has one entry per move, in git's format, each starting where the last ended.
    const reflog = lines(await readFile(join(dir, '.git/logs/refs/heads/main'), 'utf8'));
    expect(reflog.length, 'reflog entries of main').toBe(total);
    let previous = ZERO;
    for (const [n, entry] of reflog.entries()) {
      const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) [^<>\n]* <[^<>\n]*> \d+ [+-]\d{4}\t.*$/.exec(entry);
      expect(match, `reflog entry ${n}: ${entry}`).not.toBeNull();
      expect(match?.[1], `reflog entry ${n} starts where entry ${n - 1} ended`).toBe(previous);
      previous = match?.[2] ?? '';
    }
    expect(previous, 'the last reflog entry ends at HEAD').toBe(history[0]);
    expect(lines(gitCli(dir, 'reflog', 'show', '--format=%H', 'main'))).toHaveLength(total);
  }, 60_000);
});
