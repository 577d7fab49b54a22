import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/tempVault';

const repo = process.cwd();
const readJson = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

describe('release scripts', () => {
  let dir: string;
  let remove: () => Promise<void>;

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir());
  });
  afterEach(async () => remove());

  describe('version-bump', () => {
    it('copies the new version into manifest.json and records it in versions.json', async () => {
      await copyFile(join(repo, 'manifest.json'), join(dir, 'manifest.json'));
      await copyFile(join(repo, 'versions.json'), join(dir, 'versions.json'));
      execFileSync(process.execPath, [join(repo, 'scripts/version-bump.mjs')], {
        cwd: dir,
        env: { ...process.env, npm_package_version: '9.8.7' },
      });
      const manifest = await readJson(join(dir, 'manifest.json'));
      const versions = await readJson(join(dir, 'versions.json'));
      expect(manifest.version).toBe('9.8.7');
      expect(versions['9.8.7']).toBe(manifest.minAppVersion);
      expect(Object.keys(versions).length).toBeGreaterThan(1);
    });
  });

  describe('install-into-vault', () => {
    it('copies the three plugin files into the vault plugin folder', async () => {
      execFileSync(process.execPath, [join(repo, 'scripts/install-into-vault.mjs'), dir], { cwd: repo });
      const target = join(dir, '.obsidian/plugins/recursa');
      for (const file of ['main.js', 'manifest.json', 'styles.css']) {
        expect(await readFile(join(target, file), 'utf8')).toBe(await readFile(join(repo, file), 'utf8'));
      }
    });

    it('honours a custom config folder', async () => {
      execFileSync(process.execPath, [join(repo, 'scripts/install-into-vault.mjs'), dir, '.config'], { cwd: repo });
      expect((await readJson(join(dir, '.config/plugins/recursa/manifest.json'))).id).toBe('recursa');
    });

    it('fails clearly when the vault path is not a folder', async () => {
      await mkdir(join(dir, 'x'));
      await writeFile(join(dir, 'x/file'), '');
      expect(() => execFileSync(process.execPath, [join(repo, 'scripts/install-into-vault.mjs'), join(dir, 'x/file')], { cwd: repo, stdio: 'pipe' })).toThrow(/Not a folder/);
    });
  });
});
