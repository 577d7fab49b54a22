import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('getTokenCountForPaths ($name)', (runtime) => {
  const vault = useMemFixture(runtime, { maxPathsPerCall: 3 });

  it('returns one count per path, in order, with normalized paths', async () => {
    await vault.seed('a.md', 'hello world');
    await vault.seed('B/b.md', 'one two three four');
    expect(await vault.mem.getTokenCountForPaths(['B\\b.md', './a.md'])).toEqual([
      { path: 'B/b.md', tokenCount: 4 },
      { path: 'a.md', tokenCount: 2 },
    ]);
  });

  it('returns an empty list for no paths', async () => {
    expect(await vault.mem.getTokenCountForPaths([])).toEqual([]);
  });

  it('names the first path that fails', async () => {
    await vault.seed('a.md', 'x');
    await expect(vault.mem.getTokenCountForPaths(['a.md', 'missing.md'])).rejects.toMatchObject({
      code: 'NotFound',
      data: { path: 'missing.md' },
    });
  });

  it('refuses anything but an array of allowed size, and hostile paths inside it', async () => {
    const call = vault.mem.getTokenCountForPaths as (p: unknown) => Promise<unknown>;
    await expect(call('a.md')).rejects.toMatchObject({ code: 'InvalidArgument', data: { argument: 'paths' } });
    await expect(call(['a', 'b', 'c', 'd'])).rejects.toMatchObject({ code: 'InvalidArgument', data: { argument: 'paths' } });
    await expect(call(['../etc/passwd'])).rejects.toMatchObject({ code: 'PathRefused' });
  });
});
