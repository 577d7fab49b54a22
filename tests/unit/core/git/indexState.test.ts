import { readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseIndex } from '../../../../src/core/git/indexFile';
import { serializeIndexReusing } from '../../../../src/core/git/indexSerialize';
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

  describe('adopting the index it has just moved into place', () => {
    const OWN = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c591b';

    /**
     * The index git wrote, with `a.md`'s entry given `OWN`: what a commit of this process stages in
     * the lock, a while ago (so its stat, once the file's, is trusted without a look at its bytes).
     */
    async function stageOwnIndex(): Promise<{ data: Awaited<ReturnType<typeof parseIndex>>; written: Awaited<ReturnType<typeof serializeIndexReusing>> }> {
      const current = await parseIndex(new Uint8Array(await readFile(join(temp.dir, '.git/index'))));
      const data = { ...current, entries: current.entries.map((entry) => ({ ...entry, oid: OWN })) };
      const written = await serializeIndexReusing(data, null);
      await writeFile(join(temp.dir, '.git/index.lock'), written.bytes);
      const longAgo = new Date(Date.now() - 60_000);
      await utimes(join(temp.dir, '.git/index.lock'), longAgo, longAgo);
      return { data, written };
    }

    const moveLockIntoPlace = (): Promise<void> => rename(join(temp.dir, '.git/index.lock'), join(temp.dir, '.git/index'));

    it('trusts its stat at once when the lock it moved was older than a tick, without reading it back', async () => {
      const { port: watched, reads } = counting(port);
      const cache = new IndexCache(watched);
      const { data, written } = await stageOwnIndex();
      const staged = await cache.staged();
      await moveLockIntoPlace();
      await cache.adopt(data, written, staged);
      expect((await cache.read()).byPath.get('a.md')?.oid).toBe(OWN);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(reads()).toBe(0);
      cache.close();
    });

    it('hands on the bytes of the index written before the one it keeps, once, for the next write to fill', async () => {
      const cache = new IndexCache(port);
      const adoptOwn = async (): Promise<Uint8Array> => {
        const { data, written } = await stageOwnIndex();
        const staged = await cache.staged();
        await moveLockIntoPlace();
        await cache.adopt(data, written, staged);
        return written.bytes;
      };
      const first = await adoptOwn();
      expect(cache.takeSpare()).toBeNull();
      const second = await adoptOwn();
      expect(cache.takeSpare()).toBe(first);
      expect(cache.takeSpare()).toBeNull();
      // What it keeps is never handed on: the next write copies from it.
      await adoptOwn();
      expect(cache.takeSpare()).toBe(second);
      await adoptOwn();
      cache.close();
      expect(cache.takeSpare()).toBeNull();
      // A commit that ends after the plugin closed keeps nothing.
      await adoptOwn();
      expect(cache.takeSpare()).toBeNull();
    });

    it('does not take the index another program put in place right after the move for its own', async () => {
      const cache = new IndexCache(port);
      const { data, written } = await stageOwnIndex();
      const staged = await cache.staged();
      await moveLockIntoPlace();
      // The move gave the lock up: git takes it, and writes an index of its own, before this process looks.
      await writeFile(join(temp.dir, 'b.md'), 'second\n');
      gitCli(temp.dir, 'add', 'b.md');
      // This process is slow to look (a loaded machine): longer than a tick after git's write.
      await new Promise((resolve) => setTimeout(resolve, 150));
      await cache.adopt(data, written, staged);
      const read = await cache.read();
      expect([...read.byPath.keys()]).toEqual(['a.md', 'b.md']);
      expect(read.byPath.get('a.md')?.oid).toBe(gitCli(temp.dir, 'rev-parse', ':a.md').trim());
      cache.close();
    });

    it('leaves the next read to compare the bytes, rather than fail the commit, when the lock cannot be looked at', async () => {
      const failing = Object.create(port) as VaultPort;
      failing.stat = async (path: string) => {
        if (path === '.git/index.lock') throw new Error('EIO: the platform could not look');
        return port.stat(path);
      };
      const { port: watched, reads } = counting(failing);
      const cache = new IndexCache(watched);
      const { data, written } = await stageOwnIndex();
      const staged = await cache.staged();
      expect(staged.lock).toBeNull();
      await moveLockIntoPlace();
      await cache.adopt(data, written, staged);
      await vi.waitFor(() => expect(reads()).toBe(1), { timeout: 2_000, interval: 10 });
      expect((await cache.read()).byPath.get('a.md')?.oid).toBe(OWN);
      expect(reads()).toBe(1);
      cache.close();
    });

    it('compares the bytes once where the platform writes the file anew instead of renaming the lock', async () => {
      const { port: watched, reads } = counting(port);
      const cache = new IndexCache(watched);
      const { data, written } = await stageOwnIndex();
      const staged = await cache.staged();
      // A phone's adapter cannot rename over a file: it writes the bytes over it and removes the lock.
      await writeFile(join(temp.dir, '.git/index'), written.bytes);
      await port.remove('.git/index.lock');
      await setIndexTime(Date.now() - 30_000);
      await cache.adopt(data, written, staged);
      // Compared by itself, at once (the file is older than a tick), and then trusted.
      await vi.waitFor(() => expect(reads()).toBe(1), { timeout: 2_000, interval: 10 });
      expect((await cache.read()).byPath.get('a.md')?.oid).toBe(OWN);
      await cache.read();
      expect(reads()).toBe(1);
      cache.close();
    });
  });

  /** Sets the index's mtime to `ms`, moved off a whole second so it reads as a fine file time. */
  async function setIndexTime(ms: number): Promise<void> {
    const time = ms % 1000 === 0 ? ms - 1 : ms;
    await utimes(join(temp.dir, '.git/index'), time / 1000, time / 1000);
  }
});
