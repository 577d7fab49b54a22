import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexFileError } from '../../../../src/core/errors';
import { extensionsSafeToKeep, parseIndex, type GitIndexData, type IndexEntry, type IndexExtension } from '../../../../src/core/git/indexFile';
import { serializeIndex } from '../../../../src/core/git/indexSerialize';
import { sha1 } from '../../../../src/core/git/sha1';
import { gitCli } from '../../../helpers/gitCli';
import { makeTempDir } from '../../../helpers/tempVault';

const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

/** Over 4095 UTF-8 bytes (`é` takes two), so git stores 0xFFF as its length and ends it with NUL. */
const LONG_PATH = Array.from({ length: 22 }, (_, i) => `${i}-${'é'.repeat(95)}`).join('/');

const NOTES: Record<string, string> = {
  'README.md': '# Vault\n',
  'Inbox/today.md': '# Today\n',
  'Projects/Alpha/plan.md': '# Plan\n',
  'Projects/Alpha/notes/2024 review.md': '# Review\n',
  'Journal/café ☕ 日本語.md': '# Café\n',
  'Emoji 😀/smile.md': '# Smile\n',
};

// ---------------------------------------------------------------------------------------------
// Helpers

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

function initRepo(dir: string): void {
  gitCli(dir, 'init', '--quiet', '--initial-branch=main');
}

async function readIndex(dir: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(dir, '.git', 'index')));
}

async function writeIndex(dir: string, bytes: Uint8Array): Promise<void> {
  await writeFile(join(dir, '.git', 'index'), bytes);
}

/** `git ls-files --stage --debug`, with paths printed as they are. */
function gitDebugListing(dir: string, ...paths: string[]): string {
  return gitCli(dir, '-c', 'core.quotePath=false', 'ls-files', '--stage', '--debug', '--', ...paths);
}

/** What `git ls-files --stage` prints for these entries. */
function stageListing(entries: readonly IndexEntry[]): string {
  return entries.map((e) => `${e.mode.toString(8).padStart(6, '0')} ${e.oid} ${e.stage}\t${e.path}\n`).join('');
}

/** What `git ls-files --stage --debug` prints for these entries; `flags` are git's in-memory ones. */
function debugListing(entries: readonly IndexEntry[]): string {
  return entries
    .map((e) => {
      const flags =
        (e.assumeValid ? 0x8000 : 0) +
        (e.stage << 12) +
        (e.skipWorktree || e.intentToAdd ? 0x4000 : 0) +
        (e.skipWorktree ? 0x40000000 : 0) +
        (e.intentToAdd ? 0x20000000 : 0);
      return (
        stageListing([e]) +
        `  ctime: ${e.ctimeSeconds}:${e.ctimeNanoseconds}\n  mtime: ${e.mtimeSeconds}:${e.mtimeNanoseconds}\n` +
        `  dev: ${e.dev}\tino: ${e.ino}\n  uid: ${e.uid}\tgid: ${e.gid}\n  size: ${e.size}\tflags: ${flags.toString(16)}\n`
      );
    })
    .join('');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

async function withChecksum(body: Uint8Array): Promise<Uint8Array> {
  const out = new Uint8Array(body.length + 20);
  out.set(body);
  out.set(await sha1(body), body.length);
  return out;
}

/** The error `parseIndex` rejects with, which must be an `IndexFileError`. */
async function parseError(bytes: Uint8Array): Promise<IndexFileError> {
  try {
    await parseIndex(bytes);
  } catch (error) {
    if (error instanceof IndexFileError) return error;
    throw error;
  }
  throw new Error('expected parseIndex to reject');
}

function entry(path: string, overrides: Partial<IndexEntry> = {}): IndexEntry {
  return {
    path,
    ctimeSeconds: 1_700_000_000,
    ctimeNanoseconds: 1,
    mtimeSeconds: 1_700_000_001,
    mtimeNanoseconds: 2,
    dev: 3,
    ino: 4,
    mode: 0o100644,
    uid: 5,
    gid: 6,
    size: 7,
    oid: EMPTY_BLOB,
    stage: 0,
    assumeValid: false,
    skipWorktree: false,
    intentToAdd: false,
    ...overrides,
  };
}

/** Makes a real merge conflict on `conflict.md`; `other.md` is merged cleanly. */
async function makeConflict(dir: string): Promise<void> {
  initRepo(dir);
  await writeFiles(dir, { 'conflict.md': 'base\n', 'other.md': 'other\n' });
  gitCli(dir, 'add', '-A');
  gitCli(dir, 'commit', '--quiet', '-m', 'base');
  gitCli(dir, 'checkout', '--quiet', '-b', 'topic');
  await writeFiles(dir, { 'conflict.md': 'topic\n' });
  gitCli(dir, 'commit', '--quiet', '-am', 'topic');
  gitCli(dir, 'checkout', '--quiet', 'main');
  await writeFiles(dir, { 'conflict.md': 'main\n' });
  gitCli(dir, 'commit', '--quiet', '-am', 'main');
  expect(() => gitCli(dir, 'merge', '--quiet', 'topic')).toThrow();
}

const tempDirs: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(tempDirs.map((remove) => remove()));
});

