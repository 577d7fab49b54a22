import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('replaceInFile ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('replaces the single occurrence literally', async () => {
    await vault.seed('Plan.md', 'status:: draft\nprice: $5\n');
    await vault.mem.replaceInFile('Plan.md', 'price: $5', 'price: $& $1 $$');
    expect(await vault.disk('Plan.md')).toBe('status:: draft\nprice: $& $1 $$\n');
    expect(vault.context.writeSet.paths()).toEqual(['Plan.md']);
  });

  it('can delete the text with an empty replacement', async () => {
    await vault.seed('a.md', 'keep remove keep');
    await vault.mem.replaceInFile('a.md', ' remove', '');
    expect(await vault.disk('a.md')).toBe('keep keep');
  });

  describe('when the text does not occur exactly once', () => {
    it('reports zero occurrences and writes nothing', async () => {
      await vault.seed('a.md', 'abc');
      await expect(vault.mem.replaceInFile('a.md', 'zzz', 'y')).rejects.toMatchObject({
        code: 'MatchCount',
        data: { path: 'a.md', count: 0 },
      });
      expect(await vault.disk('a.md')).toBe('abc');
      expect(vault.context.writeSet.size).toBe(0);
    });

    it('reports how many times it occurs', async () => {
      await vault.seed('a.md', 'x y x y x');
      await expect(vault.mem.replaceInFile('a.md', 'x', 'z')).rejects.toMatchObject({ code: 'MatchCount', data: { count: 3 } });
      expect(await vault.disk('a.md')).toBe('x y x y x');
    });

    it('counts overlapping occurrences as ambiguous', async () => {
      await vault.seed('a.md', 'aaa');
      await expect(vault.mem.replaceInFile('a.md', 'aa', 'b')).rejects.toMatchObject({ code: 'MatchCount', data: { count: 2 } });
    });
  });

  it('refuses an empty search text', async () => {
    await vault.seed('a.md', 'abc');
    await expect(vault.mem.replaceInFile('a.md', '', 'x')).rejects.toMatchObject({
      code: 'InvalidArgument',
      data: { argument: 'search' },
    });
  });

  it('validates the resulting note', async () => {
    await vault.seed('a.md', '---\ntitle: ok\n---\nbody');
    await expect(vault.mem.replaceInFile('a.md', 'title: ok', 'title: [unclosed')).rejects.toMatchObject({
      code: 'InvalidContent',
      data: { rule: 'frontmatter-yaml' },
    });
    expect(await vault.disk('a.md')).toBe('---\ntitle: ok\n---\nbody');
  });
});
