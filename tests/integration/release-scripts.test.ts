import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/tempVault';

const repo = process.cwd();
const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

describe('release scripts', () => {
  const temp = useTempDir();

  describe('version-bump', () => {
    it('copies the new version into manifest.json and records it in versions.json', async () => {
      await copyFile(join(repo, 'manifest.json'), join(temp.dir, 'manifest.json'));
      await copyFile(join(repo, 'versions.json'), join(temp.dir, 'versions.json'));
      execFileSync(process.execPath, [join(repo, 'scripts/version-bump.mjs')], {
        cwd: temp.dir,
        env: { ...process.env, npm_package_version: '9.8.7' },
      });
      const manifest = await readJson(join(temp.dir, 'manifest.json'));
      const versions = await readJson(join(temp.dir, 'versions.json'));
      expect(manifest.version).toBe('9.8.7');
      expect(versions['9.8.7']).toBe(manifest.minAppVersion);
      expect(Object.keys(versions).length).toBeGreaterThan(1);
    });
  });

  describe('install-into-vault', () => {
    it('copies the three plugin files into the vault plugin folder', async () => {
      execFileSync(process.execPath, [join(repo, 'scripts/install-into-vault.mjs'), temp.dir], { cwd: repo });
      const target = join(temp.dir, '.obsidian/plugins/recursa');
      for (const file of ['main.js', 'manifest.json', 'styles.css']) {
        expect(await readFile(join(target, file), 'utf8')).toBe(await readFile(join(repo, file), 'utf8'));
      }
    });

    it('installs into the shipped demo vault when given no vault', async () => {
      // The script finds the demo vault beside its own folder: a copy of both in a temporary folder.
      await mkdir(join(temp.dir, 'scripts'));
      await mkdir(join(temp.dir, 'demo-vault'));
      await writeFile(join(temp.dir, 'scripts/install-into-vault.mjs'), await readFile(join(repo, 'scripts/install-into-vault.mjs')));
      execFileSync(process.execPath, [join(temp.dir, 'scripts/install-into-vault.mjs')], { cwd: repo });
      expect((await readJson(join(temp.dir, 'demo-vault/.obsidian/plugins/recursa/manifest.json'))).id).toBe('recursa');
    });

    it('honours a custom config folder', async () => {
      execFileSync(process.execPath, [join(repo, 'scripts/install-into-vault.mjs'), temp.dir, '.config'], { cwd: repo });
      expect((await readJson(join(temp.dir, '.config/plugins/recursa/manifest.json'))).id).toBe('recursa');
    });

    it('fails clearly when the vault path is not a folder', async () => {
      await mkdir(join(temp.dir, 'x'));
      await writeFile(join(temp.dir, 'x/file'), '');
      expect(() => execFileSync(process.execPath, [join(repo, 'scripts/install-into-vault.mjs'), join(temp.dir, 'x/file')], { cwd: repo, stdio: 'pipe' })).toThrow(/Not a folder/);
    });
  });
});
