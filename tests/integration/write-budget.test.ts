import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/core/sandbox/Sandbox';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault, type OpenedVault } from '../../src/node/openVault';
import { gitCli } from '../helpers/gitCli';
import { makeTempDir } from '../helpers/tempVault';

const MB = 1024 * 1024;
const LIMIT = 5 * MB;

/** Bytes of every file under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? await sizeOf(path) : (await stat(path)).size;
  }
  return total;
}

/** About 1 MB of text that does not compress much (base64 of random bytes), in lines, with a marker line. */
function bigNote(): string {
  const lines = ['# Big', 'marker 0'];
  for (let i = 0; i < 1024; i++) lines.push(randomBytes(768).toString('base64'));
  return `${lines.join('\n')}\n`;
}

describe('the per-run write limit counts the bytes written to disk', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let opened: OpenedVault;
  let sandbox: Sandbox;

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir());
    await writeFile(join(dir, 'Big.md'), bigNote());
    opened = await openVault(dir, { watch: false });
    await opened.git?.whenSnapshotDone();
    sandbox = new Sandbox(() => createNodeSandboxWorker(), opened.mem, { limits: { maxBytesWritten: LIMIT, timeMs: 60_000 } });
  });

  afterEach(async () => {
    sandbox.dispose();
    await opened.close();
    await remove();
  });

  it('a loop of one-word replaceInFile on a 1 MB note stops with WriteLimit after limit / size edits, and .git grows by at most the limit', async () => {
    const noteBytes = (await stat(join(dir, 'Big.md'))).size;
    expect(noteBytes).toBeGreaterThan(MB);
    const gitBefore = await sizeOf(join(dir, '.git'));

    const result = await sandbox.run(`
      for (let i = 0; i < 100; i++) await mem.replaceInFile('Big.md', 'marker ' + i, 'marker ' + (i + 1));
      return 'finished';
    `);

    const fits = Math.floor(LIMIT / noteBytes);
    expect(result).toMatchObject({ ok: false, error: { code: 'WriteLimit' } });
    expect(result.error?.message).toContain(`limit of ${LIMIT} bytes`);
    expect(result.error?.message).toContain('"Big.md" was not written');
    expect(result.memCalls).toBe(fits + 1);
    // Exactly the edits that fit landed; the one that would have passed the limit did not.
    expect(await readFile(join(dir, 'Big.md'), 'utf8')).toContain(`\nmarker ${fits}\n`);
    const gitGrowth = (await sizeOf(join(dir, '.git'))) - gitBefore;
    expect(gitGrowth).toBeLessThanOrEqual(LIMIT);
    expect(gitCli(dir, 'fsck', '--no-progress')).toBeDefined();
  });

  it('counts whole files for every method that writes, and nothing for renames, folders and deletions', async () => {
    const result = await sandbox.run(`
      await mem.createDir('Empty');
      await mem.rename('Big.md', 'Moved.md');
      await mem.deletePath('Empty');
      await mem.writeFile('a.md', 'x'.repeat(${2 * MB}));
      await mem.updateFile('a.md', 'x'.repeat(${2 * MB}), 'y'.repeat(${2 * MB}));
      await mem.writeFile('b.md', 'z'.repeat(${2 * MB}));
      return 'finished';
    `);
    expect(result).toMatchObject({ ok: false, error: { code: 'WriteLimit' } });
    expect(result.error?.message).toContain('"b.md" was not written');
    expect(await readFile(join(dir, 'a.md'), 'utf8')).toBe('y'.repeat(2 * MB));
    expect((await stat(join(dir, 'Moved.md'))).size).toBeGreaterThan(MB);
    await expect(stat(join(dir, 'b.md'))).rejects.toThrow();
  });

  it('stops code that catches the WriteLimit error and writes on', async () => {
    const result = await sandbox.run(`
      await mem.writeFile('first.md', 'x'.repeat(${3 * MB}));
      try { await mem.writeFile('big.md', 'x'.repeat(${3 * MB})); } catch (error) { /* ignored */ }
      await mem.writeFile('after.md', 'small');
      return 'finished';
    `);
    expect(result).toMatchObject({ ok: false, error: { code: 'WriteLimit' } });
    await expect(stat(join(dir, 'big.md'))).rejects.toThrow();
    await expect(stat(join(dir, 'after.md'))).rejects.toThrow();
  });
});
