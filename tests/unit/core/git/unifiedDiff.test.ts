import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGitDiff, type DiffSide, type GitDiffOptions } from '../../../../src/core/git/unifiedDiff';
import { gitCli } from '../../../helpers/gitCli';
import { makeTempDir } from '../../../helpers/tempVault';

type Content = string | Uint8Array;

/** One file of the shared repository: committed as `old`, left in the work tree as `new`. */
interface CliCase {
  name: string;
  path: string;
  old: Content | null;
  new: Content | null;
  /** The work-tree file is made executable. */
  executable?: boolean;
  /** Extra `git diff` options, mirrored by `options`. */
  gitArgs?: string[];
  options?: GitDiffOptions;
}

const encoder = new TextEncoder();
const bytesOf = (content: Content): Uint8Array => (typeof content === 'string' ? encoder.encode(content) : content);
const lines = (...text: string[]): string => text.map((line) => `${line}\n`).join('');
const numbered = (count: number, label = 'Line'): string[] => Array.from({ length: count }, (_, i) => `- ${label} ${i + 1}`);
const replaceAt = (list: string[], edits: Record<number, string | null>): string[] =>
  list.flatMap((line, i) => (i + 1 in edits ? (edits[i + 1] === null ? [] : [edits[i + 1] as string]) : [line]));

/** A deterministic pseudo-random sequence, for the large case. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function largeDocuments(): [string, string] {
  const random = lcg(7);
  const pool = ['', '', '- [ ] todo', '---', '```', '    return x;', '}', 'See also [[Index]].'];
  const pick = (): string => (random() < 0.4 ? (pool[Math.floor(random() * pool.length)] as string) : `Sentence ${Math.floor(random() * 5000)} about things.`);
  const old = Array.from({ length: 1500 }, pick);
  const next: string[] = [];
  for (const line of old) {
    const r = random();
    if (r < 0.25) continue;
    if (r < 0.5) next.push(pick());
    else next.push(line);
    if (random() < 0.2) next.push(pick());
  }
  return [lines(...old), lines(...next)];
}

/** A paragraph of `count` hard-wrapped lines, all distinct. */
const prose = (word: string, count: number): string =>
  lines(...Array.from({ length: count }, (_, i) => `${word} paragraph, wrapped line ${i + 1} of ${count}, says something.`));

const longHeading = `Paragraph that is long enough to be cut by git at eighty bytes of the function name buffer, really`;
// 79 ASCII bytes, then 'é' (2 bytes) across the 80-byte cut, then more text.
const cutInsideCharacter = `${'Caf'.padEnd(79, 'x')}é and more words after the cut`;
const tenUnmatched = ['# Title', '', '- one', '- two', '1. three', '> four', '## Five', '   six', '[seven](x)', '**eight**'];
const [largeOld, largeNew] = largeDocuments();

