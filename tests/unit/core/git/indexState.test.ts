import { stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IndexCache } from '../../../../src/core/git/indexState';
import type { VaultPort } from '../../../../src/core/ports';
import { NodeVaultPort } from '../../../../src/node/NodeVaultPort';
import { gitCli } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';

/** The port on a file system whose times are whole seconds (HFS+; FAT is coarser still). */
function coarseTimes(port: VaultPort): VaultPort {
  const wrapped = Object.create(port) as VaultPort;
  wrapped.stat = async (path: string) => {
    const info = await port.stat(path);
    return info === null ? null : { ...info, mtime: Math.floor(info.mtime / 1000) * 1000 };
  };
  return wrapped;
}

/** The port, counting how often the index is read whole. */
function counting(port: VaultPort): { port: VaultPort; reads: () => number } {
  let reads = 0;
  const wrapped = Object.create(port) as VaultPort;
  wrapped.readBinary = async (path: string) => {
    if (path === '.git/index') reads++;
    return port.readBinary(path);
  };
  return { port: wrapped, reads: () => reads };
}

describe('the cached index', () => {
  const temp = useTempDir();
  let port: NodeVaultPort;
  beforeEach(async () => {
    gitCli(temp.dir, 'init', '-q', '-b', 'main');
    await writeFile(join(temp.dir, 'a.md'), 'first\n');
    // Staged, not committed: a commit adds a cache-tree extension that the next `git add` resizes.
    gitCli(temp.dir, 'add', 'a.md');
    port = await NodeVaultPort.open(temp.dir, { watch: false });
  });
  afterEach(() => port.close());

  it('sees another tool rewrite the index even when size and mtime stay the same, as coarse file times allow', async () => {
    const cache = new IndexCache(coarseTimes(port));
    const before = (await cache.read()).byPath.get('a.md')?.oid;
    const { mtime, size: indexSize } = await stat(join(temp.dir, '.git/index'));
    await writeFile(join(temp.dir, 'a.md'), 'other\n');
    gitCli(temp.dir, 'add', 'a.md');
    await utimes(join(temp.dir, '.git/index'), mtime, mtime);
    expect((await stat(join(temp.dir, '.git/index'))).size).toBe(indexSize);
    const after = (await cache.read()).byPath.get('a.md')?.oid;
    expect(after).not.toBe(before);
    expect(after).toBe(gitCli(temp.dir, 'rev-parse', ':a.md').trim());
  });

  it('trusts size and mtime alone once the index is older than any file-time granularity', async () => {
    const old = new Date(Date.now() - 60_000);
    await utimes(join(temp.dir, '.git/index'), old, old);
    const { port: watched, reads } = counting(port);
    const cache = new IndexCache(watched);
    await cache.read();
    await cache.read();
    await cache.read();
    expect(reads()).toBe(1);
  });

  it('compares the bytes of an index written a moment ago once more by itself, after the tick, and then trusts its stat', async () => {
    const { port: watched, reads } = counting(port);
    const cache = new IndexCache(watched);
    await setIndexTime(Date.now() - 20);
    await cache.read();
    expect(reads()).toBe(1);
    await vi.waitFor(() => expect(reads()).toBe(2), { timeout: 2_000, interval: 10 });
    await cache.read();
    await cache.read();
    expect(reads()).toBe(2);
    cache.close();
  });

  it('lets a read that comes during that confirmation wait for it, not read the bytes again', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { port: watched, reads } = counting(port);
    const held = Object.create(watched) as VaultPort;
    held.readBinary = async (path, options) => {
      const bytes = await watched.readBinary(path, options);
      if (reads() === 2) await gate;
      return bytes;
    };
    const cache = new IndexCache(held);
    await setIndexTime(Date.now() - 20);
    await cache.read();
    await vi.waitFor(() => expect(reads()).toBe(2), { timeout: 2_000, interval: 10 });
    const during = cache.read();
    // Time enough for a read that does not wait to reach the bytes itself.
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await during;
    expect(reads()).toBe(2);
    cache.close();
  });

  it('waits the two seconds of a coarse file system before that confirmation', async () => {
    const { port: watched, reads } = counting(coarseTimes(port));
    const cache = new IndexCache(watched);
    await setIndexTime(Date.now());
    await cache.read();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads()).toBe(1);
    cache.close();
  });

  it('confirms nothing once closed', async () => {
    const { port: watched, reads } = counting(port);
    const cache = new IndexCache(watched);
    await setIndexTime(Date.now() - 20);
    await cache.read();
    cache.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads()).toBe(1);
  });

  /** Sets the index's mtime to `ms`, moved off a whole second so it reads as a fine file time. */
  async function setIndexTime(ms: number): Promise<void> {
    const time = ms % 1000 === 0 ? ms - 1 : ms;
    await utimes(join(temp.dir, '.git/index'), time / 1000, time / 1000);
  }
});
