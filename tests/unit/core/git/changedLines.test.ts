import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLineChanges, changedRanges, lineHunks, mapLine, parseHunks } from '../../../../src/core/git/changedLines';
import { gitCli } from '../../../helpers/gitCli';
import { useGitVault } from '../../../helpers/gitVault';
import { RUNTIMES } from '../../../helpers/memHarness';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const lines = (...items: string[]): string => `${items.join('\n')}\n`;

describe('parseHunks', () => {
  it('reads starts and counts, with a missing count meaning one line', () => {
    expect(parseHunks('diff --git a/x b/x\n@@ -3 +3,2 @@ Title\n-a\n+b\n+c\n@@ -10,0 +11 @@\n+d\n@@ -20,2 +20,0 @@\n-e\n-f\n')).toEqual([
      { oldStart: 3, oldCount: 1, newStart: 3, newCount: 2 },
      { oldStart: 10, oldCount: 0, newStart: 11, newCount: 1 },
      { oldStart: 20, oldCount: 2, newStart: 20, newCount: 0 },
    ]);
  });
});

describe('changedRanges', () => {
  it('marks added, modified and deleted lines of the new text', () => {
    const before = lines('one', 'two', 'three', 'four', 'five', 'six');
    const after = lines('one', 'TWO', 'three', 'new a', 'new b', 'four', 'six');
    expect(changedRanges(bytes(before), bytes(after))).toEqual([
      { from: 2, to: 2, kind: 'modified' },
      { from: 4, to: 5, kind: 'added' },
      { from: 7, to: 7, kind: 'deleted' },
    ]);
  });

  it('marks every line of a new file, and the last line after a deletion at the end', () => {
    expect(changedRanges(null, bytes(lines('a', 'b', 'c')))).toEqual([{ from: 1, to: 3, kind: 'added' }]);
    expect(changedRanges(bytes(lines('a', 'b', 'c')), bytes(lines('a', 'b')))).toEqual([{ from: 2, to: 2, kind: 'deleted' }]);
    expect(changedRanges(bytes(lines('a', 'b')), bytes(lines('b')))).toEqual([{ from: 1, to: 1, kind: 'deleted' }]);
    expect(changedRanges(bytes(lines('a')), bytes(''))).toEqual([]);
  });

  it('marks nothing in binary content', () => {
    expect(changedRanges(new Uint8Array([0, 1, 2]), new Uint8Array([0, 1, 3]))).toEqual([]);
  });
});

describe('lineHunks against git diff -U0', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'recursa-hunks-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('finds hunks as small as the git CLI does (git\'s alignment may differ where several are minimal)', async () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', '', '# Title', '- item', '  indented', 'ü'), { maxLength: 25 }).map((items) => items.map((item) => `${item}\n`).join(''));
    await fc.assert(
      fc.asyncProperty(text, text, async (before, after) => {
        await writeFile(join(dir, 'old.md'), before);
        await writeFile(join(dir, 'new.md'), after);
        let cli = '';
        try {
          cli = gitCli(dir, 'diff', '--no-index', '-U0', 'old.md', 'new.md');
        } catch (error) {
          // `git diff --no-index` exits 1 when the files differ.
          cli = String((error as { stdout?: string }).stdout ?? '');
        }
        const ours = lineHunks(bytes(before), bytes(after));
        const theirs = parseHunks(cli);
        const size = (hunks: { oldCount: number; newCount: number }[]) => hunks.reduce((total, hunk) => total + hunk.oldCount + hunk.newCount, 0);
        expect(size(ours)).toBeLessThanOrEqual(size(theirs));
        expect(ours.length === 0).toBe(theirs.length === 0);
      }),
      { numRuns: 40, seed: 16 },
    );
  });
});

describe('mapLine', () => {
  it('moves an unchanged line to the same text in the new version, and drops changed ones', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 20 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const oldText = before.map((line) => `${line}\n`).join('');
        const newText = after.map((line) => `${line}\n`).join('');
        const hunks = lineHunks(bytes(oldText), bytes(newText));
        const kept = before.filter((_, i) => mapLine(hunks, i + 1) !== null).length;
        const unchangedInNew = after.length - hunks.reduce((sum, hunk) => sum + hunk.newCount, 0);
        expect(kept).toBe(unchangedInNew);
        const targets: number[] = [];
        before.forEach((line, i) => {
          const target = mapLine(hunks, i + 1);
          if (target === null) return;
          expect(after[target - 1]).toBe(line);
          targets.push(target);
        });
        expect(targets).toEqual([...targets].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });
});

