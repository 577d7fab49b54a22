import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitService } from '../../../../src/core/git/GitService';
import { createMem, DEFAULT_MEM_OPTIONS, WriteSet, type Mem } from '../../../../src/core/mem';
import type { VaultPort } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

const DEEP_NOTE = 'Projects/Garden/Beds/North.md';

/** Files named `tmp_obj_*` anywhere under `.git/objects`. */
async function temporaryObjects(dir: string): Promise<string[]> {
  const objects = join(dir, '.git/objects');
  const found: string[] = [];
  for (const folder of await readdir(objects)) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    for (const name of await readdir(join(objects, folder))) if (name.startsWith('tmp_obj_')) found.push(`${folder}/${name}`);
  }
  return found;
}

describe("a commit's trees and commit object", () => {
  const temp = useTempDir();

  async function seededRepository(): Promise<string> {
    const dir = temp.dir;
    await mkdir(join(dir, 'Projects/Garden/Beds'), { recursive: true });
    await writeFile(join(dir, DEEP_NOTE), '# North bed\n');
    await writeFile(join(dir, 'Inbox.md'), '- water\n');
    gitCli(dir, 'init', '-q', '-b', 'main');
    gitCli(dir, 'add', '-A');
    gitCli(dir, 'commit', '-q', '-m', 'base');
    return dir;
  }

  /** The vault through a port whose methods `overrides` replaces (the rest pass through). */
  async function openVault(dir: string, overrides: (inner: VaultPort) => Partial<VaultPort>): Promise<{ mem: Mem; close: () => void }> {
    const inner = await NodeVaultPort.open(dir, { watch: false });
    const port = Object.assign(Object.create(inner) as VaultPort, overrides(inner));
    const writeSet = new WriteSet(port);
    const git = await GitService.open(port, writeSet, { configDir: '.obsidian' });
    const { mem } = createMem(port, DEFAULT_MEM_OPTIONS, { writeSet, git, session: { runId: 'objects' } });
    return {
      mem,
      close: () => {
        git.close();
        inner.close();
      },
    };
  }

  it('are all stored, none left half-way, before the branch moves, however late their writes finish', async () => {
    const dir = await seededRepository();
    let objectWrites = 0;
    let atMove: { files: string; temporary: string[] } | null = null;
    const vault = await openVault(dir, (inner) => ({
      async writeBinary(path: string, data: Uint8Array): Promise<void> {
        // Each object written later finishes sooner: the writes end in the reverse of their order.
        if (path.includes('/tmp_obj_')) await new Promise((resolve) => setTimeout(resolve, Math.max(0, 40 - 10 * objectWrites++)));
        await inner.writeBinary(path, data);
      },
      async replace(from: string, to: string, content?: string | Uint8Array): Promise<void> {
        if (to === '.git/refs/heads/main' && typeof content === 'string') {
          atMove = { files: gitCli(dir, 'ls-tree', '-r', '--name-only', content.trim()), temporary: await temporaryObjects(dir) };
        }
        await inner.replace(from, to, content);
      },
    }));
    try {
      await vault.mem.writeFile(DEEP_NOTE, '# North bed\n\nBeans in May.\n');
      await vault.mem.commitChanges('Plan the north bed');
    } finally {
      vault.close();
    }
    // A blob, four trees (Beds, Garden, Projects, the root) and the commit.
    expect(objectWrites).toBe(6);
    expect(atMove).toEqual({ files: `Inbox.md\n${DEEP_NOTE}\n`, temporary: [] });
    expect(gitCli(dir, 'log', '-1', '--format=%s').trim()).toBe('Plan the north bed');
    expect(gitCli(dir, 'status', '--porcelain')).toBe('');
    expect(gitCli(dir, 'fsck', '--full', '--strict')).toBe('');
  });

  it('fail the commit when one cannot be written, leaving the branch, the index and no lock behind', async () => {
    const dir = await seededRepository();
    const head = gitCli(dir, 'rev-parse', 'HEAD').trim();
    const index = await readFile(join(dir, '.git/index'));
    let locked = false;
    let failing = true;
    const vault = await openVault(dir, (inner) => ({
      async createExclusive(path: string, data: string | Uint8Array): Promise<boolean> {
        if (path.endsWith('.lock')) locked = true;
        return inner.createExclusive(path, data);
      },
      async writeBinary(path: string, data: Uint8Array): Promise<void> {
        // The note's blob is stored before the locks; a tree's write is the one that fails.
        if (failing && locked && path.includes('/tmp_obj_')) throw new Error('the disk is full');
        await inner.writeBinary(path, data);
      },
    }));
    try {
      await vault.mem.writeFile(DEEP_NOTE, '# North bed\n\nBeans in May.\n');
      await expect(vault.mem.commitChanges('Plan the north bed')).rejects.toThrow('the disk is full');
      expect(gitCli(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
      expect(await readFile(join(dir, '.git/index'))).toEqual(index);
      expect(existsSync(join(dir, '.git/index.lock'))).toBe(false);
      expect(existsSync(join(dir, '.git/refs/heads/main.lock'))).toBe(false);
      expect(gitCli(dir, 'status', '--porcelain')).toBe(` M ${DEEP_NOTE}\n`);
      expect(gitCli(dir, 'fsck', '--full', '--strict', '--no-dangling')).toBe('');

      // The write-set is kept: once the disk has room, the same commit goes through.
      failing = false;
      await vault.mem.commitChanges('Plan the north bed');
      expect(gitCli(dir, 'log', '-1', '--format=%s').trim()).toBe('Plan the north bed');
      expect(gitCli(dir, 'status', '--porcelain')).toBe('');
    } finally {
      vault.close();
    }
  });
});
