import { describe, expect, it, vi } from 'vitest';
import { openVault } from '../../../../src/node/openVault';
import { gitCli } from '../../../helpers/gitCli';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

describe.each(RUNTIMES)('remember ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('writes a dated memory note with id, time, normalized tags and its source, and records it for the commit', async () => {
    vault.context.session.runId = 'run-7';
    vault.context.session.conversationId = 'conv-1';
    vault.context.session.activeNote = () => 'Projects/Plan.md';
    const before = Date.now();
    const { id, path } = await vault.mem.remember('  The user prefers **weekly** reviews on Friday.  ', ['Reviews', 'user_prefs', 'Q3!!']);
    expect(id).toMatch(/^mem_[0-9a-f]{16}$/);
    expect(path).toMatch(/^Memories\/\d{4}-\d{2}-\d{2}\/\d{6}_[0-9a-f]{4}\.md$/);
    const text = await vault.disk(path);
    expect(text).toMatch(new RegExp(`^---\\nid: ${id}\\ntimestamp: \\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z\\ntags:\\n  - reviews\\n  - user-prefs\\n  - q3\\nsource:\\n  conversation: conv-1\\n  run: run-7\\n  note: Projects/Plan.md\\n  commit: null\\n---\\n\\nThe user prefers \\*\\*weekly\\*\\* reviews on Friday.\\n$`));
    const stamp = Date.parse(/timestamp: (\S+)/.exec(text)?.[1] ?? '');
    expect(stamp).toBeGreaterThanOrEqual(before - 1000);
    const local = new Date(stamp);
    const pad = (n: number): string => String(n).padStart(2, '0');
    expect(path.startsWith(`Memories/${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}/${pad(local.getHours())}${pad(local.getMinutes())}${pad(local.getSeconds())}_`)).toBe(true);
    expect(vault.context.writeSet.list()).toEqual([{ path, existedBefore: false }]);
  });

  it('gives two memories of the same second different notes and ids', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => vault.mem.remember(`Memory ${i}`)));
    expect(new Set(results.map((result) => result.path)).size).toBe(10);
    expect(new Set(results.map((result) => result.id)).size).toBe(10);
  });

  it('never gives two concurrent memories the same note when both draw the same name', async () => {
    // The first two draws (each call's first name suffix) are equal; later ones are random.
    const real = crypto.getRandomValues.bind(crypto);
    let draws = 0;
    const fill = (array: Uint8Array): Uint8Array => {
      draws += 1;
      return draws <= 2 ? array.fill(7) : real(array);
    };
    const spy = vi.spyOn(crypto, 'getRandomValues').mockImplementation(fill as typeof crypto.getRandomValues);
    try {
      const results = await Promise.all([vault.mem.remember('First of the second'), vault.mem.remember('Second of the second')]);
      expect(new Set(results.map((result) => result.path)).size).toBe(2);
      expect(await vault.disk(results[0]?.path ?? '')).toContain('First of the second');
      expect(await vault.disk(results[1]?.path ?? '')).toContain('Second of the second');
    } finally {
      spy.mockRestore();
    }
  });

  describe('with hostile arguments', () => {
    it.each([
      ['no content', [undefined]],
      ['empty content', ['   ']],
      ['content that is not text', [{ toString: () => 'x' }]],
      ['overlong content', ['x'.repeat(20_001)]],
      ['tags that are not a list', ['ok', 'tag']],
      ['too many tags', ['ok', Array.from({ length: 21 }, (_, i) => `t${i}`)]],
      ['a tag that is not text', ['ok', [1]]],
    ])('refuses %s and writes nothing', async (_case, args) => {
      await expect((vault.mem.remember as (...a: unknown[]) => Promise<unknown>)(...args)).rejects.toMatchObject({ code: 'InvalidArgument', data: { caller: 'mem.remember' } });
      expect(vault.context.writeSet.size).toBe(0);
    });
  });
});

describe('remember in a Logseq graph', () => {
  const vault = useMemFixture(RUNTIMES[0]!, { logseq: true });

  it('writes the memory as a block, so the note keeps Logseq\'s rules', async () => {
    const { path } = await vault.mem.remember('First line\n\nSecond paragraph');
    expect((await vault.disk(path)).endsWith('---\n\n- First line\n\n  Second paragraph\n')).toBe(true);
    const outline = await vault.mem.remember('- already\n  an outline');
    expect((await vault.disk(outline.path)).endsWith('---\n\n- already\n  an outline\n')).toBe(true);
  });
});

describe('remember with a refused memory folder', () => {
  const vault = useMemFixture(RUNTIMES[0]!, { memoryFolder: '.obsidian/memories' });

  it('fails with PathRefused and writes nothing', async () => {
    await expect(vault.mem.remember('x')).rejects.toMatchObject({ code: 'PathRefused', data: { caller: 'mem.remember' } });
    expect(vault.context.writeSet.size).toBe(0);
  });
});

describe('remember in a vault with history', () => {
  const temp = useTempDir();

  it('records the HEAD commit and is committed by commitChanges like any change', async () => {
    const opened = await openVault(temp.dir, { watch: false, memoryFolder: 'Journal/Memories/' });
    try {
      await opened.git?.whenSnapshotDone();
      await opened.mem.writeFile('a.md', '# A\n');
      const first = await opened.mem.commitChanges('Add a');
      const { path } = await opened.mem.remember('Remember a.');
      expect(path.startsWith('Journal/Memories/')).toBe(true);
      expect(await opened.port.readText(path)).toContain(`  commit: ${first}\n`);
      await opened.mem.commitChanges('Remember a');
      expect(gitCli(temp.dir, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual(['Remember a', '', path]);
      expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    } finally {
      await opened.close();
    }
  });
});
