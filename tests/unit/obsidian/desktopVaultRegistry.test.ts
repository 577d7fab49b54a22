import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDesktopVaultRegistry } from '../../../src/obsidian/desktopVaultRegistry';
import { setTestPlatform } from '../../helpers/obsidian/platform';
import { useTempDir } from '../../helpers/tempVault';

const nodeRequire = createRequire(import.meta.url);

describe('createDesktopVaultRegistry', () => {
  const home = useTempDir('recursa-home-');
  beforeEach(() => {
    setTestPlatform('desktop');
    // The renderer's `window.require` (Electron), with the home folder moved to a temporary one.
    vi.stubGlobal('window', { require: (id: string) => (id === 'os' ? { homedir: () => home.dir } : (nodeRequire(id) as unknown)) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setTestPlatform('desktop');
  });

  it('keeps the registry in ~/.recursa/vaults.json, the file the command line uses', async () => {
    const registry = createDesktopVaultRegistry();
    expect(registry).not.toBeNull();
    await registry?.register({ root: '/vaults/Work', name: 'Work', memoryFolder: 'Memories/' });
    const file = JSON.parse(await readFile(join(home.dir, '.recursa/vaults.json'), 'utf8')) as { version: number; vaults: { root: string; name: string }[] };
    expect(file).toMatchObject({ version: 1, vaults: [{ root: '/vaults/Work', name: 'Work', memoryFolder: 'Memories/' }] });
    expect(await registry?.readMemoryFiles((await registry.list())[0]!)).toEqual([]);
  });

  it('is null on mobile, where there is no Node', () => {
    setTestPlatform('phone');
    expect(createDesktopVaultRegistry()).toBeNull();
  });

  it('is null when the renderer cannot load Node modules', () => {
    vi.stubGlobal('window', {});
    expect(createDesktopVaultRegistry()).toBeNull();
    vi.stubGlobal('window', { require: () => { throw new Error('Cannot find module'); } });
    expect(createDesktopVaultRegistry()).toBeNull();
  });
});
