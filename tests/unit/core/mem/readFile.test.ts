import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('readFile ($name)', (runtime) => {
  const vault = useMemFixture(runtime, { maxReadBytes: 1024 });

  it('returns the exact text, keeping CRLF and a byte-order mark', async () => {
    await vault.seed('Notes/a.md', '\uFEFF# Title\r\nbody 🙂');
    expect(await vault.mem.readFile('Notes/a.md')).toBe('\uFEFF# Title\r\nbody 🙂');
  });

  it('accepts un-normalized spellings of a path', async () => {
    await vault.seed('Notes/a.md', 'x');
    expect(await vault.mem.readFile('./Notes//a.md')).toBe('x');
    expect(await vault.mem.readFile('Notes\\a.md')).toBe('x');
  });

  describe('when the file cannot be read as text', () => {
    it('names a missing file', async () => {
      await expect(vault.mem.readFile('missing.md')).rejects.toMatchObject({
        code: 'NotFound',
        data: { path: 'missing.md', caller: 'mem.readFile' },
      });
    });

    it('refuses a folder', async () => {
      await vault.seed('Folder/x.md', 'x');
      await expect(vault.mem.readFile('Folder')).rejects.toMatchObject({ code: 'WrongKind', data: { expected: 'file' } });
    });

    it('refuses a binary file, giving its size', async () => {
      await vault.seed('image.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
      await expect(vault.mem.readFile('image.png')).rejects.toMatchObject({
        code: 'BinaryFile',
        data: { path: 'image.png', size: 8 },
      });
    });

    it('refuses invalid UTF-8 as binary', async () => {
      await vault.seed('latin1.txt', Uint8Array.from([0x63, 0x61, 0x66, 0xe9]));
      await expect(vault.mem.readFile('latin1.txt')).rejects.toMatchObject({ code: 'BinaryFile' });
    });

    it('refuses a file over the read limit, giving size and limit', async () => {
      await vault.seed('big.md', 'x'.repeat(2000));
      await expect(vault.mem.readFile('big.md')).rejects.toMatchObject({
        code: 'FileTooLarge',
        data: { path: 'big.md', size: 2000, limit: 1024 },
      });
    });
  });

  describe('when the path is hostile', () => {
    it.each(['../outside.md', '/etc/passwd', '.obsidian/plugins/recursa/data.json', '.git/config', 'C:\\x.md'])(
      'refuses %s',
      async (path) => {
        await expect(vault.mem.readFile(path)).rejects.toMatchObject({ code: 'PathRefused', data: { caller: 'mem.readFile' } });
      },
    );

    it('refuses a non-string argument', async () => {
      await expect((vault.mem.readFile as (p: unknown) => Promise<string>)({ toString: () => 'a.md' })).rejects.toMatchObject({
        code: 'PathRefused',
        data: { rule: 'not-a-string' },
      });
    });
  });
});
