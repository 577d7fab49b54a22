import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('listFiles ($name)', (runtime) => {
  const vault = useMemFixture(runtime, { protectedFolders: ['Private'] });

  it('lists the root with folders marked by a slash, hiding protected folders', async () => {
    await vault.seed('top.md', 'x');
    await vault.seed('Projects/Plan.md', 'x');
    await vault.seed('.obsidian/app.json', '{}');
    await vault.seed('.git/HEAD', 'ref');
    await vault.seed('.trash/old.md', 'x');
    await vault.seed('Private/diary.md', 'x');
    await vault.seed('.gitignore', 'x');
    expect(await vault.mem.listFiles()).toEqual(['.gitignore', 'Projects/', 'top.md']);
    expect(await vault.mem.listFiles('')).toEqual(['.gitignore', 'Projects/', 'top.md']);
  });

  it('lists a folder non-recursively with full paths', async () => {
    await vault.seed('Projects/Plan.md', 'x');
    await vault.seed('Projects/Archive/old.md', 'x');
    expect(await vault.mem.listFiles('Projects')).toEqual(['Projects/Archive/', 'Projects/Plan.md']);
  });

  it('fails with NotFound for a missing folder and WrongKind for a file', async () => {
    await vault.seed('a.md', 'x');
    await expect(vault.mem.listFiles('missing')).rejects.toMatchObject({ code: 'NotFound', data: { caller: 'mem.listFiles' } });
    await expect(vault.mem.listFiles('a.md')).rejects.toMatchObject({ code: 'WrongKind' });
  });

  it('refuses to list protected folders', async () => {
    await expect(vault.mem.listFiles('.git')).rejects.toMatchObject({ code: 'PathRefused' });
    await expect(vault.mem.listFiles('private')).rejects.toMatchObject({ code: 'PathRefused' });
  });
});
