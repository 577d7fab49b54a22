import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUNTIMES, useMemFixture } from '../../../helpers/memHarness';

describe.each(RUNTIMES)('the path gate of mem ($name)', (runtime) => {
  describe('names Obsidian can link', () => {
    const vault = useMemFixture(runtime);

    it.each(['#', '^', '[', ']'])('refuses a new name with %j, naming the character', async (character) => {
      const path = `Notes/Meeting ${character}3.md`;
      const error = await vault.mem.writeFile(path, 'x').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'PathRefused', data: { rule: 'unlinkable-character', path } });
      expect((error as Error).message).toContain(JSON.stringify(character));
      await expect(stat(join(vault.dir, path))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('refuses "|" as a character no file name may hold', async () => {
      await expect(vault.mem.writeFile('a|b.md', 'x')).rejects.toMatchObject({ data: { rule: 'forbidden-character' } });
    });

    it('refuses new folders and rename targets with such names too', async () => {
      await vault.seed('a.md', 'x');
      await expect(vault.mem.createDir('C# notes')).rejects.toMatchObject({ data: { rule: 'unlinkable-character' } });
      await expect(vault.mem.writeFile('C# notes/a.md', 'x')).rejects.toMatchObject({ data: { rule: 'unlinkable-character' } });
      await expect(vault.mem.rename('a.md', 'a [old].md')).rejects.toMatchObject({ data: { rule: 'unlinkable-character' } });
      expect(await vault.disk('a.md')).toBe('x');
    });

    it('still reads, changes and moves existing notes and folders with such names', async () => {
      await vault.seed('C# notes/Q&A #2.md', 'old\n');
      expect(await vault.mem.readFile('C# notes/Q&A #2.md')).toBe('old\n');
      await vault.mem.replaceInFile('C# notes/Q&A #2.md', 'old', 'new');
      await vault.mem.writeFile('C# notes/plain.md', 'fine\n');
      await vault.mem.rename('C# notes/Q&A #2.md', 'Archive/Q and A 2.md');
      expect(await vault.disk('Archive/Q and A 2.md')).toBe('new\n');
      expect(await vault.disk('C# notes/plain.md')).toBe('fine\n');
    });

    it('refuses the volume trash folders like .trash', async () => {
      for (const path of ['.Trash-1000/files/x.md', '.Trashes/x.md', '$RECYCLE.BIN/x.md']) {
        await expect(vault.mem.writeFile(path, 'x'), path).rejects.toMatchObject({ data: { rule: 'protected-folder' } });
      }
    });
  });

  describe('files that steer git and the agent', () => {
    const vault = useMemFixture(runtime);

    it.each(['.gitignore', 'Notes/.gitignore', '.gitattributes', 'sub/.gitmodules', 'AGENTS.md', 'agents.md', '.GITIGNORE'])(
      'refuses to write %s',
      async (path) => {
        const error = await vault.mem.writeFile(path, 'planted\n').catch((e: unknown) => e);
        expect(error).toMatchObject({ code: 'PathRefused', data: { rule: 'protected-file' } });
        expect((error as Error).message).toContain('settings');
      },
    );

    it('refuses to change, move or delete them, or a folder holding one', async () => {
      await vault.seed('.gitignore', 'secret/\n');
      await vault.seed('Team/.gitattributes', '*.md text\n');
      await vault.seed('Team/plan.md', 'plan\n');
      await vault.seed('AGENTS.md', 'Be careful.\n');
      await expect(vault.mem.replaceInFile('.gitignore', 'secret/', '')).rejects.toMatchObject({ data: { rule: 'protected-file' } });
      await expect(vault.mem.updateFile('AGENTS.md', 'Be careful.\n', 'Obey notes.\n')).rejects.toMatchObject({ data: { rule: 'protected-file' } });
      await expect(vault.mem.deletePath('.gitignore')).rejects.toMatchObject({ data: { rule: 'protected-file' } });
      await expect(vault.mem.rename('AGENTS.md', 'old.md')).rejects.toMatchObject({ data: { rule: 'protected-file' } });
      await expect(vault.mem.rename('Team/plan.md', 'AGENTS.md')).rejects.toMatchObject({ data: { rule: 'protected-file' } });
      await expect(vault.mem.deletePath('Team')).rejects.toMatchObject({ data: { rule: 'protected-file', path: 'Team' } });
      await expect(vault.mem.rename('Team', 'Elsewhere')).rejects.toMatchObject({ data: { rule: 'protected-file' } });
      expect(await vault.disk('.gitignore')).toBe('secret/\n');
      expect(await vault.disk('AGENTS.md')).toBe('Be careful.\n');
      expect(await vault.disk('Team/plan.md')).toBe('plan\n');
      expect(vault.context.writeSet.size).toBe(0);
    });

    it('still lets the agent read them, and write an AGENTS.md that is not the vault\'s', async () => {
      await vault.seed('AGENTS.md', 'Be careful.\n');
      expect(await vault.mem.readFile('AGENTS.md')).toBe('Be careful.\n');
      await vault.mem.writeFile('Projects/AGENTS.md', 'project notes\n');
      expect(await vault.disk('Projects/AGENTS.md')).toBe('project notes\n');
    });
  });

  describe('when the user allows the agent to change protected files', () => {
    const vault = useMemFixture(runtime, { editProtectedFiles: true });

    it('writes, moves and deletes them', async () => {
      await vault.mem.writeFile('.gitignore', 'build/\n');
      await vault.mem.writeFile('AGENTS.md', 'Be brief.\n');
      expect(await vault.disk('.gitignore')).toBe('build/\n');
      await vault.mem.rename('AGENTS.md', 'Old AGENTS.md');
      await vault.mem.deletePath('.gitignore');
      expect(await vault.disk('Old AGENTS.md')).toBe('Be brief.\n');
      await expect(stat(join(vault.dir, '.gitignore'))).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });
});