async function tempRepoDir(): Promise<string> {
  const { dir, remove } = await makeTempDir('recursa-index-');
  tempDirs.push(remove);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Indexes written by git

interface Scenario {
  name: string;
  setup: (dir: string) => Promise<void>;
  /** What is special about this index, beyond matching `git ls-files`. */
  check: (index: GitIndexData) => void;
  /** serialize(parse(x)) is x byte for byte (false only where we write another version). */
  sameBytes: boolean;
}

function find(index: GitIndexData, path: string): IndexEntry {
  const found = index.entries.find((e) => e.path === path);
  if (!found) throw new Error(`no entry for ${path}`);
  return found;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'plain files, nested folders, spaces, unicode names and an executable',
    async setup(dir) {
      initRepo(dir);
      await writeFiles(dir, { ...NOTES, 'scripts/run.sh': '#!/bin/sh\n' });
      await chmod(join(dir, 'scripts/run.sh'), 0o755);
      gitCli(dir, 'add', '-A');
    },
    check(index) {
      expect(index.version).toBe(2);
      expect(index.extensions).toEqual([]);
      expect(find(index, 'scripts/run.sh').mode).toBe(0o100755);
      expect(find(index, 'Journal/café ☕ 日本語.md').mode).toBe(0o100644);
      expect(index.entries.map((e) => e.path)).toContain('Emoji 😀/smile.md');
    },
    sameBytes: true,
  },
  {
    name: 'a path longer than 4095 bytes',
    async setup(dir) {
      initRepo(dir);
      await writeFiles(dir, { 'empty.md': '' });
      gitCli(dir, 'add', '-A');
      // Too long for the file system: git records it without a file.
      gitCli(dir, 'update-index', '--add', '--cacheinfo', `100644,${EMPTY_BLOB},${LONG_PATH}`);
    },
    check(index) {
      expect(Buffer.byteLength(LONG_PATH)).toBeGreaterThan(4095);
      expect(index.entries.map((e) => e.path)).toEqual([LONG_PATH, 'empty.md']);
    },
    sameBytes: true,
  },
  {
    name: 'an intent-to-add entry (git add -N)',
    async setup(dir) {
      initRepo(dir);
      await writeFiles(dir, { 'README.md': '# Vault\n', 'new.md': '# New\n' });
      gitCli(dir, 'add', 'README.md');
      gitCli(dir, 'add', '-N', 'new.md');
    },
    check(index) {
      expect(index.version).toBe(3);
      expect(find(index, 'new.md')).toMatchObject({ intentToAdd: true, skipWorktree: false });
      expect(find(index, 'README.md')).toMatchObject({ intentToAdd: false, skipWorktree: false });
    },
    sameBytes: true,
  },
  {
    name: 'skip-worktree and assume-unchanged entries',
    async setup(dir) {
      initRepo(dir);
      await writeFiles(dir, NOTES);
      gitCli(dir, 'add', '-A');
      gitCli(dir, 'update-index', '--skip-worktree', 'Inbox/today.md');
      gitCli(dir, 'update-index', '--assume-unchanged', 'README.md');
    },
    check(index) {
      expect(index.version).toBe(3);
      expect(find(index, 'Inbox/today.md')).toMatchObject({ skipWorktree: true, assumeValid: false });
      expect(find(index, 'README.md')).toMatchObject({ skipWorktree: false, assumeValid: true });
    },
    sameBytes: true,
  },
  {
    name: 'index version 4 (prefix-compressed paths), with a long path',
    async setup(dir) {
      initRepo(dir);
      await writeFiles(dir, { ...NOTES, 'empty.md': '' });
      gitCli(dir, 'add', '-A');
      gitCli(dir, 'update-index', '--add', '--cacheinfo', `100644,${EMPTY_BLOB},${LONG_PATH}`);
      gitCli(dir, 'update-index', '--index-version', '4');
    },
    check(index) {
      expect(index.version).toBe(4);
      expect(index.entries.map((e) => e.path)).toContain(LONG_PATH);
    },
    sameBytes: false,
  },
  {
    name: 'a TREE extension after a commit',
    async setup(dir) {
      initRepo(dir);
      await writeFiles(dir, NOTES);
      gitCli(dir, 'add', '-A');
      gitCli(dir, 'commit', '--quiet', '-m', 'notes');
    },
    check(index) {
      expect(index.extensions.map((e) => e.signature)).toEqual(['TREE']);
    },
    sameBytes: true,
  },
  {
    name: 'merge-conflict stages 1 to 3',
    setup: makeConflict,
    check(index) {
      expect(index.entries.map((e) => [e.path, e.stage])).toEqual([
        ['conflict.md', 1],
        ['conflict.md', 2],
        ['conflict.md', 3],
        ['other.md', 0],
      ]);
    },
    sameBytes: true,
  },
  {
    name: 'a REUC extension after resolving a conflict',
    async setup(dir) {
      await makeConflict(dir);
      await writeFiles(dir, { 'conflict.md': 'resolved\n' });
      gitCli(dir, 'add', 'conflict.md');
    },
    check(index) {
      expect(index.extensions.map((e) => e.signature)).toContain('REUC');
      expect(index.entries.map((e) => [e.path, e.stage])).toEqual([
        ['conflict.md', 0],
        ['other.md', 0],
      ]);
    },
    sameBytes: true,
  },
  {
    name: 'untracked-cache and end-of-index-entries extensions',
    async setup(dir) {
      initRepo(dir);
      gitCli(dir, 'config', 'core.untrackedCache', 'true');
      gitCli(dir, 'config', 'index.recordEndOfIndexEntries', 'true');
      await writeFiles(dir, NOTES);
      gitCli(dir, 'add', 'README.md', 'Inbox');
      gitCli(dir, 'status', '--porcelain');
    },
    check(index) {
      expect(index.extensions.map((e) => e.signature)).toEqual(expect.arrayContaining(['UNTR', 'EOIE']));
    },
    sameBytes: true,
  },
];