const CASES: CliCase[] = [
  {
    name: 'an edit in the middle',
    path: 'middle.md',
    old: lines(...numbered(12)),
    new: lines(...replaceAt(numbered(12), { 6: '- Line six, rewritten' })),
  },
  {
    name: 'several separated hunks',
    path: 'separated.md',
    old: lines(...numbered(40)),
    new: lines(...replaceAt(numbered(40), { 5: '- five', 20: null, 35: '- thirty-five' })),
  },
  {
    name: 'hunks merged when at most six lines apart, split at seven',
    path: 'merged.md',
    old: lines(...numbered(40)),
    new: lines(...replaceAt(numbered(40), { 5: '- five', 12: '- twelve', 20: '- twenty', 27: '- twenty-seven' })),
  },
  { name: 'lines appended at the end', path: 'append.md', old: lines('# Log', '', '- a', '- b'), new: lines('# Log', '', '- a', '- b', '- c', '- d') },
  { name: 'lines removed at the end', path: 'truncate.md', old: lines(...numbered(9)), new: lines(...numbered(6)) },
  { name: 'lines inserted at the start', path: 'prepend.md', old: lines(...numbered(8)), new: lines('---', 'tags: [a]', '---', ...numbered(8)) },
  { name: 'a missing trailing newline added', path: 'eol-added.md', old: 'alpha\nbeta\ngamma', new: 'alpha\nbeta\ngamma\n' },
  { name: 'a trailing newline removed', path: 'eol-removed.md', old: 'alpha\nbeta\ngamma\n', new: 'alpha\nbeta\ngamma' },
  { name: 'the last line changed, neither side ending in a newline', path: 'eol-neither.md', old: 'alpha\nbeta\ngamma', new: 'alpha\nbeta\ndelta' },
  {
    name: 'a context line without a trailing newline',
    path: 'eol-context.md',
    old: `${lines('a', 'b', 'c', 'd')}e`,
    new: `${lines('a', 'b', 'C', 'd')}e`,
  },
  { name: 'a new file', path: 'Inbox/new.md', old: null, new: lines('# New', '', 'Body text.') },
  { name: 'a new one-line file without a newline', path: 'Inbox/one.md', old: null, new: 'just this' },
  { name: 'a deleted file', path: 'Inbox/gone.md', old: lines('# Gone', '', 'It was here.'), new: null },
  { name: 'a new empty file', path: 'Inbox/empty.md', old: null, new: '' },
  { name: 'a deleted empty file', path: 'Inbox/was-empty.md', old: '', new: null },
  { name: 'an empty file filled', path: 'filled.md', old: '', new: lines('First line', 'Second line') },
  { name: 'a file emptied', path: 'emptied.md', old: lines('First line', 'Second line'), new: '' },
  {
    name: 'a binary file changed',
    path: 'Assets/image.png',
    old: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
    new: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9, 9]),
  },
  { name: 'a new binary file', path: 'Assets/new.bin', old: null, new: new Uint8Array([1, 0, 2]) },
  { name: 'a file that becomes binary', path: 'Assets/turned.md', old: lines('text'), new: new Uint8Array([0x74, 0, 0x0a]) },
  { name: 'a unicode path', path: 'Notes/été.md', old: lines('# Été', '', 'Chaud.'), new: lines('# Été', '', 'Très chaud.') },
  { name: 'a path with spaces', path: 'Notes/a b.md', old: lines('one', 'two'), new: lines('one', '2') },
  { name: 'a unicode path with spaces', path: 'Notes/café au lait.md', old: lines('one'), new: lines('uno') },
  { name: 'a path with a double quote and a backslash', path: 'Odd/say "hi"\\now.md', old: lines('one'), new: lines('two') },
  { name: 'a new file at a unicode path with spaces', path: 'Notes/ñu nuevo.md', old: null, new: lines('hola') },
  {
    name: 'a function name taken from an earlier paragraph line',
    path: 'funcname.md',
    old: lines('# Heading', '', 'Intro paragraph opens the note.', '', ...numbered(12), '', '## Next'),
    new: lines('# Heading', '', 'Intro paragraph opens the note.', '', ...replaceAt(numbered(12), { 10: '- ten' }), '', '## Next'),
  },
  {
    name: 'no function name when no earlier line starts with a letter, _ or $',
    path: 'no-funcname.md',
    old: lines(...tenUnmatched, ...numbered(4, '#')),
    new: lines(...tenUnmatched, ...replaceAt(numbered(4, '#'), { 3: '- changed' })),
  },
  {
    name: 'a function name longer than 80 bytes',
    path: 'long-funcname.md',
    old: lines(longHeading, ...numbered(8)),
    new: lines(longHeading, ...replaceAt(numbered(8), { 7: '- seven' })),
  },
  {
    name: 'a function name cut inside a UTF-8 character',
    path: 'cut-funcname.md',
    old: lines(cutInsideCharacter, ...numbered(8)),
    new: lines(cutInsideCharacter, ...replaceAt(numbered(8), { 7: '- seven' })),
  },
  {
    name: 'function names with trailing whitespace, $ and _, carried to later hunks',
    path: 'funcname-carry.md',
    old: lines('$price list   ', ...numbered(10), '_private\t', ...numbered(20, 'Row')),
    new: lines('$price list   ', ...replaceAt(numbered(10), { 8: '- eight' }), '_private\t', ...replaceAt(numbered(20, 'Row'), { 5: '- five', 18: '- eighteen' })),
  },
  {
    name: 'CRLF lines',
    path: 'crlf.md',
    old: 'Title line\r\n\r\n- a\r\n- b\r\n- c\r\n',
    new: 'Title line\r\n\r\n- a\r\n- B\r\n- c\r\n- d\r\n',
  },
  { name: 'CRLF lines without a final newline', path: 'crlf-eol.md', old: 'one\r\ntwo\r\nthree', new: 'one\r\ntwo\r\nthree\r\n' },
  {
    name: 'a section inserted between blank-line separated sections (sliding)',
    path: 'slide-sections.md',
    old: lines('# A', '', 'Text a.', '', '# B', '', 'Text b.', '', '# C', '', 'Text c.'),
    new: lines('# A', '', 'Text a.', '', '# X', '', 'Text x.', '', '# B', '', 'Text b.', '', '# C', '', 'Text c.'),
  },
  {
    name: 'a duplicate task removed (indent heuristic)',
    path: 'heuristic-delete.md',
    old: lines('## Tasks', '- [ ] Buy milk', '  - at the corner shop', '- [ ] Buy milk', '- [ ] Email Bob'),
    new: lines('## Tasks', '- [ ] Buy milk', '- [ ] Email Bob'),
  },
  {
    name: 'a repeated list block inserted (indent heuristic)',
    path: 'heuristic-insert.md',
    old: lines('Intro.', '', '- item', '  - sub', '', 'End.'),
    new: lines('Intro.', '', '- item', '  - sub', '', '- item', '  - sub', '', 'End.'),
  },
  {
    name: 'a code block inserted after a blank line',
    path: 'slide-indent.md',
    old: lines('```js', 'function a() {', '  return 1;', '}', '', 'function c() {', '  return 3;', '}', '```'),
    new: lines('```js', 'function a() {', '  return 1;', '}', '', 'function b() {', '  return 2;', '}', '', 'function c() {', '  return 3;', '}', '```'),
  },
  {
    name: 'a duplicate list item inserted',
    path: 'slide-duplicate.md',
    old: lines('- [ ] todo', '- [ ] todo', '- [x] done', '', '- [ ] todo'),
    new: lines('- [ ] todo', '- [ ] todo', '- [ ] todo', '- [x] done', '', '', '- [ ] todo', '- [ ] todo'),
  },
  {
    name: 'no context lines (-U0)',
    path: 'u0.md',
    old: lines(...numbered(30)),
    new: lines(...replaceAt(numbered(30), { 3: null, 10: '- ten', 11: '- eleven', 29: '- twenty-nine' })),
    gitArgs: ['-U0'],
    options: { context: 0 },
  },
  {
    // git drops the common tail in 1 KiB blocks before diffing with -U0, which bounds the sliding.
    name: 'a blank line added above a long blank tail, without context',
    path: 'u0-tail.md',
    old: `# Log\n${'\n'.repeat(1500)}`,
    new: `# Log\n${'\n'.repeat(1501)}`,
    gitArgs: ['-U0'],
    options: { context: 0 },
  },
  {
    name: 'one context line (-U1)',
    path: 'u1.md',
    old: lines(...numbered(30)),
    new: lines(...replaceAt(numbered(30), { 3: null, 6: '- six', 20: '- twenty' })),
    gitArgs: ['-U1'],
    options: { context: 1 },
  },
  { name: 'longer blob ids (--abbrev=12)', path: 'abbrev.md', old: lines('a'), new: lines('b'), gitArgs: ['--abbrev=12'], options: { abbrev: 12 } },
  { name: 'a mode change with an edit', path: 'script.sh', old: lines('echo hi'), new: lines('echo hello'), executable: true },
  { name: 'a mode change only', path: 'tool.sh', old: lines('echo hi'), new: lines('echo hi'), executable: true },
  { name: 'identical contents', path: 'same.md', old: lines('same'), new: lines('same') },
  {
    name: 'hard-wrapped paragraphs rewritten (blank lines amid unmatched ones discarded)',
    path: 'rewrite.md',
    old: `${prose('Keep', 4)}\n${prose('Old', 5)}\n${prose('Older', 3)}\n`,
    new: `${prose('Keep', 4)}\n${prose('New', 2)}\n\n${prose('Newer', 6)}\n\n`,
  },
  { name: 'a large, heavily edited file (Myers cost cut-off)', path: 'large.md', old: largeOld, new: largeNew },
  { name: 'a file starting with a byte order mark', path: 'bom.md', old: lines('\uFEFF# Title', '', 'Text.'), new: lines('\uFEFF# Title', '', 'More text.') },
  { name: 'a path with a tab', path: 'Odd/tab\there.md', old: lines('one'), new: lines('two') },
  { name: 'a new executable file', path: 'run.sh', old: null, new: lines('#!/bin/sh', 'echo hi'), executable: true },
  { name: 'a deleted binary file', path: 'Assets/old.bin', old: new Uint8Array([0, 1, 2]), new: null },
  {
    name: 'a NUL byte after the first 8000 bytes (still text)',
    path: 'late-nul.md',
    old: `${lines('x'.repeat(8000), 'one', 'two')}nul \0 here\n`,
    new: `${lines('x'.repeat(8000), 'one', 'TWO')}nul \0 here\n`,
  },
  {
    name: 'a list item moved down (several shortest diffs)',
    path: 'moved.md',
    old: lines('# Shopping', '- apples', '- bread', '- cheese', '- dates'),
    new: lines('# Shopping', '- bread', '- cheese', '- apples', '- dates'),
  },
];

