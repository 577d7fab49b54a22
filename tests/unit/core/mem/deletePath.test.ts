import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('deletePath ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('deletes a file and records it', async () => {
    await vault.seed('Inbox/dup.md', 'x');
    expect(await vault.mem.deletePath('Inbox/dup.md')).toBe(true);
    expect(await vault.mem.fileExists('Inbox/dup.md')).toBe(false);
    expect(vault.context.writeSet.list()).toEqual([{ path: 'Inbox/dup.md', existedBefore: true }]);
  });

  it('deletes a folder recursively', async () => {
    await vault.seed('Old/a.md', 'a');
    await vault.seed('Old/Deeper/b.md', 'b');
    await vault.mem.deletePath('Old');
    expect(await vault.mem.fileExists('Old')).toBe(false);
    expect(await vault.mem.fileExists('Old/Deeper/b.md')).toBe(false);
  });

  it('fails with NotFound for a missing path', async () => {
    await expect(vault.mem.deletePath('missing.md')).rejects.toMatchObject({
      code: 'NotFound',
      data: { caller: 'mem.deletePath' },
    });
  });

  it.each(['', '.', './', '/', '..', '.git', '.obsidian', '.trash'])('never deletes %j', async (path) => {
    await vault.seed('keep.md', 'x');
    await expect(vault.mem.deletePath(path)).rejects.toMatchObject({ code: 'PathRefused' });
    expect(await vault.disk('keep.md')).toBe('x');
  });
});