// Each scenario's repository is built once and shared by the parse and the round-trip test.
const scenarioRepos = new Map<string, Promise<string>>();
function scenarioRepo(scenario: Scenario): Promise<string> {
  let repo = scenarioRepos.get(scenario.name);
  if (!repo) {
    repo = tempRepoDir().then(async (dir) => {
      await scenario.setup(dir);
      return dir;
    });
    scenarioRepos.set(scenario.name, repo);
  }
  return repo;
}

// ---------------------------------------------------------------------------------------------

describe('parseIndex', () => {
  describe.each(SCENARIOS)('when git wrote $name', (scenario) => {
    it('reads every entry as git ls-files --stage --debug shows it', async () => {
      const dir = await scenarioRepo(scenario);
      const index = await parseIndex(await readIndex(dir));
      expect(debugListing(index.entries)).toBe(gitDebugListing(dir));
      scenario.check(index);
    });
  });

  describe('when the file is damaged', () => {
    let valid: Uint8Array;
    beforeAll(async () => {
      valid = await serializeIndex({ entries: [entry('a.md'), entry('b/c.md', { skipWorktree: true })] });
    });

    it('reports a truncated file', async () => {
      await expect(parseIndex(valid.subarray(0, valid.length - 7))).rejects.toMatchObject({ code: 'IndexCorrupt' });
      await expect(parseIndex(valid.subarray(0, 20))).rejects.toMatchObject({ code: 'IndexCorrupt' });
    });

    it('reports entries cut short even under a correct checksum', async () => {
      // The header, the first entry (72 bytes) and part of the second.
      const cut = await withChecksum(valid.subarray(0, 12 + 72 + 70));
      const error = await parseError(cut);
      expect(error.code).toBe('IndexCorrupt');
      expect(error.message).toContain('entry 1 of 2 is truncated');
    });

    it('reports a flipped byte through the checksum', async () => {
      const flipped = valid.slice();
      flipped[12 + 62] = (flipped[12 + 62] ?? 0) ^ 0x01;
      const error = await parseError(flipped);
      expect(error.code).toBe('IndexCorrupt');
      expect(error.message).toContain('checksum mismatch');
    });

    it('reports a bad signature', async () => {
      const body = valid.slice(0, valid.length - 20);
      body.set([0x44, 0x49, 0x52, 0x44], 0); // 'DIRD'
      await expect(parseIndex(await withChecksum(body))).rejects.toMatchObject({ code: 'IndexCorrupt' });
    });

    it('reports an extension running past the end', async () => {
      const withExtension = await serializeIndex({ entries: [entry('a.md')], extensions: [{ signature: 'TREE', data: new Uint8Array(4) }] });
      const body = withExtension.slice(0, withExtension.length - 20);
      new DataView(body.buffer).setUint32(body.length - 8, 5);
      await expect(parseIndex(await withChecksum(body))).rejects.toMatchObject({ code: 'IndexCorrupt' });
    });
  });

  describe('when the index uses something this codec does not handle', () => {
    it('refuses an unknown version', async () => {
      const body = (await serializeIndex({ entries: [entry('a.md')] })).slice(0, -20);
      body[7] = 5;
      await expect(parseIndex(await withChecksum(body))).rejects.toMatchObject({ code: 'IndexUnsupported', data: { version: 5 } });
    });

    it('refuses a split index (required "link" extension) that git wrote, naming it', async () => {
      const dir = await tempRepoDir();
      initRepo(dir);
      await writeFiles(dir, { 'a.md': 'a\n' });
      gitCli(dir, 'add', '-A');
      gitCli(dir, 'update-index', '--split-index');
      const error = await parseError(await readIndex(dir));
      expect(error).toMatchObject({ code: 'IndexUnsupported', data: { extension: 'link' } });
      expect(error.message).toContain('"link" (split index)');
    });

    it('refuses any other required extension, such as a sparse index ("sdir")', async () => {
      const bytes = await serializeIndex({ entries: [entry('a.md')], extensions: [{ signature: 'sdir', data: new Uint8Array(0) }] });
      await expect(parseIndex(bytes)).rejects.toMatchObject({ code: 'IndexUnsupported', data: { extension: 'sdir' } });
    });

    it('refuses a path that is not UTF-8 rather than renaming it', async () => {
      const body = (await serializeIndex({ entries: [entry('ab')] })).slice(0, -20);
      body[12 + 62] = 0xff;
      await expect(parseIndex(await withChecksum(body))).rejects.toMatchObject({ code: 'IndexUnsupported' });
    });
  });
});