/**
 * Cases where git and jsdiff pick different alignments of the same length (the same number of `+`
 * and `-` lines), so the hunks differ while both are shortest; the reason is given for each.
 */
const OTHER_ALIGNMENT = new Map<string, string>([
  [
    'a repeated list block inserted (indent heuristic)',
    'the copy could go above or below the existing block; git puts it above, we put it below (both places start with the least indented line, and ties go to the lowest)',
  ],
  [
    'a blank line added above a long blank tail, without context',
    'the added blank line could be any of 1501; with -U0 git shows it partway up the run (line 477), we show it at its end',
  ],
  [
    'a large, heavily edited file (Myers cost cut-off)',
    'hundreds of equally short alignments; git and jsdiff run different variants of Myers and pair up repeated lines (blank lines, fences, `}`) differently',
  ],
]);

/** Cases where git's diff is longer than a shortest one, so ours has fewer `+` and `-` lines. */
const GIT_LONGER = new Map<string, string>([
  [
    'hard-wrapped paragraphs rewritten (blank lines amid unmatched ones discarded)',
    'git leaves a blank line amid rewritten lines unmatched (9 `-` and 11 `+`); jsdiff keeps it (8 and 10)',
  ],
]);

/** The patch up to its first hunk: the `diff --git` line and everything git prints before `@@`. */
function headerOf(patch: string): string {
  const at = patch.search(/^@@ /m);
  return at === -1 ? patch : patch.slice(0, at);
}

