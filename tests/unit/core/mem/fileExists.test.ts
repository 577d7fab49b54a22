import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('fileExists ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('is true for files and folders and false for missing paths', async () => {
    await vault.seed('Daily/2026-11-21.md', 'x');
    expect(await vault.mem.fileExists('Daily/2026-11-21.md')).toBe(true);
    expect(await vault.mem.fileExists('Daily')).toBe(true);
    expect(await vault.mem.fileExists('Daily/2026-11-22.md')).toBe(false);
  });

  it('throws for a refused path instead of answering false', async () => {
    await expect(vault.mem.fileExists('.git/HEAD')).rejects.toMatchObject({ code: 'PathRefused', data: { caller: 'mem.fileExists' } });
  });
});
