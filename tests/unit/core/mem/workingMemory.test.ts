import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('workingMemory ($name)', (runtime) => {
  const vault = useMemFixture(runtime, { workingMemoryNote: 'Recursa/WM.md', workingMemoryCharLimit: 120, workingMemoryChildLimit: 3 });

  it('sets, gets, lists, moves and removes by /-path, keeping the tree in a note the user can read', async () => {
    expect(await vault.mem.workingMemory('get', '/')).toEqual({});
    expect(await vault.mem.workingMemory('set', '/tasks/todo/report', 'Draft Q3')).toEqual({ size: JSON.stringify({ tasks: { todo: { report: 'Draft Q3' } } }).length, limit: 120 });
    await vault.mem.workingMemory('set', 'tasks/todo/call', { who: 'Ada', when: 'Mon' });
    expect(await vault.mem.workingMemory('list', '/tasks/todo')).toEqual(['report', 'call/']);
    expect(await vault.mem.workingMemory('get', '/tasks/todo/call/who')).toBe('Ada');
    await vault.mem.workingMemory('move', '/tasks/todo/report', '/tasks/done/report');
    await vault.mem.workingMemory('remove', '/tasks/todo/call');
    expect(await vault.mem.workingMemory('get', '/')).toEqual({ tasks: { todo: {}, done: { report: 'Draft Q3' } } });
    const note = await vault.disk('Recursa/WM.md');
    expect(note).toContain('```yaml\ntasks:\n  todo: {}\n  done:\n    report: Draft Q3\n```');
    expect(vault.context.writeSet.list()).toEqual([{ path: 'Recursa/WM.md', existedBefore: false }]);
  });

  it('reads what the user wrote into the note by hand', async () => {
    await vault.seed('Recursa/WM.md', '# Mine\n\n```yaml\nfocus: writing\n```\n');
    expect(await vault.mem.workingMemory('get', '/focus')).toBe('writing');
  });

  describe('when a write would exceed a limit', () => {
    it('fails with the character limit, the current size and a hint, and writes nothing', async () => {
      await vault.mem.workingMemory('set', '/a', 'x'.repeat(80));
      const before = await vault.disk('Recursa/WM.md');
      const error = await vault.mem.workingMemory('set', '/b', 'y'.repeat(40)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'WorkingMemory', data: { problem: 'char-limit', limit: 120, size: 88, caller: 'mem.workingMemory' } });
      expect((error as Error).message).toMatch(/limited to 120 characters; it holds 88 now .* storage/);
      expect(await vault.disk('Recursa/WM.md')).toBe(before);
    });

    it('fails with the children limit', async () => {
      for (const name of ['a', 'b', 'c']) await vault.mem.workingMemory('set', `/todo/${name}`, 1);
      await expect(vault.mem.workingMemory('set', '/todo/d', 1)).rejects.toMatchObject({ data: { problem: 'child-limit', limit: 3, size: 3, path: '/todo' } });
    });
  });

  describe('with hostile arguments', () => {
    it('refuses unknown operations, missing values and bad paths', async () => {
      await expect(vault.mem.workingMemory('drop' as never, '/')).rejects.toMatchObject({ code: 'InvalidArgument' });
      await expect(vault.mem.workingMemory('set', '/a')).rejects.toMatchObject({ code: 'InvalidArgument', data: { argument: 'value' } });
      await expect(vault.mem.workingMemory('set', '/../../etc', 'x')).rejects.toMatchObject({ code: 'WorkingMemory', data: { problem: 'bad-path' } });
      await expect(vault.mem.workingMemory('get', 42 as never)).rejects.toMatchObject({ code: 'WorkingMemory', data: { problem: 'bad-path' } });
      expect(vault.context.writeSet.size).toBe(0);
    });

    it('says what is wrong with a note it cannot read', async () => {
      await vault.seed('Recursa/WM.md', '```yaml\n[broken\n```\n');
      await expect(vault.mem.workingMemory('get', '/')).rejects.toMatchObject({ code: 'WorkingMemory', data: { problem: 'unreadable', path: 'Recursa/WM.md' } });
    });
  });
});

describe('workingMemory with a refused note setting', () => {
  const vault = useMemFixture(RUNTIMES[0]!, { workingMemoryNote: '.git/wm.md' });

  it('fails with PathRefused', async () => {
    await expect(vault.mem.workingMemory('set', '/a', 1)).rejects.toMatchObject({ code: 'PathRefused' });
  });
});
