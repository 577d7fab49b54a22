import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('writeFile ($name)', (runtime) => {
  const vault = useMemFixture(runtime, { maxWriteBytes: 4096 });

  it('creates a file and its parent folders and records it as created', async () => {
    expect(await vault.mem.writeFile('People/Ada Lovelace.md', '# Ada\n')).toBe(true);
    expect(await vault.disk('People/Ada Lovelace.md')).toBe('# Ada\n');
    expect(vault.context.writeSet.list()).toEqual([{ path: 'People/Ada Lovelace.md', existedBefore: false }]);
  });

  it('replaces an existing file and records that it existed', async () => {
    await vault.seed('a.md', 'old');
    await vault.mem.writeFile('a.md', 'new');
    expect(await vault.disk('a.md')).toBe('new');
    expect(vault.context.writeSet.list()).toEqual([{ path: 'a.md', existedBefore: true }]);
  });

  it('writes non-markdown files without note validation', async () => {
    await vault.mem.writeFile('data/config.yml', '---\n: : not yaml frontmatter');
    expect(await vault.disk('data/config.yml')).toBe('---\n: : not yaml frontmatter');
  });

  describe('when the content is invalid', () => {
    it('refuses frontmatter that is not a mapping and writes nothing', async () => {
      await expect(vault.mem.writeFile('bad.md', '---\n- a\n- b\n---\nbody')).rejects.toMatchObject({
        code: 'InvalidContent',
        data: { path: 'bad.md', rule: 'frontmatter-not-mapping', caller: 'mem.writeFile' },
      });
      expect(await vault.mem.fileExists('bad.md')).toBe(false);
      expect(vault.context.writeSet.size).toBe(0);
    });

    it('refuses unclosed frontmatter without touching the existing file', async () => {
      await vault.seed('keep.md', 'original');
      await expect(vault.mem.writeFile('keep.md', '---\ntitle: x\nbody')).rejects.toMatchObject({
        code: 'InvalidContent',
        data: { rule: 'frontmatter-unclosed', line: 1 },
      });
      expect(await vault.disk('keep.md')).toBe('original');
    });

    it('refuses content over the write limit', async () => {
      await expect(vault.mem.writeFile('huge.md', 'x'.repeat(5000))).rejects.toMatchObject({
        code: 'InvalidArgument',
        data: { argument: 'content' },
      });
    });

    it('refuses a non-string content', async () => {
      await expect((vault.mem.writeFile as (p: string, c: unknown) => Promise<boolean>)('a.md', 42)).rejects.toMatchObject({
        code: 'InvalidArgument',
        data: { argument: 'content', received: 'number' },
      });
    });
  });

  it('refuses to write over a folder', async () => {
    await vault.seed('Folder/x.md', 'x');
    await expect(vault.mem.writeFile('Folder', 'x')).rejects.toMatchObject({ code: 'WrongKind' });
  });

  it.each(['.obsidian/app.json', '.git/hooks/pre-commit', '.trash/x.md', '../escape.md'])('refuses the path %s', async (path) => {
    await expect(vault.mem.writeFile(path, 'x')).rejects.toMatchObject({ code: 'PathRefused' });
    expect(vault.context.writeSet.size).toBe(0);
  });
});

describe.each(RUNTIMES)('writeFile in Logseq mode ($name)', (runtime) => {
  const vault = useMemFixture(runtime, { logseq: true });

  it('accepts a well-formed outline', async () => {
    await vault.mem.writeFile('pages/Topic.md', 'tags:: ai\n\n- First\n\t- Child\n\t  id:: 1\n- Second\n');
    expect(await vault.disk('pages/Topic.md')).toContain('- Second');
  });

  it('refuses a line outside any block, naming the line', async () => {
    await expect(vault.mem.writeFile('pages/Topic.md', '- First\nloose text\n')).rejects.toMatchObject({
      code: 'InvalidContent',
      data: { rule: 'logseq-outside-block', line: 2 },
    });
  });
});
