import { writeFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VaultChange } from '../../../src/core/ports';
import { NodeVaultPort } from '../../../src/node/NodeVaultPort';
import { makeTempDir } from '../../helpers/tempVault';
import { describeVaultPortContract } from '../../helpers/vaultPortContract';

describeVaultPortContract('NodeVaultPort', async (dir) => {
  const port = await NodeVaultPort.open(dir, { watch: false });
  return { port, dispose: async () => port.close() };
});

/** Waits until `predicate` holds, polling; fails the test after `timeoutMs`. */
async function eventually(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('NodeVaultPort', () => {
  describe('readWithStat', () => {
    it('gives what stat and readBinary give, in one step; the start only with maxBytes; null when missing', async () => {
      const { dir, remove } = await makeTempDir();
      const port = new NodeVaultPort(dir, { watch: false });
      const bytes = new TextEncoder().encode('\ufeff# Héllo\n日本語 🙂\n'.repeat(300));
      await mkdir(join(dir, 'Notes'));
      await writeFile(join(dir, 'Notes/a.md'), bytes);
      await writeFile(join(dir, 'empty.md'), '');
      const whole = await port.readWithStat('Notes/a.md');
      expect(whole?.stat).toEqual(await port.stat('Notes/a.md'));
      expect(Buffer.from(whole?.bytes ?? []).equals(Buffer.from(await port.readBinary('Notes/a.md')))).toBe(true);
      const start = await port.readWithStat('Notes/a.md', { maxBytes: 1000 });
      expect(start?.stat.size).toBe(bytes.byteLength);
      expect(Buffer.from(start?.bytes ?? []).equals(Buffer.from(bytes.subarray(0, 1000)))).toBe(true);
      expect(await port.readWithStat('empty.md')).toEqual({ stat: await port.stat('empty.md'), bytes: new Uint8Array(0) });
      expect(await port.readWithStat('Notes')).toEqual({ stat: await port.stat('Notes'), bytes: new Uint8Array(0) });
      expect(await port.readWithStat('missing.md')).toBeNull();
      await expect(port.readWithStat('../outside.md')).rejects.toMatchObject({ code: 'Io' });
      await remove();
    });
  });

  describe('createExclusive', () => {
    it('lets exactly one of two ports over one folder create a lock file (O_EXCL, not a lock in memory)', async () => {
      const { dir, remove } = await makeTempDir();
      const ports = [new NodeVaultPort(dir, { watch: false }), new NodeVaultPort(dir, { watch: false })] as const;
      for (let round = 0; round < 50; round++) {
        const path = `.git/refs/heads/b${round % 5}/r${round}.lock`;
        const results = await Promise.all(ports.map((port, i) => port.createExclusive(path, `port ${i}`)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await ports[0].readText(path)).toBe(`port ${results.indexOf(true)}`);
      }
      await remove();
    });
  });

  describe('open', () => {
    it('fails with NotFound for a missing folder and WrongKind for a file', async () => {
      const { dir, remove } = await makeTempDir();
      await writeFile(join(dir, 'file.md'), 'x');
      await expect(NodeVaultPort.open(join(dir, 'missing'))).rejects.toMatchObject({ code: 'NotFound' });
      await expect(NodeVaultPort.open(join(dir, 'file.md'))).rejects.toMatchObject({ code: 'WrongKind' });
      await remove();
    });
  });

  describe('when watching the folder', () => {
    let dir: string;
    let removeDir: () => Promise<void>;
    let port: NodeVaultPort;
    let changes: VaultChange[];

    beforeEach(async () => {
      ({ dir, remove: removeDir } = await makeTempDir());
      await mkdir(join(dir, '.git'));
      port = await NodeVaultPort.open(dir);
      changes = [];
      port.onChange((change) => changes.push(change));
    });

    afterEach(async () => {
      port.close();
      await removeDir();
    });

    it('reports files that another program creates, changes and deletes', async () => {
      await writeFile(join(dir, 'outside.md'), 'one');
      await eventually(() => changes.some((c) => c.path === 'outside.md'));
      await new Promise((resolve) => setTimeout(resolve, 60));
      await writeFile(join(dir, 'outside.md'), 'two, longer');
      await eventually(() => changes.filter((c) => c.path === 'outside.md').length >= 2);
      await rm(join(dir, 'outside.md'));
      await eventually(() => changes.some((c) => c.type === 'delete' && c.path === 'outside.md'));
      expect(changes.filter((c) => c.path === 'outside.md').map((c) => c.type)).toEqual(['create', 'modify', 'delete']);
    });

    it('does not report its own writes twice', async () => {
      await port.write('own.md', 'mine');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(changes.filter((c) => c.path === 'own.md')).toEqual([{ type: 'create', path: 'own.md', kind: 'file' }]);
    });

    it('ignores changes inside .git', async () => {
      await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      await writeFile(join(dir, 'marker.md'), 'x');
      await eventually(() => changes.some((c) => c.path === 'marker.md'));
      expect(changes.some((c) => c.path.startsWith('.git'))).toBe(false);
    });
  });
});
