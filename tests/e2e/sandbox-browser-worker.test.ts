// The built sandbox worker (dist/sandbox-worker.js) in a real browser: headless Chromium starts it
// the way the plugin does (a Blob-URL Web Worker, see src/obsidian/browserSandboxWorker.ts), and a
// small host in the page drives the protocol (src/core/sandbox/protocol.ts) with a fake `mem`.
// Needs `npm run build` first (`npm test` does it) and a Chromium: $CHROMIUM_PATH or one on PATH.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCode } from '../../src/core/sandbox/prepareCode';
import type { LogLine, RunError } from '../../src/core/sandbox/protocol';
import type { JsonValue } from '../../src/core/sandbox/jsonSafe';
import { findChromium } from '../helpers/chromium';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKER_FILE = join(ROOT, 'dist', 'sandbox-worker.js');
const SCREENSHOT = join(ROOT, 'tests', 'e2e', 'screenshots', 'sandbox-browser-worker.png');
/** A made-up origin served by Playwright itself, so the page has a real origin as Obsidian's `app://` does. */
const PAGE_URL = 'https://recursa.test/';

/** What the in-page host reports for one run. */
interface PageRun {
  /** The worker acknowledged the run (`started`). */
  started: boolean;
  /** The worker was terminated because the run did not finish in time. */
  timedOut: boolean;
  done: { ok: boolean; value: JsonValue; logs: LogLine[]; error: RunError | null; truncated: string[] } | null;
  /** `mem` calls the page served, in order. */
  memCalls: { method: string; args: unknown[] }[];
}

/** The host the page exposes (installed by `installHost`). */
interface PageHost {
  /** Starts a worker and waits for `ready`; resolves with the milliseconds it took. */
  boot: () => Promise<number>;
  run: (source: string, timeoutMs: number) => Promise<PageRun>;
}

declare global {
  interface Window {
    recursaHost?: PageHost;
  }
}


/** Runs in the page: a host like `Sandbox` and `createBrowserSandboxWorker`, reduced to the protocol. */
function installHost(workerSource: string): void {
  const log = document.getElementById('runs');
  const note = (text: string): void => {
    if (log !== null) log.textContent += `${text}\n`;
  };
  const files: Record<string, string> = { 'a.md': 'hello from the page' };
  let worker: Worker | null = null;
  let runId = 0;

  const boot = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const begun = performance.now();
      // Exactly as browserSandboxWorker.ts does it.
      const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
      const created = new Worker(url, { name: 'recursa-sandbox' });
      worker = created;
      const onReady = (event: MessageEvent<{ type?: unknown }>): void => {
        if (event.data.type !== 'ready') return;
        created.removeEventListener('message', onReady);
        URL.revokeObjectURL(url);
        const ms = performance.now() - begun;
        note(`worker ready in ${ms.toFixed(0)} ms`);
        resolve(ms);
      };
      created.addEventListener('message', onReady);
      created.addEventListener('error', (event: ErrorEvent) => reject(new Error(event.message || 'the sandbox worker failed')));
    });

  const run = (source: string, timeoutMs: number): Promise<PageRun> =>
    new Promise((resolve, reject) => {
      const current = worker;
      if (current === null) {
        reject(new Error('no worker: call boot() first'));
        return;
      }
      const id = ++runId;
      const result: PageRun = { started: false, timedOut: false, done: null, memCalls: [] };
      const finish = (): void => {
        window.clearTimeout(timer);
        current.removeEventListener('message', onMessage);
        note(`run ${id}: ${result.timedOut ? 'stopped after the time limit' : JSON.stringify(result.done)}`);
        resolve(result);
      };
      const timer = window.setTimeout(() => {
        // The only way to stop code that never yields: end the worker.
        current.terminate();
        worker = null;
        result.timedOut = true;
        finish();
      }, timeoutMs);
      const onMessage = (event: MessageEvent): void => {
        const data = event.data as { type?: unknown; runId?: unknown; callId?: number; method?: string; args?: unknown[] } & PageRun['done'];
        if (data.runId !== id) return;
        if (data.type === 'started') {
          result.started = true;
        } else if (data.type === 'mem') {
          const method = data.method ?? '';
          const args = data.args ?? [];
          result.memCalls.push({ method, args });
          const path = String(args[0]);
          const reply =
            method === 'fileExists'
              ? { ok: true, value: path in files }
              : method === 'readFile' && path in files
                ? { ok: true, value: files[path] }
                : { ok: false, error: { name: 'NotFoundError', code: 'NotFound', message: `${path} does not exist` } };
          current.postMessage({ type: 'mem-result', callId: data.callId, ...reply });
        } else if (data.type === 'done') {
          const { ok, value, logs, error, truncated } = data as NonNullable<PageRun['done']>;
          result.done = { ok, value, logs, error, truncated };
          finish();
        }
      };
      current.addEventListener('message', onMessage);
      current.postMessage({ type: 'run', runId: id, source, methods: ['readFile', 'fileExists'], limits: { maxOutputChars: 60_000 } });
    });

  window.recursaHost = { boot, run };
}

