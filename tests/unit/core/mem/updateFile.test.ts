import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('updateFile ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('swaps the content when it still matches', async () => {
    await vault.seed('Tasks.md', '- [ ] Call Bob\n');
    const before = await vault.mem.readFile('Tasks.md');
    expect(await vault.mem.updateFile('Tasks.md', before, '- [x] Call Bob\n')).toBe(true);
    expect(await vault.disk('Tasks.md')).toBe('- [x] Call Bob\n');
    expect(vault.context.writeSet.list()).toEqual([{ path: 'Tasks.md', existedBefore: true }]);
  });

  describe('when the file changed since it was read', () => {
    it('writes nothing and says so', async () => {
      await vault.seed('Tasks.md', 'original');
      const before = await vault.mem.readFile('Tasks.md');
      await vault.seed('Tasks.md', 'the user edited this');
      await expect(vault.mem.updateFile('Tasks.md', before, 'agent version')).rejects.toMatchObject({
        code: 'Conflict',
        data: { path: 'Tasks.md', caller: 'mem.updateFile' },
      });
      expect(await vault.disk('Tasks.md')).toBe('the user edited this');
      expect(vault.context.writeSet.size).toBe(0);
    });

    it('compares the whole content, not a substring', async () => {
      await vault.seed('a.md', 'abc');
      await expect(vault.mem.updateFile('a.md', 'b', 'x')).rejects.toMatchObject({ code: 'Conflict' });
      expect(await vault.disk('a.md')).toBe('abc');
    });
  });

  it('validates the new content before writing', async () => {
    await vault.seed('a.md', 'plain');
    await expect(vault.mem.updateFile('a.md', 'plain', '---\n[broken\n---\n')).rejects.toMatchObject({
      code: 'InvalidContent',
      data: { rule: 'frontmatter-yaml' },
    });
    expect(await vault.disk('a.md')).toBe('plain');
  });

  it('fails with NotFound for a missing file', async () => {
    await expect(vault.mem.updateFile('missing.md', '', 'x')).rejects.toMatchObject({ code: 'NotFound' });
    expect(await vault.mem.fileExists('missing.md')).toBe(false);
  });

  it('lets exactly one of two racing updates win', async () => {
    await vault.seed('race.md', 'v0');
    const results = await Promise.allSettled([
      vault.mem.updateFile('race.md', 'v0', 'from A'),
      vault.mem.updateFile('race.md', 'v0', 'from B'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(['from A', 'from B']).toContain(await vault.disk('race.md'));
  });
});
