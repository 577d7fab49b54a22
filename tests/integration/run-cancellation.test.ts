import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecursaError } from '../../src/core/errors';
import { memForRun, type Mem, type RunScopedMem } from '../../src/core/mem/createMem';
import { Sandbox } from '../../src/core/sandbox/Sandbox';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault, type OpenedVault } from '../../src/node/openVault';
import { makeTempDir } from '../helpers/tempVault';

/** Words every note holds many times, so each `content` term reads every note's text. */
const WORDS = ['garden', 'memory', 'project', 'review', 'draft', 'outline', 'research', 'method', 'result', 'budget', 'server', 'history'];
const NOTES = 2000;
/** 64 `content` terms: the most a query may have. */
const HEAVY_QUERY = Array.from({ length: 64 }, (_, i) => `(content "${WORDS[i % WORDS.length] as string} ${WORDS[(i * 5 + 1) % WORDS.length] as string}")`).join(' OR ');
/** A long typo-tolerant search: every word, each a different one, is looked up with up to two typos. */
const HEAVY_SEARCH = Array.from({ length: 40 }, (_, i) => `${word(90_000 + i)}${'xyz'[i % 3] as string}`).join(' ');

/** A pseudo-random word of seven letters: many distinct words make typo-tolerant lookups work hard. */
function word(seed: number): string {
  let x = (seed * 2654435761) >>> 0;
  let text = '';
  for (let i = 0; i < 7; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    text += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return text;
}

function noteText(i: number): string {
  const lines = [`# Note ${i}`, ''];
  for (let line = 0; line < 120; line++) {
    const common = Array.from({ length: 10 }, (_, k) => WORDS[(i * 7 + line * 3 + k * 5) % WORDS.length]).join(' ');
    lines.push(`${common} ${word(i * 1000 + line)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** When the host side of each `mem` call settled, and how: measured outside `mem`, through the public `memForRun`. */
interface HostCall {
  method: string;
  startedAt: number;
  settledAt: number | null;
  error: unknown;
}

function observed(mem: Mem, calls: HostCall[]): RunScopedMem {
  return {
    forRun: (scope) => {
      const bound = memForRun(mem, scope) as Mem;
      const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
      for (const [method, operation] of Object.entries(bound) as [string, (...args: unknown[]) => Promise<unknown>][]) {
        wrapped[method] = async (...args) => {
          const call: HostCall = { method, startedAt: performance.now(), settledAt: null, error: null };
          calls.push(call);
          try {
            return await operation(...args);
          } catch (error) {
            call.error = error;
            throw error;
          } finally {
            call.settledAt = performance.now();
          }
        };
      }
      return wrapped as unknown as Mem;
    },
  };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('stopping a run stops the host work of its mem calls', () => {
  let opened: OpenedVault;
  let remove: () => Promise<void>;
  const calls: HostCall[] = [];
  let sandbox: Sandbox;

  beforeAll(async () => {
    const temp = await makeTempDir();
    remove = temp.remove;
    for (let folder = 0; folder < 20; folder++) {
      await mkdir(join(temp.dir, `F${folder}`), { recursive: true });
      await Promise.all(Array.from({ length: NOTES / 20 }, (_, k) => writeFile(join(temp.dir, `F${folder}`, `Note ${k}.md`), noteText(folder * 100 + k))));
    }
    opened = await openVault(temp.dir, { watch: false, git: false });
    await opened.graph?.build();
    sandbox = new Sandbox(() => createNodeSandboxWorker(), observed(opened.mem, calls), { limits: { timeMs: 30_000 } });
  }, 60_000);

  afterAll(async () => {
    sandbox.dispose();
    await opened.close();
    await remove();
  });

  const cases = [
    { method: 'queryGraph', code: `return await mem.queryGraph(${JSON.stringify(HEAVY_QUERY)});`, direct: () => opened.mem.queryGraph(HEAVY_QUERY) },
    { method: 'search', code: `return await mem.search(${JSON.stringify(HEAVY_SEARCH)}, { fuzzy: 0.5, limit: 100 });`, direct: () => opened.mem.search(HEAVY_SEARCH, { fuzzy: 0.5, limit: 100 }) },
  ];

  for (const { method, code, direct } of cases) {
    it(`mem.${method}: the work takes over a second, and stops within 200 ms of Stop`, async () => {
      const begun = performance.now();
      await direct();
      const fullMs = performance.now() - begun;
      expect(fullMs).toBeGreaterThan(1000);

      calls.length = 0;
      const controller = new AbortController();
      const running = sandbox.run(code, { signal: controller.signal });
      await until(() => calls.some((call) => call.method === method), 5000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const abortedAt = performance.now();
      controller.abort();
      const result = await running;
      expect(result).toMatchObject({ ok: false, error: { code: 'Cancelled' } });

      const call = calls.find((entry) => entry.method === method) as HostCall;
      await until(() => call.settledAt !== null, 3000);
      const stoppedMs = (call.settledAt as number) - abortedAt;
      console.info(`mem.${method}: ${Math.round(fullMs)} ms uncancelled; host work stopped ${stoppedMs.toFixed(1)} ms after the abort`);
      expect(stoppedMs).toBeLessThan(200);
      expect(isRecursaError(call.error) && call.error.code).toBe('Cancelled');
    });
  }

  it('the time limit stops the host work too', async () => {
    calls.length = 0;
    const result = await sandbox.run(`return await mem.queryGraph(${JSON.stringify(HEAVY_QUERY)});`, { limits: { timeMs: 400 } });
    const endedAt = performance.now();
    expect(result).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
    const call = calls.find((entry) => entry.method === 'queryGraph') as HostCall;
    await until(() => call.settledAt !== null, 3000);
    expect((call.settledAt as number) - endedAt).toBeLessThan(200);
    expect(isRecursaError(call.error) && call.error.code).toBe('Cancelled');
  });

  it('a run that ends normally cancels calls it left running', async () => {
    calls.length = 0;
    const result = await sandbox.run(`void mem.queryGraph(${JSON.stringify(HEAVY_QUERY)}).catch(() => null); await mem.fileExists('F0/Note 0.md'); return 'done';`);
    const endedAt = performance.now();
    expect(result).toMatchObject({ ok: true, value: 'done' });
    const call = calls.find((entry) => entry.method === 'queryGraph') as HostCall;
    await until(() => call.settledAt !== null, 3000);
    expect((call.settledAt as number) - endedAt).toBeLessThan(200);
    expect(isRecursaError(call.error) && call.error.code).toBe('Cancelled');
  });
});