describe('serializeIndex', () => {
  describe.each(SCENARIOS)('when git wrote $name', (scenario) => {
    it(`writes an index git reads the same${scenario.sameBytes ? ', byte for byte' : ''}`, async () => {
      const dir = await scenarioRepo(scenario);
      // status may refresh the index, so read it after.
      const status = gitCli(dir, 'status', '--porcelain');
      const listing = gitDebugListing(dir);
      const original = await readIndex(dir);

      const rewritten = await serializeIndex(await parseIndex(original));
      await writeIndex(dir, rewritten);

      expect(gitDebugListing(dir)).toBe(listing);
      expect(gitCli(dir, 'status', '--porcelain')).toBe(status);
      expect(gitCli(dir, 'fsck', '--full', '--no-dangling')).toBe('');
      expect(sameBytes(rewritten, original)).toBe(scenario.sameBytes);
    });
  });

  it('orders entries as git does, by path bytes and not UTF-16 code units', async () => {
    // U+E000 sorts after U+1F600's surrogates in UTF-16 but before it in UTF-8.
    const paths = ['x😀.md', 'a/b.md', 'x\uE000.md', 'a.b.md', 'ab.md', 'a-b.md', 'x~.md'];
    const dir = await tempRepoDir();
    initRepo(dir);
    gitCli(dir, 'update-index', '--add', ...paths.flatMap((path) => ['--cacheinfo', `100644,${EMPTY_BLOB},${path}`]));
    const fromGit = await readIndex(dir);
    const { entries } = await parseIndex(fromGit);
    expect(entries.map((e) => e.path)).toEqual(['a-b.md', 'a.b.md', 'a/b.md', 'ab.md', 'x~.md', 'x\uE000.md', 'x😀.md']);

    const shuffled = [entries[3], entries[6], entries[0], entries[5], entries[2], entries[4], entries[1]] as IndexEntry[];
    expect(sameBytes(await serializeIndex({ entries: shuffled }), fromGit)).toBe(true);
  });

  it('orders conflict stages of a path 1, 2, 3', async () => {
    const entries = [entry('a.md', { stage: 3 }), entry('b.md'), entry('a.md', { stage: 1 }), entry('a.md', { stage: 2 })];
    const parsed = await parseIndex(await serializeIndex({ entries }));
    expect(parsed.entries.map((e) => [e.path, e.stage])).toEqual([
      ['a.md', 1],
      ['a.md', 2],
      ['a.md', 3],
      ['b.md', 0],
    ]);
  });

  it('writes version 2, or 3 only when an entry has an extended flag', async () => {
    const version = async (entries: IndexEntry[]) => new DataView((await serializeIndex({ entries })).buffer).getUint32(4);
    expect(await version([entry('a.md', { assumeValid: true })])).toBe(2);
    expect(await version([entry('a.md'), entry('b.md', { intentToAdd: true })])).toBe(3);
    expect(await version([entry('a.md', { skipWorktree: true })])).toBe(3);
  });

  it('keeps every field, unicode paths (with a leading byte-order mark) and extensions in order', async () => {
    const entries = [
      entry('\uFEFFbom.md', { ctimeSeconds: 0xffffffff, ino: 0x80000000, size: 123_456 }),
      entry('Ünïcödé/日本.md', { mode: 0o100755, stage: 0, assumeValid: true, oid: 'ABCDEF0123456789abcdef0123456789ABCDEF01' }),
      entry('z.md', { skipWorktree: true, intentToAdd: true, mode: 0o120000 }),
    ];
    const extensions: IndexExtension[] = [
      { signature: 'ZZZZ', data: new Uint8Array([1, 2, 3]) },
      { signature: 'REUC', data: new Uint8Array(0) },
    ];
    const parsed = await parseIndex(await serializeIndex({ entries, extensions }));
    expect(parsed).toEqual({
      version: 3,
      entries: ([entries[2], entries[1], entries[0]] as IndexEntry[]).map((e) => ({ ...e, oid: e.oid.toLowerCase() })),
      extensions,
    });
  });

  it('refuses entries git could not read', async () => {
    const refused = [
      [entry('a.md'), entry('a.md')],
      [entry('a.md'), entry('a.md', { stage: 2 })],
      [entry('')],
      [entry('a\0b')],
      [entry('a\uD800b')],
      [entry('a.md', { oid: 'e69de29' })],
      [entry('a.md', { oid: EMPTY_BLOB.replace('e', 'g') })],
      [entry('a.md', { stage: 4 })],
    ];
    for (const entries of refused) {
      await expect(serializeIndex({ entries }), JSON.stringify(entries[entries.length - 1])).rejects.toMatchObject({ code: 'InvalidArgument' });
    }
    await expect(serializeIndex({ entries: [], extensions: [{ signature: 'TRE', data: new Uint8Array(0) }] })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });
});

describe('extensionsSafeToKeep', () => {
  const data = new Uint8Array(0);

  it('keeps REUC only: not TREE, UNTR, FSMN, EOIE, IEOT or unknown ones', () => {
    const all = ['TREE', 'REUC', 'UNTR', 'FSMN', 'EOIE', 'IEOT', 'ZZZZ'].map((signature) => ({ signature, data }));
    expect(extensionsSafeToKeep(all).map((e) => e.signature)).toEqual(['REUC']);
  });

  describe('when an entry is removed', () => {
    it('gives git a fresh tree, where a kept TREE extension would give it the stale one', async () => {
      const dir = await tempRepoDir();
      initRepo(dir);
      await writeFiles(dir, NOTES);
      gitCli(dir, 'add', '-A');
      gitCli(dir, 'commit', '--quiet', '-m', 'notes');
      const headTree = gitCli(dir, 'rev-parse', 'HEAD^{tree}');
      const index = await parseIndex(await readIndex(dir));
      const entries = index.entries.filter((e) => e.path !== 'Inbox/today.md');

      await writeIndex(dir, await serializeIndex({ entries, extensions: index.extensions }));
      expect(gitCli(dir, 'write-tree')).toBe(headTree);

      await writeIndex(dir, await serializeIndex({ entries, extensions: extensionsSafeToKeep(index.extensions) }));
      const tree = gitCli(dir, 'write-tree').trim();
      expect(gitCli(dir, 'ls-tree', '-r', '--name-only', tree)).not.toContain('Inbox/today.md');
      expect(gitCli(dir, 'status', '--porcelain')).toBe('D  Inbox/today.md\n?? Inbox/\n');
    });

    it('keeps the resolve-undo record of a resolved conflict', async () => {
      const dir = await tempRepoDir();
      await makeConflict(dir);
      await writeFiles(dir, { 'conflict.md': 'resolved\n' });
      gitCli(dir, 'add', 'conflict.md');
      const resolveUndo = gitCli(dir, 'ls-files', '--resolve-undo');
      expect(resolveUndo).toContain('conflict.md');
      const index = await parseIndex(await readIndex(dir));
      const entries = index.entries.filter((e) => e.path !== 'other.md');

      await writeIndex(dir, await serializeIndex({ entries, extensions: extensionsSafeToKeep(index.extensions) }));
      expect(gitCli(dir, 'ls-files', '--resolve-undo')).toBe(resolveUndo);
      expect(gitCli(dir, 'ls-files')).toBe('conflict.md\n');
      expect(gitCli(dir, 'fsck', '--full', '--no-dangling')).toBe('');
    });
  });
});

describe('parseIndex and serializeIndex with 10,000 entries from git', () => {
  let dir: string;
  let original: Uint8Array;
  let index: GitIndexData;

  beforeAll(async () => {
    dir = await tempRepoDir();
    initRepo(dir);
    for (let folder = 0; folder < 100; folder++) {
      const name = `d${String(folder).padStart(2, '0')}`;
      await mkdir(join(dir, name));
      await Promise.all(
        Array.from({ length: 100 }, (_, note) => writeFile(join(dir, name, `n${String(note).padStart(3, '0')}.md`), `${folder} ${note}\n`)),
      );
    }
    gitCli(dir, 'add', '-A');
    // 10,000 loose objects would start a background `gc --auto` that races the clean-up.
    gitCli(dir, '-c', 'gc.auto=0', 'commit', '--quiet', '-m', 'ten thousand notes');
    original = await readIndex(dir);
    index = await parseIndex(original);
  }, 30_000);

  it('reads them as git ls-files shows them', () => {
    expect(index.entries).toHaveLength(10_000);
    expect(index.extensions.map((e) => e.signature)).toEqual(['TREE']);
    expect(stageListing(index.entries)).toBe(gitCli(dir, 'ls-files', '--stage'));
    expect(debugListing(index.entries.filter((e) => e.path.startsWith('d42/')))).toBe(gitDebugListing(dir, 'd42'));
  });

  it('writes them back byte for byte, to an index git finds clean', async () => {
    const rewritten = await serializeIndex(index);
    expect(sameBytes(rewritten, original)).toBe(true);
    await writeIndex(dir, rewritten);
    expect(gitCli(dir, 'status', '--porcelain')).toBe('');
  });
});
