import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeIgnore, recursaIgnoreLines } from '../../../../src/core/git/gitignore';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

describe('recursaIgnoreLines', () => {
  it('keeps out workspace state, the plugin data file and the trash under the given config folder', () => {
    const lines = recursaIgnoreLines('.config');
    expect(lines).toContain('/.config/workspace.json');
    expect(lines).toContain('/.config/workspace-mobile.json');
    expect(lines).toContain('/.config/plugins/recursa/data.json');
    expect(lines).toContain('/.trash/');
  });

  it('keeps out installed plugins\' code and source maps under the given config folder', () => {
    const lines = recursaIgnoreLines('.config');
    expect(lines).toContain('/.config/plugins/*/main.js');
    expect(lines).toContain('/.config/plugins/**/*.map');
  });

  describe('when the git CLI reads them', () => {
    const temp = useTempDir('recursa-ignore-');

    /** The paths of `paths` that `git check-ignore` says are ignored by a `.gitignore` of Recursa's lines. */
    const ignoredByGit = async (paths: string[]): Promise<string[]> => {
      gitCli(temp.dir, 'init', '--quiet');
      await writeFile(join(temp.dir, '.gitignore'), mergeIgnore('', recursaIgnoreLines('.obsidian')) ?? '');
      try {
        // check-ignore needs no file on disk; it exits 1 when nothing is ignored.
        return gitCli(temp.dir, 'check-ignore', '--no-index', ...paths).split('\n').filter(Boolean).sort();
      } catch (error) {
        if ((error as { status?: unknown }).status === 1) return [];
        throw error;
      }
    };

    it('ignores plugin bundles and source maps, at any depth for maps', async () => {
      const code = [
        '.obsidian/plugins/foo/main.js',
        '.obsidian/plugins/foo/main.js.map',
        '.obsidian/plugins/foo/dist/chunk.js.map',
        '.obsidian/plugins/recursa/main.js',
      ];
      expect(await ignoredByGit(code)).toEqual([...code].sort());
    });

    it('keeps plugin settings, manifests, styles and vault files versioned', async () => {
      expect(
        await ignoredByGit([
          '.obsidian/plugins/foo/data.json',
          '.obsidian/plugins/foo/manifest.json',
          '.obsidian/plugins/foo/styles.css',
          'scripts/main.js',
          'Notes/plugins/foo/main.js',
        ]),
      ).toEqual([]);
    });

    it('ignores Recursa\'s own data file, which holds API keys', async () => {
      expect(await ignoredByGit(['.obsidian/plugins/recursa/data.json'])).toEqual(['.obsidian/plugins/recursa/data.json']);
    });
  });
});

describe('mergeIgnore', () => {
  it('writes every line into an empty file', () => {
    expect(mergeIgnore('', ['a', 'b'])).toBe("# Added by Recursa: per-device state, the plugin's secrets, trash\na\nb\n");
  });

  it('adds only the missing lines, after the existing ones, leaving them untouched', () => {
    expect(mergeIgnore('node_modules\r\na', ['a', 'b'])).toBe(
      "node_modules\r\na\n\n# Added by Recursa: per-device state, the plugin's secrets, trash\nb\n",
    );
  });

  it('returns null when nothing is missing', () => {
    expect(mergeIgnore('b\n  a  \n', ['a', 'b'])).toBeNull();
  });
});