describe.each(RUNTIMES)('agentLineChanges ($name)', (runtime) => {
  const vault = useGitVault(runtime);
  const note = lines('# Note', 'one', 'two', 'three', 'four', 'five');

  const seedCommitted = async (): Promise<void> => {
    await vault.seed('Note.md', note);
    gitCli(vault.dir, 'add', 'Note.md');
    gitCli(vault.dir, 'commit', '-q', '-m', 'User writes the note');
  };

  it('gives the lines the agent changed in its latest commit to the file, with its message', async () => {
    await seedCommitted();
    await vault.mem.writeFile('Note.md', lines('# Note', 'one', 'TWO', 'three', 'four', 'five', 'six'));
    const first = await vault.mem.commitChanges('First pass');
    await vault.mem.writeFile('Note.md', lines('# Note', 'one', 'TWO', 'three', 'FOUR', 'five', 'six'));
    await vault.mem.writeFile('Other.md', 'other\n');
    const second = await vault.mem.commitChanges('Second pass\n\nWhy it changed four.');
    const changes = await agentLineChanges(vault.git.repo, 'Note.md', null);
    expect(changes).toMatchObject({ hash: second, message: 'Second pass\n\nWhy it changed four.', run: 'run-test', ranges: [{ from: 5, to: 5, kind: 'modified' }] });
    expect(first).not.toBe(second);
    expect((await agentLineChanges(vault.git.repo, 'Other.md', null))?.ranges).toEqual([{ from: 1, to: 1, kind: 'added' }]);
  });

  it('moves the lines to where they are now, and drops those the user changed since', async () => {
    await seedCommitted();
    await vault.mem.writeFile('Note.md', lines('# Note', 'one', 'TWO', 'THREE', 'four', 'five', 'six'));
    await vault.mem.commitChanges('Agent edit');
    // The user later commits two lines at the top, and edits "THREE" in the editor without saving.
    await vault.userWrite('Note.md', lines('Intro', '', '# Note', 'one', 'TWO', 'THREE', 'four', 'five', 'six'));
    gitCli(vault.dir, 'commit', '-q', '-am', 'User adds an intro');
    const current = lines('Intro', '', '# Note', 'one', 'TWO', 'three (mine)', 'four', 'five', 'six');
    const changes = await agentLineChanges(vault.git.repo, 'Note.md', current);
    expect(changes?.ranges).toEqual([
      { from: 5, to: 5, kind: 'modified' },
      { from: 9, to: 9, kind: 'added' },
    ]);
  });

  it('is null for files the agent never changed, deleted, or beyond the commits it may look at', async () => {
    await seedCommitted();
    expect(await agentLineChanges(vault.git.repo, 'Note.md', note)).toBeNull();
    expect(await agentLineChanges(vault.git.repo, 'Missing.md', null)).toBeNull();
    await vault.mem.writeFile('Gone.md', 'x\n');
    await vault.mem.commitChanges('Make it');
    await vault.mem.deletePath('Gone.md');
    await vault.mem.commitChanges('Remove it');
    expect(await agentLineChanges(vault.git.repo, 'Gone.md', null)).toBeNull();
    await vault.mem.writeFile('Note.md', `${note}more\n`);
    await vault.mem.commitChanges('Append');
    for (let i = 0; i < 3; i++) {
      await vault.seed(`u${i}.md`, `${i}\n`);
      gitCli(vault.dir, 'add', '-A');
      gitCli(vault.dir, 'commit', '-q', '-m', `User ${i}`);
    }
    expect(await agentLineChanges(vault.git.repo, 'Note.md', null, { maxScanned: 3 })).toBeNull();
    expect((await agentLineChanges(vault.git.repo, 'Note.md', null, { maxScanned: 4 }))?.ranges).toEqual([{ from: 7, to: 7, kind: 'added' }]);
  });
});
