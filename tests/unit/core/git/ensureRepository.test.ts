import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureRepository, markSnapshotDone } from '../../../../src/core/git/ensureRepository';
import type { VaultPort } from '../../../../src/core/ports';
import { gitCli } from '../../../helpers/gitCli';
import { RUNTIMES, type OpenedRuntime } from '../../../helpers/memHarness';
import { useTempDir } from '../../../helpers/tempVault';

describe.each(RUNTIMES)('ensureRepository ($name)', (runtime) => {
  const temp = useTempDir();
  let opened: OpenedRuntime;
  let vault: VaultPort;

  beforeEach(async () => {
    await writeFile(join(temp.dir, 'Note.md'), '# Note\n');
    await mkdir(join(temp.dir, '.obsidian'));
    await writeFile(join(temp.dir, '.obsidian/workspace.json'), '{}');
    opened = await runtime.open(temp.dir);
    vault = opened.port;
  });
  afterEach(async () => opened.dispose());

  describe('when the vault has no repository', () => {
    it('initialises one on main that the git CLI accepts', async () => {
      expect(await ensureRepository(vault, { configDir: '.obsidian' })).toEqual({ created: true, branch: 'main' });
      expect(gitCli(temp.dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
      expect(gitCli(temp.dir, 'fsck', '--full')).toBe('');
    });

    it("ignores workspace state, plugin code and the plugin's settings, index, conversations and action log, but not notes or other plugins' settings", async () => {
      await ensureRepository(vault, { configDir: '.obsidian' });
      const ignored = ['.obsidian/workspace.json', '.obsidian/plugins/recursa/data.json', '.trash/x.md', '.obsidian/plugins/recursa/graph-index.json', '.obsidian/plugins/recursa/graph-index.mi4x2k-7f3a9c.0.jsonl', '.obsidian/plugins/recursa/conversations/c1.json', '.obsidian/plugins/recursa/action-log.json'];
      expect(gitCli(temp.dir, 'check-ignore', ...ignored).trim().split('\n')).toEqual(ignored);
      expect(gitCli(temp.dir, 'check-ignore', '.obsidian/plugins/recursa/main.js').trim()).toBe('.obsidian/plugins/recursa/main.js');
      expect(() => gitCli(temp.dir, 'check-ignore', '.obsidian/plugins/recursa/manifest.json')).toThrow();
      expect(() => gitCli(temp.dir, 'check-ignore', '.obsidian/plugins/dataview/data.json')).toThrow();
      expect(gitCli(temp.dir, 'status', '--porcelain', '--untracked-files=all')).toContain('?? Note.md');
    });

    it('adds its rules to an existing .gitignore without changing its lines', async () => {
      await writeFile(join(temp.dir, '.gitignore'), 'private/\n');
      await ensureRepository(vault, { configDir: '.obsidian' });
      const text = await readFile(join(temp.dir, '.gitignore'), 'utf8');
      expect(text.startsWith('private/\n')).toBe(true);
      expect(text).toContain('/.obsidian/plugins/recursa/data.json');
    });
  });

  describe('when a first snapshot was cut short', () => {
    it('is recognised as unfinished, and made whole again, whatever step the start stopped at', async () => {
      await ensureRepository(vault, { configDir: '.obsidian' });
      await rm(join(temp.dir, '.git/HEAD'));
      expect(await ensureRepository(vault, { configDir: '.obsidian' })).toEqual({ created: true, branch: 'main' });
      expect(gitCli(temp.dir, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
      await markSnapshotDone(vault);
      expect(await ensureRepository(vault, { configDir: '.obsidian' })).toEqual({ created: false, branch: 'main' });
    });
  });

  describe('when the vault already is a repository', () => {
    it('uses it as it is: branch, history and .gitignore untouched', async () => {
      gitCli(temp.dir, 'init', '--quiet', '--initial-branch=trunk');
      await writeFile(join(temp.dir, '.gitignore'), 'mine\n');
      gitCli(temp.dir, 'add', '.gitignore');
      gitCli(temp.dir, 'commit', '--quiet', '-m', 'user history');
      const head = gitCli(temp.dir, 'rev-parse', 'HEAD');
      expect(await ensureRepository(vault, { configDir: '.obsidian' })).toEqual({ created: false, branch: 'trunk' });
      expect(gitCli(temp.dir, 'rev-parse', 'HEAD')).toBe(head);
      expect(await readFile(join(temp.dir, '.gitignore'), 'utf8')).toBe('mine\n');
    });
  });
});