/** `code` as `Sandbox` would send it: through `prepareCode`, which must accept it. */
function prepared(code: string): string {
  const result = prepareCode(code);
  if (!result.ok) throw new Error(`prepareCode refused the test's code: ${JSON.stringify(result.error)}`);
  return result.source;
}

describe('the sandbox worker in a browser Web Worker (headless Chromium)', () => {
  let browser: Browser | undefined;
  let page: Page;

  const boot = (): Promise<number> => page.evaluate(() => window.recursaHost!.boot());
  const runSource = (source: string, timeoutMs = 5000): Promise<PageRun> =>
    page.evaluate(([text, ms]) => window.recursaHost!.run(text, ms), [source, timeoutMs] as const);
  const run = (code: string): Promise<PageRun> => runSource(prepared(code));

  beforeAll(async () => {
    if (!existsSync(WORKER_FILE)) throw new Error(`${WORKER_FILE} is missing: run \`npm run build\` first (\`npm test\` does).`);
    const workerSource = readFileSync(WORKER_FILE, 'utf8');
    browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (error) => console.error('page error:', error));
    await page.route(PAGE_URL, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><title>Recursa sandbox worker</title><body style="font: 13px monospace"><h3>Recursa sandbox worker (Blob-URL Web Worker)</h3><pre id="runs" style="white-space: pre-wrap; overflow-wrap: anywhere"></pre></body>',
      }),
    );
    await page.goto(PAGE_URL);
    await page.evaluate(installHost, workerSource);
    const bootMs = await boot();
    expect(bootMs).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('locks down the worker, not the page', async () => {
    const inWorker = await run(`return { frozen: Object.isFrozen(Array.prototype) };`);
    expect(inWorker.done).toMatchObject({ ok: true, value: { frozen: true } });
    const inPage = await page.evaluate(() => ({
      frozen: Object.isFrozen(Array.prototype),
      objectFrozen: Object.isFrozen(Object.prototype),
      lockdown: typeof (globalThis as { lockdown?: unknown }).lockdown,
      compartment: typeof (globalThis as { Compartment?: unknown }).Compartment,
    }));
    expect(inPage).toEqual({ frozen: false, objectFrozen: false, lockdown: 'undefined', compartment: 'undefined' });
  });

  it('runs code against mem and returns its value', async () => {
    const result = await run(`
      interface Note { path: string; text: string }
      const note: Note = { path: 'a.md', text: await mem.readFile('a.md') as string };
      return { ...note, exists: await mem.fileExists('a.md'), other: await mem.fileExists('b.md') };
    `);
    expect(result).toMatchObject({ started: true, timedOut: false });
    expect(result.done).toEqual({ ok: true, value: { path: 'a.md', text: 'hello from the page', exists: true, other: false }, logs: [], error: null, truncated: [] });
    expect(result.memCalls).toEqual([
      { method: 'readFile', args: ['a.md'] },
      { method: 'fileExists', args: ['a.md'] },
      { method: 'fileExists', args: ['b.md'] },
    ]);
  });

  it('gives working Date.now() and Math.random()', async () => {
    const before = Date.now();
    const result = await run(`return { now: Date.now(), year: new Date().getFullYear(), randoms: [Math.random(), Math.random()] };`);
    const after = Date.now();
    const value = result.done?.value as { now: number; year: number; randoms: number[] };
    expect(result.done?.ok).toBe(true);
    expect(value.now).toBeGreaterThanOrEqual(before - 1000);
    expect(value.now).toBeLessThanOrEqual(after + 1000);
    expect(value.year).toBe(new Date().getFullYear());
    for (const random of value.randoms) {
      expect(random).toBeGreaterThanOrEqual(0);
      expect(random).toBeLessThan(1);
    }
    expect(value.randoms[0]).not.toBe(value.randoms[1]);
  });

  it('captures console output by level', async () => {
    const result = await run(`console.log('hello', { a: 1 }); console.warn('careful'); console.error(new Error('bad')); return 1;`);
    expect(result.done?.ok).toBe(true);
    expect(result.done?.logs.slice(0, 2)).toEqual([
      { level: 'log', text: 'hello {"a":1}' },
      { level: 'warn', text: 'careful' },
    ]);
    expect(result.done?.logs[2]).toMatchObject({ level: 'error' });
    expect(result.done?.logs[2]?.text).toContain('bad');
  });

  it('reports a runtime error with its line, and a mem error at the line of the call', async () => {
    const thrown = await run(`const a = 1;\n\nnull.boom;\nreturn a;`);
    expect(thrown.done).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'TypeError', line: 3 } });
    const custom = await run(`const a: number = 1;\nif (a) {\n  throw new RangeError('out of range');\n}`);
    expect(custom.done).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'RangeError', message: 'out of range', line: 3 } });
    const fromMem = await run(`const a = 1;\nreturn await mem.readFile('missing.md');`);
    expect(fromMem.done).toMatchObject({ ok: false, error: { code: 'NotFound', name: 'NotFoundError', line: 2 } });
  });

  it('shows the code stacks of its own frames only: no blob: URL, no frame of the worker or SES', async () => {
    const result = await run(`function inner() {\n  return (null as any).x;\n}\ntry { inner(); } catch (e) { return e.stack; }`);
    const stack = result.done?.value;
    expect(typeof stack).toBe('string');
    const [head, ...frames] = (stack as string).split('\n');
    expect(head).toBe("TypeError: Cannot read properties of null (reading 'x')");
    expect(frames).toEqual(['    at inner (agent.ts:2:18)', '    at agent.ts:4:7']);
  });

  it('never evaluates a real import(), yet runs code that mentions one', async () => {
    const refused = prepareCode(`const a = 1;\nconst m = await import('https://example.com/x.js');\nreturn m;`);
    expect(refused).toMatchObject({ ok: false, error: { code: 'DynamicImport', line: 2 } });
    // Sent to the worker anyway (prepareCode bypassed), SES refuses it before anything runs.
    const raw = await runSource(`(async function () { console.log('reached'); await mem.fileExists('a.md'); return import('data:text/javascript,export default 1');\n})`);
    expect(raw.done).toMatchObject({ ok: false, logs: [], error: { name: 'SyntaxError' } });
    expect(raw.done?.error?.message).toContain('SES_IMPORT_REJECTED');
    expect(raw.memCalls).toEqual([]);
    const mentions = await run(`
      // import('x') loads a module; <!-- is an HTML comment -->
      const text = "Use import('x') for lazy loading. <!-- hidden -->";
      return text;
    `);
    expect(mentions.done).toMatchObject({ ok: true, value: "Use import('x') for lazy loading. <!-- hidden -->" });
  });

  it('hides the Worker global scope from the code', async () => {
    const names = ['self', 'postMessage', 'fetch', 'importScripts', 'XMLHttpRequest', 'indexedDB', 'WebSocket', 'Worker', 'navigator', 'location', 'caches', 'close', 'addEventListener', 'setTimeout', '__recursaChannel'];
    const result = await run(`
      const names = ${JSON.stringify(names)};
      const direct = { self: typeof self, postMessage: typeof postMessage, fetch: typeof fetch, importScripts: typeof importScripts,
        XMLHttpRequest: typeof XMLHttpRequest, indexedDB: typeof indexedDB };
      const viaGlobal = Object.fromEntries(names.map((name) => [name, typeof globalThis[name]]));
      const viaFunction = Function('return [typeof postMessage, typeof self, typeof fetch]')();
      const viaEval = (0, eval)('typeof importScripts');
      return { direct, viaGlobal, viaFunction, viaEval };
    `);
    expect(result.done?.ok).toBe(true);
    expect(result.done?.value).toEqual({
      direct: { self: 'undefined', postMessage: 'undefined', fetch: 'undefined', importScripts: 'undefined', XMLHttpRequest: 'undefined', indexedDB: 'undefined' },
      viaGlobal: Object.fromEntries(names.map((name) => [name, 'undefined'])),
      viaFunction: ['undefined', 'undefined', 'undefined'],
      viaEval: 'undefined',
    });
  });

  it('stops while (true) {} by terminating the worker, and a new worker runs again', async () => {
    const begun = Date.now();
    const spinning = await runSource(prepared(`let n = 0;\nwhile (true) { n++; }`), 1000);
    expect(spinning).toEqual({ started: true, timedOut: true, done: null, memCalls: [] });
    expect(Date.now() - begun).toBeLessThan(4000);
    await boot();
    const next = await run(`return 2;`);
    expect(next.done).toMatchObject({ ok: true, value: 2 });
  });

  it('ends a doubling string and oversized allocations in a RangeError the code sees, and the page and the worker live on', async () => {
    const doubling = await run(`let s = 'x';\nconst keep: string[] = [];\nfor (;;) { s = s + s; keep.push(s); }`);
    expect(doubling.done).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'RangeError', message: 'Invalid string length', line: 3 } });
    const oversized = await run(`const found: string[] = [];
      for (const make of [() => new Array(2 ** 32), () => new ArrayBuffer(2 ** 53), () => 'x'.repeat(2 ** 30)]) {
        try { make(); } catch (e) { found.push(e.name); }
      }
      return found;`);
    expect(oversized.done).toMatchObject({ ok: true, value: ['RangeError', 'RangeError', 'RangeError'] });
    expect(await page.evaluate(() => document.title)).toBe('Recursa sandbox worker');
    expect((await run(`return 2;`)).done).toMatchObject({ ok: true, value: 2 });
  });

  it('finds no way for the worker to measure its own heap (so the limit is what crosses mem and the time limit)', async () => {
    const inWorker = await page.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          const source = 'postMessage({ memory: typeof performance.memory, measure: typeof performance.measureUserAgentSpecificMemory, isolated: self.crossOriginIsolated });';
          const probeWorker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
          probeWorker.addEventListener('message', (event: MessageEvent) => {
            probeWorker.terminate();
            resolve(event.data);
          });
        }),
    );
    expect(inWorker).toEqual({ memory: 'undefined', measure: 'undefined', isolated: false });
  });

  it('saves a screenshot of the page', async () => {
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
