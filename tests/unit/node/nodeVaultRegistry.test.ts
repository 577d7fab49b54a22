import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileVaultRegistry } from '../../../src/core/memory/fileVaultRegistry';
import { fsRegistryFileSystem } from '../../../src/core/memory/fsRegistryFileSystem';
import { createNodeVaultRegistry, registryFileIn } from '../../../src/node/nodeVaultRegistry';
import { useTempDir } from '../../helpers/tempVault';
import fs from 'node:fs/promises';
import path from 'node:path';

describe('the registry of vaults (Node)', () => {
  const home = useTempDir('recursa-home-');

  it('registers vaults most recent first, refreshing an entry instead of repeating it', async () => {
    let clock = 0;
    const registry = createFileVaultRegistry(fsRegistryFileSystem(fs, path, registryFileIn(home.dir)), () => new Date(Date.UTC(2026, 0, 1) + ++clock * 1000));
    await registry.register({ root: '/a', name: 'A', memoryFolder: 'Memories' });
    await registry.register({ root: '/b', name: 'B', memoryFolder: 'Memories' });
    await registry.register({ root: '/a', name: 'A renamed', memoryFolder: 'Notes/Mem' });
    expect(await registry.list()).toEqual([
      { root: '/a', name: 'A renamed', memoryFolder: 'Notes/Mem', lastOpened: '2026-01-01T00:00:03.000Z' },
      { root: '/b', name: 'B', memoryFolder: 'Memories', lastOpened: '2026-01-01T00:00:02.000Z' },
    ]);
  });

  it('reads a missing, broken or foreign registry file as empty, and skips malformed entries', async () => {
    const registry = createNodeVaultRegistry({ home: home.dir });
    expect(await registry.list()).toEqual([]);
    await mkdir(join(home.dir, '.recursa'));
    for (const text of ['not json', '[]', '{"vaults": "x"}', 'null']) {
      await writeFile(registryFileIn(home.dir), text);
      expect(await registry.list()).toEqual([]);
    }
    await writeFile(registryFileIn(home.dir), JSON.stringify({ version: 1, vaults: [{ root: '' }, { root: '/ok', name: 'Ok', memoryFolder: 'M', lastOpened: 'x' }, 7] }));
    expect((await registry.list()).map((vault) => vault.root)).toEqual(['/ok']);
    await registry.register({ root: '/new', name: 'New', memoryFolder: 'M' });
    expect(JSON.parse(await readFile(registryFileIn(home.dir), 'utf8'))).toMatchObject({ version: 1, vaults: [{ root: '/new' }, { root: '/ok' }] });
  });

  it("reads the .md files of a vault's memory folder, skipping hidden folders, other files and oversized notes", async () => {
    const vault = join(home.dir, 'vault');
    await mkdir(join(vault, 'Memories/2026-01-01/.hidden'), { recursive: true });
    await writeFile(join(vault, 'Memories/2026-01-01/100000_abcd.md'), 'one');
    await writeFile(join(vault, 'Memories/2026-01-01/.hidden/x.md'), 'hidden');
    await writeFile(join(vault, 'Memories/2026-01-01/image.png'), 'png');
    await writeFile(join(vault, 'Memories/big.md'), 'x'.repeat(300 * 1024));
    await writeFile(join(vault, 'outside.md'), 'outside');
    const registry = createNodeVaultRegistry({ home: home.dir });
    const files = await registry.readMemoryFiles({ root: vault, name: 'V', memoryFolder: 'Memories/', lastOpened: '' });
    expect(files.map((file) => [file.path, file.text])).toEqual([['Memories/2026-01-01/100000_abcd.md', 'one']]);
    for (const folder of ['../', '..', '/etc', 'C:/Windows', 'Memories/../..']) {
      expect(await registry.readMemoryFiles({ root: vault, name: 'V', memoryFolder: folder, lastOpened: '' })).toEqual([]);
    }
    expect(await registry.readMemoryFiles({ root: join(home.dir, 'missing'), name: 'M', memoryFolder: 'Memories', lastOpened: '' })).toEqual([]);
  });
});