/** The hunks of a patch, from the first `@@` on. */
function hunksOf(patch: string): string {
  return patch.slice(headerOf(patch).length);
}

/** How many lines a patch adds and removes. */
function changedLines(patch: string): { added: number; removed: number } {
  const body = hunksOf(patch).split('\n');
  return { added: body.filter((line) => line.startsWith('+')).length, removed: body.filter((line) => line.startsWith('-')).length };
}

const isBinary = (content: Content | null): boolean => content !== null && bytesOf(content).subarray(0, 8000).includes(0);

describe('formatGitDiff', () => {
  describe('when compared with the git CLI', () => {
    let root = '';
    /** The reference repository: `git diff` there gives git's output for each case. */
    let cliDir = '';
    /** A work tree holding the old files, where our patches are applied. */
    let applyDir = '';
    let remove: () => Promise<void> = () => Promise.resolve();
    const oldIds = new Map<string, string>();
    const newIds = new Map<string, string>();

    const put = async (dir: string, path: string, content: Content): Promise<void> => {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), bytesOf(content));
    };
    const ours = (c: CliCase): string =>
      formatGitDiff(
        { path: c.path, oid: oldIds.get(c.path) ?? null, mode: '100644', content: c.old === null ? null : bytesOf(c.old) },
        { path: c.path, oid: newIds.get(c.path) ?? null, mode: c.executable ? '100755' : '100644', content: c.new === null ? null : bytesOf(c.new) },
        c.options,
      );
    const theirs = (c: CliCase): string => gitCli(cliDir, 'diff', ...(c.gitArgs ?? []), ...(c.old === null ? ['--cached'] : []), '--', c.path);

    beforeAll(async () => {
      ({ dir: root, remove } = await makeTempDir());
      cliDir = join(root, 'cli');
      applyDir = join(root, 'apply');
      for (const dir of [cliDir, applyDir]) {
        await mkdir(dir);
        gitCli(dir, 'init', '--quiet');
        for (const c of CASES) if (c.old !== null) await put(dir, c.path, c.old);
      }
      gitCli(cliDir, 'add', '--all');
      gitCli(cliDir, 'commit', '--quiet', '-m', 'old state');
      for (const c of CASES) {
        if (c.new === null) await rm(join(cliDir, c.path));
        else await put(cliDir, c.path, c.new);
        if (c.executable) await chmod(join(cliDir, c.path), 0o755);
      }
      const created = CASES.filter((c) => c.old === null).map((c) => c.path);
      gitCli(cliDir, 'add', '--', ...created);

      const before = CASES.filter((c) => c.old !== null);
      const after = CASES.filter((c) => c.new !== null);
      const beforeIds = gitCli(cliDir, 'rev-parse', ...before.map((c) => `HEAD:${c.path}`)).trim().split('\n');
      const afterIds = gitCli(cliDir, 'hash-object', '--', ...after.map((c) => c.path)).trim().split('\n');
      before.forEach((c, i) => oldIds.set(c.path, beforeIds[i] as string));
      after.forEach((c, i) => newIds.set(c.path, afterIds[i] as string));
    });
    afterAll(async () => remove());

    it.each(CASES)('prints the headers git prints for $name', (c) => {
      expect(headerOf(ours(c))).toBe(headerOf(theirs(c)));
    });

    it.each(CASES.filter((c) => !isBinary(c.old) && !isBinary(c.new)))('gives a patch that git apply turns the old file into the new one with, for $name', async (c) => {
      const patch = ours(c);
      if (c.old !== null && c.new !== null && !c.executable && bytesOf(c.old).join() === bytesOf(c.new).join()) {
        expect(patch).toBe('');
        return;
      }
      const patchFile = join(root, `${CASES.indexOf(c)}.patch`);
      await writeFile(patchFile, patch);
      const zero = c.options?.context === 0 ? ['--unidiff-zero'] : [];
      gitCli(applyDir, 'apply', '--check', ...zero, patchFile);
      gitCli(applyDir, 'apply', ...zero, patchFile);
      const target = join(applyDir, c.path);
      if (c.new === null) {
        await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
      } else {
        expect(new Uint8Array(await readFile(target))).toEqual(bytesOf(c.new));
        expect(((await stat(target)).mode & 0o111) !== 0).toBe(c.executable === true);
      }
    });

    it.each(CASES)('prints the hunks git prints, or others as short, for $name', (c) => {
      const mine = ours(c);
      const git = theirs(c);
      const [minePlus, gitPlus] = [changedLines(mine), changedLines(git)];
      if (OTHER_ALIGNMENT.has(c.name)) {
        expect(minePlus).toEqual(gitPlus);
        expect(hunksOf(mine)).not.toBe(hunksOf(git));
      } else if (GIT_LONGER.has(c.name)) {
        expect(minePlus.added + minePlus.removed).toBeLessThan(gitPlus.added + gitPlus.removed);
      } else {
        expect(hunksOf(mine)).toBe(hunksOf(git));
      }
    });

    it('lists only cases of the corpus as exceptions', () => {
      const names = new Set(CASES.map((c) => c.name));
      for (const name of [...OTHER_ALIGNMENT.keys(), ...GIT_LONGER.keys()]) expect(names).toContain(name);
    });

    it('covers the tricky outputs it claims to (the cases are not vacuous)', () => {
      const out = (path: string): string => gitCli(cliDir, 'diff', '--', path);
      expect(out('long-funcname.md')).toContain(`@@ ${longHeading.slice(0, 80)}\n`);
      expect(out('cut-funcname.md')).toContain(`@@ ${cutInsideCharacter.slice(0, 79)}\n`);
      expect(out('no-funcname.md')).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/m);
      expect(out('merged.md').match(/^@@/gm)).toHaveLength(2);
      expect(out('Notes/a b.md')).toContain('--- a/Notes/a b.md\t\n');
      expect(out('Notes/été.md')).toContain('"a/Notes/\\303\\251t\\303\\251.md"');
      expect(out('Odd/tab\there.md')).toContain('"a/Odd/tab\\there.md"');
      expect(out('late-nul.md')).toContain('@@ -1,4 +1,4 @@');
      expect(out('same.md')).toBe('');
      for (const path of ['heuristic-delete.md', 'heuristic-insert.md']) {
        expect(gitCli(cliDir, 'diff', '--no-indent-heuristic', '--', path)).not.toBe(out(path));
      }
    });
  });

  describe('when nothing differs', () => {
    it('returns an empty string for the same blob and mode', () => {
      const side: DiffSide = { path: 'a.md', oid: 'a'.repeat(40), mode: '100644', content: encoder.encode('x\n') };
      expect(formatGitDiff(side, { ...side })).toBe('');
    });

    it('returns an empty string when both sides are absent', () => {
      const absent: DiffSide = { path: 'a.md', oid: null, mode: '100644', content: null };
      expect(formatGitDiff(absent, absent)).toBe('');
    });
  });

  describe('when the files are too different for a full diff', () => {
    const side = (text: string, oid: string): DiffSide => ({ path: 'big.md', oid, mode: '100644', content: encoder.encode(text) });
    const shared = (label: string): string[] => Array.from({ length: 5 }, (_, i) => `${label} ${i}`);
    const old = lines(...shared('head'), ...numbered(30_000, 'Old'), ...shared('tail'));
    const next = lines(...shared('head'), ...numbered(30_000, 'New'), ...shared('tail'));

    it('replaces the differing middle in one hunk, with the shared lines as context', () => {
      const patch = formatGitDiff(side(old, 'a'.repeat(40)), side(next, 'b'.repeat(40)));
      expect(patch.match(/^@@.*$/gm)).toEqual(['@@ -3,30006 +3,30006 @@ head 1']);
      expect(changedLines(patch)).toEqual({ added: 30_000, removed: 30_000 });
    });

    it('still gives a patch git applies', async () => {
      const { dir, remove } = await makeTempDir();
      try {
        gitCli(dir, 'init', '--quiet');
        await writeFile(join(dir, 'big.md'), old);
        await writeFile(join(dir, 'big.patch'), formatGitDiff(side(old, 'a'.repeat(40)), side(next, 'b'.repeat(40))));
        gitCli(dir, 'apply', 'big.patch');
        expect(await readFile(join(dir, 'big.md'), 'utf8')).toBe(next);
      } finally {
        await remove();
      }
    });
  });

  describe('when applied by git to random markdown edits', () => {
    // A small vocabulary, so that lines repeat and there are alignments to choose between; now and
    // then a long sentence with non-ASCII words, for function names cut at 80 bytes.
    const FEW = ['note', 'idea', 'Alice', 'todo', 'the'];
    const MANY = [...FEW, 'project', 'meeting', 'café', 'naïve', 'résumé', '日本語', 'with', 'and', '$x', '_y'];
    const SHARED = ['', '', '', '---', '- [ ] todo', '- item', '## Notes', '```', '    indented code', '  - nested', '> quote', '}', 'tags: [x]'];
    const sentence = fc
      .oneof(
        { weight: 4, arbitrary: fc.array(fc.constantFrom(...FEW), { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom(...MANY), { minLength: 4, maxLength: 24 }) },
      )
      .map((words) => `${words.join(' ')}.`);
    const line = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...SHARED) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom('# ', '## ', '### '), sentence).map(([h, s]) => h + s) },
      { weight: 3, arbitrary: sentence },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom('- ', '  - ', '1. ', '- [ ] '), sentence).map(([b, s]) => b + s) },
    );
    // Typing, deleting and pasting, plus copying and moving blocks within the note.
    const edit = fc.record({
      kind: fc.constantFrom('insert', 'delete', 'replace', 'copy', 'move'),
      at: fc.nat(),
      from: fc.nat(),
      count: fc.integer({ min: 1, max: 4 }),
      lines: fc.array(line, { minLength: 1, maxLength: 5 }),
    });
    const mostly = (value: boolean): fc.Arbitrary<boolean> =>
      fc.oneof({ weight: 5, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: fc.constant(!value) });
    const editCase = fc
      .record({
        doc: fc.array(line, { maxLength: 80, size: 'max' }),
        edits: fc.array(edit, { maxLength: 6, size: 'max' }),
        oldEol: mostly(true),
        newEol: mostly(true),
        crlf: mostly(false),
      })
      .map(({ doc, edits, oldEol, newEol, crlf }) => {
        const next = [...doc];
        for (const e of edits) {
          const at = e.at % (next.length + 1);
          const from = e.from % (next.length + 1);
          if (e.kind === 'insert') next.splice(at, 0, ...e.lines);
          else if (e.kind === 'delete') next.splice(at, e.count);
          else if (e.kind === 'replace') next.splice(at, e.count, ...e.lines);
          else if (e.kind === 'copy') next.splice(at, 0, ...next.slice(from, from + e.count));
          else next.splice(Math.min(at, next.length - e.count), 0, ...next.splice(from, e.count));
        }
        const eol = crlf ? '\r\n' : '\n';
        const text = (list: string[], final: boolean): string => list.join(eol) + (final && list.length > 0 ? eol : '');
        return { old: text(doc, oldEol), new: text(next, newEol) };
      });

    /**
     * Builds 80 cases per run in one repository, so that git runs a handful of times per run rather
     * than per case: stage the old texts, write the new ones, diff them all at once; then put the
     * old texts back and apply our patches, concatenated.
     */
    async function checkRun(root: string, context: number, cases: { old: string; new: string }[]): Promise<void> {
      const dir = await mkdtemp(join(root, 'run-'));
      gitCli(dir, 'init', '--quiet');
      const paths = cases.map((_, i) => `case-${String(i).padStart(3, '0')}.md`);
      const path = (i: number): string => join(dir, paths[i] as string);
      await Promise.all(cases.map((c, i) => writeFile(path(i), c.old)));
      gitCli(dir, 'add', '--all');
      const oldIds = gitCli(dir, 'hash-object', '--', ...paths).trim().split('\n');
      await Promise.all(cases.map((c, i) => writeFile(path(i), c.new)));
      const newIds = gitCli(dir, 'hash-object', '--', ...paths).trim().split('\n');
      const theirs = new Map<string, string>();
      for (const part of gitCli(dir, 'diff', `-U${context}`).split(/^(?=diff --git )/m).filter(Boolean)) {
        theirs.set(/^diff --git a\/(\S+)/.exec(part)?.[1] ?? '', part);
      }
      const ours = cases.map((c, i) =>
        formatGitDiff(
          { path: paths[i] as string, oid: oldIds[i] as string, mode: '100644', content: encoder.encode(c.old) },
          { path: paths[i] as string, oid: newIds[i] as string, mode: '100644', content: encoder.encode(c.new) },
          { context },
        ),
      );

      const patch = ours.join('');
      if (patch !== '') {
        await Promise.all(cases.map((c, i) => writeFile(path(i), c.old)));
        const patchFile = join(root, `${paths.length}-${context}.patch`);
        await writeFile(patchFile, patch);
        const zero = context === 0 ? ['--unidiff-zero'] : [];
        gitCli(dir, 'apply', '--check', ...zero, patchFile);
        gitCli(dir, 'apply', ...zero, patchFile);
        const applied = await Promise.all(paths.map((_, i) => readFile(path(i), 'utf8')));
        applied.forEach((text, i) => expect(text, `case ${i}: ${JSON.stringify(cases[i])}`).toBe(cases[i]?.new));
      }
      // The same headers as git, and never more changed lines than git's diff (jsdiff's is shortest).
      ours.forEach((text, i) => {
        const git = theirs.get(paths[i] as string) ?? '';
        const [mine, their] = [changedLines(text), changedLines(git)];
        expect(headerOf(text), `case ${i}: ${JSON.stringify(cases[i])}`).toBe(headerOf(git));
        expect(mine.added + mine.removed, `case ${i}: ${JSON.stringify(cases[i])}`).toBeLessThanOrEqual(their.added + their.removed);
      });
    }

    it.each([
      { option: '-U3', context: 3, runs: 3 },
      { option: '-U1', context: 1, runs: 2 },
      { option: '-U0', context: 0, runs: 2 },
    ])('gives patches that git applies to the old text, yielding the new one, with git diff $option headers', async ({ context, runs }) => {
      const { dir: root, remove } = await makeTempDir();
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(editCase, { minLength: 80, maxLength: 80 }), (cases) => checkRun(root, context, cases)),
          { seed: 20250611 + context, numRuns: runs, endOnFailure: true },
        );
      } finally {
        await remove();
      }
    });
  });
});
