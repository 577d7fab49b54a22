/**
 * The memory limit of the Node sandbox worker (src/node/nodeSandboxWorker.ts), with real
 * `worker_threads` workers over a real vault: what the code allocates — on the V8 heap or in
 * ArrayBuffers outside it — ends the run with MemoryLimit; what the host allocates meanwhile (the
 * index reading big notes, large `mem` results) is not charged to the code.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/core/sandbox/Sandbox';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault, type OpenedVault } from '../../src/node/openVault';
import { makeTempDir } from '../helpers/tempVault';

const LIMIT_MB = 128;
const MB = 1024 * 1024;

describe(`the Node sandbox worker's memory limit (${LIMIT_MB} MB)`, () => {
  let opened: OpenedVault;
  let remove: () => Promise<void> = () => Promise.resolve();
  let sandbox: Sandbox;

  beforeEach(async () => {
    const made = await makeTempDir();
    remove = made.remove;
    opened = await openVault(made.dir, { watch: false, git: false });
    sandbox = new Sandbox(() => createNodeSandboxWorker({ maxMemoryMb: LIMIT_MB }), opened.mem, { limits: { timeMs: 15_000 } });
  });

  afterEach(async () => {
    sandbox.dispose();
    await opened.close();
    await remove();
  });

  it('does not charge the code for 300 MB of Buffers the host allocates while it runs', async () => {
    const held: Buffer[] = [];
    let allocating = true;
    const allocation = (async () => {
      while (allocating && held.length < 30) {
        held.push(Buffer.alloc(10 * MB, held.length + 1));
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    })();
    const result = await sandbox.run(`
      const started = Date.now();
      let calls = 0;
      while (Date.now() - started < 1500) {
        if (Date.now() - started > calls * 100) { await mem.fileExists('a.md'); calls++; }
      }
      return calls > 0;
    `);
    allocating = false;
    await allocation;
    expect(held.length).toBe(30);
    expect(held.reduce((sum, buffer) => sum + buffer.length, 0)).toBe(300 * MB);
    expect(result).toMatchObject({ ok: true, value: true, error: null });
    held.length = 0;
  });

  it('stops code that allocates ArrayBuffers in a loop beyond the limit', async () => {
    const result = await sandbox.run(`
      const keep = [];
      for (;;) { const block = new Uint8Array(16 * 1024 * 1024); block.fill(7); keep.push(block); }
    `);
    expect(result).toMatchObject({ ok: false, error: { code: 'MemoryLimit' } });
    expect(result.error?.message).toContain(`${LIMIT_MB} MB`);
    expect(await sandbox.run('return 1 + 1;')).toMatchObject({ ok: true, value: 2 });
  });

  it('stops code that fills its V8 heap', async () => {
    const result = await sandbox.run(`const keep = []; for (;;) keep.push(new Array(1e5).fill({ n: Math.random() }));`);
    expect(result).toMatchObject({ ok: false, error: { code: 'MemoryLimit' } });
    expect(await sandbox.run('return 1 + 1;')).toMatchObject({ ok: true, value: 2 });
  });

  it('ends a doubling string at the length limit of strings, before its memory matters', async () => {
    // V8 joins strings lazily (a rope of two halves), so doubling costs little until the length limit.
    const result = await sandbox.run(`let s = 'x'; const keep = []; for (;;) { s = s.repeat(2); keep.push(s, s + s); }`);
    expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'RangeError', message: 'Invalid string length' } });
    expect(await sandbox.run('return 1 + 1;')).toMatchObject({ ok: true, value: 2 });
  });
});
