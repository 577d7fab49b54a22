import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('createDir ($name)', (runtime) => {
  const vault = useMemFixture(runtime);

  it('creates nested folders and succeeds again when they exist', async () => {
    expect(await vault.mem.createDir('Projects/2026/Q4')).toBe(true);
    expect(await vault.mem.createDir('Projects/2026/Q4')).toBe(true);
    expect((await stat(join(vault.dir, 'Projects/2026/Q4'))).isDirectory()).toBe(true);
  });

  it('fails with WrongKind when a file is in the way', async () => {
    await vault.seed('file.md', 'x');
    await expect(vault.mem.createDir('file.md')).rejects.toMatchObject({ code: 'WrongKind' });
  });

  it('refuses protected folders', async () => {
    await expect(vault.mem.createDir('.obsidian/plugins/evil')).rejects.toMatchObject({ code: 'PathRefused' });
  });
});
