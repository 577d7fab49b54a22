/**
 * Hostile code against the sandbox: escape and denial attempts drawn from public sandbox-escape
 * advisories (vm2, realms-shim, SES) and classic tricks, each run through a real `Sandbox` (real
 * `worker_threads` worker, real SES) over a real temp vault.
 *
 * Every attempt carries a proof of escape: `escapeCode()` is guest code that, wherever it runs,
 * writes a marker file outside the vault through `require('node:fs')` (which the worker's own global
 * has) and sets a flag on its global object (which the test process would see). After every attempt
 * the marker must be absent, the flag unset, the test process's intrinsics untouched, and a follow-up
 * run must still work (`expectHealthy()`).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { inspect } from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MEM_METHOD_NAMES } from '../../src/core/mem';
import type { RunLimits, RunResult } from '../../src/core/sandbox/protocol';
import { useSandboxVault } from '../helpers/sandboxVault';
import { makeTempDir } from '../helpers/tempVault';

const vault = useSandboxVault({ limits: { timeMs: 1500 } });

/** What a run of denial-of-service code may take. */
const DOS_LIMITS: Partial<RunLimits> = { timeMs: 700 };
const SECRET = 'TOP SECRET: outside the vault';
/** A property only escaped guest code would set on the test process's global object. */
const HOST_FLAG = '__recursaHostileRan';

/** The test process as it was before any attack, to prove no attack reached it. */
const HOST = {
  push: Array.prototype.push,
  parse: JSON.parse,
  then: Reflect.get(Promise.prototype, 'then') as unknown,
  random: Math.random,
  now: Date.now,
  functionConstructor: Function.prototype.constructor,
  objectPrototypeKeys: Reflect.ownKeys(Object.prototype).map(String).sort(),
  arrayPrototypeKeys: Reflect.ownKeys(Array.prototype).map(String).sort(),
  exitCode: process.exitCode,
};

let outside = '';
let removeOutside: () => Promise<void> = () => Promise.resolve();
let marker = '';

beforeAll(async () => {
  ({ dir: outside, remove: removeOutside } = await makeTempDir('recursa-outside-'));
  marker = join(outside, 'escaped.txt');
});
afterAll(async () => removeOutside());
beforeEach(async () => {
  await writeFile(join(outside, 'secret.txt'), SECRET);
});

/**
 * Guest code (an expression) that, if it runs anywhere with Node's powers — the worker's real
 * global or the host's — writes the marker outside the vault and sets the host flag. Confined, it
 * does nothing and evaluates to `'undefined'` (no `require` in reach).
 */
function escapeCode(tag = 'escaped'): string {
  return `(() => {
    const g = typeof globalThis === 'object' ? globalThis : undefined;
    const req = typeof require === 'function' ? require : g !== undefined && typeof g.require === 'function' ? g.require : undefined;
    if (req !== undefined) req('node:fs').writeFileSync(${JSON.stringify(marker)}, ${JSON.stringify(tag)});
    if (g !== undefined) g.${HOST_FLAG} = ${JSON.stringify(tag)};
    return typeof req;
  })()`;
}

/** The outside folder's relative spelling from the vault, e.g. `../recursa-outside-abc123`. */
function outsideFromVault(): string {
  return `../${basename(outside)}`;
}

async function run(code: string, limits?: Partial<RunLimits>): Promise<RunResult> {
  const result = await vault.sandbox.run(code, limits === undefined ? {} : { limits });
  expectPlainData(result);
  return result;
}

/** Plain JSON data all the way down: data properties only, plain prototypes, no symbols. */
function expectPlainData(value: unknown, path = 'result'): void {
  if (path === 'result') expect(JSON.parse(JSON.stringify(value))).toStrictEqual(value);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    expect(Number.isFinite(value), `${path} is a finite number`).toBe(true);
    return;
  }
  expect(typeof value, `${path} is an object`).toBe('object');
  const object = value as object;
  const prototype: unknown = Object.getPrototypeOf(object);
  expect(prototype === Object.prototype || prototype === Array.prototype, `${path} has a plain prototype`).toBe(true);
  expect(Object.getOwnPropertySymbols(object), `${path} has no symbol keys`).toEqual([]);
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(object))) {
    if (Array.isArray(object) && key === 'length') continue;
    expect('value' in descriptor, `${path}.${key} is a data property`).toBe(true);
    expectPlainData(descriptor.value, `${path}.${key}`);
  }
}

/** Nothing the guest did is visible in the test process or outside the vault. */
async function expectHostUntouched(): Promise<void> {
  expect(existsSync(marker), 'guest code wrote the escape marker').toBe(false);
  expect(Reflect.get(globalThis, HOST_FLAG), 'guest code ran in the test process').toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Array.prototype.push).toBe(HOST.push);
  expect(JSON.parse).toBe(HOST.parse);
  expect(Reflect.get(Promise.prototype, 'then')).toBe(HOST.then);
  expect(Math.random).toBe(HOST.random);
  expect(Date.now).toBe(HOST.now);
  expect(Function.prototype.constructor).toBe(HOST.functionConstructor);
  expect(Reflect.ownKeys(Object.prototype).map(String).sort()).toEqual(HOST.objectPrototypeKeys);
  expect(Reflect.ownKeys(Array.prototype).map(String).sort()).toEqual(HOST.arrayPrototypeKeys);
  expect(process.exitCode).toBe(HOST.exitCode);
  expect(await readdir(outside)).toEqual(['secret.txt']);
  expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
}

/** The attack reached nothing, and the sandbox still runs code. */
async function expectHealthy(): Promise<void> {
  await expectHostUntouched();
  const after = await vault.sandbox.run('return 1 + 1;');
  expect(after).toMatchObject({ ok: true, value: 2, error: null });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** CPU time the whole test process (every thread, the sandbox worker included) used over a window. */
async function cpuMsOver(windowMs: number): Promise<number> {
  const start = process.cpuUsage();
  await sleep(windowMs);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Runs `action` while timing the test process's event loop; `maxGapMs` is its longest stall. */
async function withEventLoopProbe<T>(action: () => Promise<T>): Promise<{ value: T; maxGapMs: number }> {
  let maxGapMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 10);
  try {
    const value = await action();
    maxGapMs = Math.max(maxGapMs, performance.now() - last);
    return { value, maxGapMs };
  } finally {
    clearInterval(timer);
  }
}

/** What SES leaves on a Compartment's global, plus what the worker endows (mem, console, Date, Math). */
const GUEST_GLOBALS = [
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'Compartment',
  'DataView', 'Date', 'Error', 'EvalError', 'Function', 'Infinity', 'Int16Array', 'Int32Array', 'Int8Array', 'JSON',
  'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise', 'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp',
  'Set', 'String', 'Symbol', 'SyntaxError', 'TextDecoder', 'TextEncoder', 'TypeError', 'URIError', 'Uint16Array',
  'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakSet', 'console', 'decodeURI', 'decodeURIComponent',
  'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis', 'harden', 'isFinite', 'isNaN', 'lockdown', 'mem',
  'parseFloat', 'parseInt', 'undefined', 'unescape',
];
/** Standard ECMAScript globals newer engines add and SES may permit; pure computation, no powers. */
const NEWER_ECMASCRIPT_GLOBALS = ['Iterator', 'AsyncIterator', 'Float16Array', 'Intl', 'DisposableStack', 'AsyncDisposableStack', 'SuppressedError'];
/** Host powers the guest must not see, by global property and by bare name. */
const HOST_POWERS = [
  'process', 'require', 'module', 'exports', 'Buffer', 'fetch', 'XMLHttpRequest', 'WebSocket', 'setTimeout', 'setInterval',
  'setImmediate', 'queueMicrotask', 'postMessage', 'addEventListener', 'onmessage', 'self', 'window', 'navigator',
  'importScripts', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'structuredClone', 'FinalizationRegistry', 'WeakRef',
  'performance', '__recursaChannel', 'MessageChannel', 'Worker',
];

describe('the sandbox under attack', () => {
  // Control: the proof of escape works where Node's powers are in reach — a plain worker_threads
  // worker like the sandbox's, without SES — so every "marker absent" assertion below can fail.
  it('detects an escape: the proof code writes the marker from an unconfined worker', async () => {
    const worker = new Worker(`"use strict";\n${escapeCode('control')};`, { eval: true });
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', () => resolve());
    });
    expect(await readFile(marker, 'utf8')).toBe('control');
    await rm(marker);
    await expectHealthy();
  });

  describe('reaching the real global object', () => {
    // Classic vm/vm2 escape: this.constructor.constructor('return process')().
    it('finds no `this` and no working Function behind this.constructor.constructor', async () => {
      const result = await run(`
        const out = [];
        try { out.push(this.constructor.constructor('return ' + ${JSON.stringify(escapeCode())})()); } catch (e) { out.push(e.name); }
        out.push((function () { return this; })() === undefined);
        try { out.push(globalThis.constructor.constructor('return ' + ${JSON.stringify(escapeCode())})()); } catch (e) { out.push(e.name); }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', true, 'TypeError'] });
      await expectHealthy();
    });

    // Cross-realm trick: functions the host hands in (mem, console, Date) lead to the host's Function.
    it('cannot build code from the constructors of functions the worker handed in', async () => {
      const result = await run(`
        const out = [];
        for (const fn of [mem.readFile, console.log, Date, Math.max, mem.constructor]) {
          try { out.push(fn.constructor('return ' + ${JSON.stringify(escapeCode())})()); } catch (e) { out.push(e.name); }
        }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'TypeError', 'TypeError', 'TypeError'] });
      await expectHealthy();
    });

    // Hidden constructors: (async function(){}).constructor, Object.getPrototypeOf(async function*(){}).constructor.
    it('finds the AsyncFunction, GeneratorFunction and AsyncGeneratorFunction constructors inert', async () => {
      const result = await run(`
        const kinds = { asyncFunction: async function () {}, asyncArrow: async () => {}, generator: function* () {}, asyncGenerator: async function* () {} };
        const out = {};
        for (const [name, fn] of Object.entries(kinds)) {
          const made = [];
          for (const ctor of [fn.constructor, Object.getPrototypeOf(fn).constructor]) {
            try { ctor('return ' + ${JSON.stringify(escapeCode())}); made.push('built'); } catch (e) { made.push(e.name); }
          }
          out[name] = made;
        }
        return out;
      `);
      const inert = ['TypeError', 'TypeError'];
      expect(result).toMatchObject({ ok: true, value: { asyncFunction: inert, asyncArrow: inert, generator: inert, asyncGenerator: inert } });
      await expectHealthy();
    });

    // [].constructor.constructor and Function('return this')(): the Function the guest does have is confined.
    it('gets only the compartment from [].constructor.constructor and Function("return this")', async () => {
      const result = await run(`
        const out = [];
        try { out.push([].constructor.constructor('return ' + ${JSON.stringify(escapeCode())})()); } catch (e) { out.push(e.name); }
        out.push(Function('return this')() === undefined);
        out.push(Function('return ' + ${JSON.stringify(escapeCode())})());
        out.push(new Function('return [typeof require, typeof process, typeof globalThis.require].join()')());
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', true, 'undefined', 'undefined,undefined,undefined'] });
      await expectHealthy();
    });

    // Inventory of the guest global: no process, require, fetch, timers, postMessage, self, WebAssembly…
    it('offers exactly the SES intrinsics, mem, console, Date and Math on the guest global', async () => {
      const result = await run(`
        const names = Object.getOwnPropertyNames(globalThis).sort();
        const byProperty = {};
        for (const name of ${JSON.stringify(HOST_POWERS)}) byProperty[name] = typeof globalThis[name];
        const byName = [typeof process, typeof require, typeof module, typeof exports, typeof Buffer, typeof fetch, typeof setTimeout,
          typeof setInterval, typeof setImmediate, typeof queueMicrotask, typeof postMessage, typeof addEventListener, typeof self,
          typeof WebAssembly, typeof SharedArrayBuffer, typeof Atomics, typeof structuredClone, typeof __recursaChannel];
        return { names, byProperty, byName, mem: Object.keys(mem).length, console: Object.keys(console).sort(), date: Date.now() > 0, random: typeof Math.random() };
      `);
      const value = result.value as { names: string[]; byProperty: Record<string, string>; byName: string[]; mem: number; console: string[] };
      expect(result.ok).toBe(true);
      expect(value.names.filter((name) => !GUEST_GLOBALS.includes(name) && !NEWER_ECMASCRIPT_GLOBALS.includes(name))).toEqual([]);
      expect(GUEST_GLOBALS.filter((name) => !value.names.includes(name))).toEqual([]);
      expect(Object.values(value.byProperty).every((type) => type === 'undefined')).toBe(true);
      expect(value.byName.every((type) => type === 'undefined')).toBe(true);
      expect(value).toMatchObject({ mem: MEM_METHOD_NAMES.length, console: ['debug', 'error', 'info', 'log', 'warn'], date: true, random: 'number' });
      await expectHealthy();
    });

    // eval/Function inside the compartment: indirect eval, nested Compartments, SES evaluate options.
    it('keeps indirect eval, nested Compartments and their evaluate options confined', async () => {
      const result = await run(`
        const code = ${JSON.stringify(escapeCode())};
        return {
          indirect: (0, eval)(code),
          nested: new Compartment().evaluate(code),
          endowed: new Compartment({ __options__: true, globals: { mem } }).evaluate('typeof mem.readFile + "," + typeof require'),
          directEvalAllowed: new Compartment().evaluate('ev' + 'al(' + JSON.stringify(code) + ')', { __rejectSomeDirectEvalExpressions__: false }),
        };
      `);
      expect(result).toMatchObject({ ok: true, value: { indirect: 'undefined', nested: 'undefined', endowed: 'function,undefined', directEvalAllowed: 'undefined' } });
      const direct = await run(`return eval('typeof require');`);
      expect(direct).toMatchObject({ ok: false, error: { name: 'SyntaxError' } });
      expect(direct.error?.message).toContain('SES_EVAL_REJECTED');
      await expectHealthy();
    });

    // realms-shim 2019 (Agoric advisory): Symbol.unscopables on the global to bypass the scope proxy.
    it('cannot open the scope chain with Symbol.unscopables or shadowed globals', async () => {
      const result = await run(`
        const out = [];
        try { globalThis[Symbol.unscopables] = { require: true, process: true, globalThis: true }; out.push('assigned'); } catch (e) { out.push(e.name); }
        try { Object.defineProperty(globalThis, Symbol.unscopables, { value: { require: true } }); out.push('defined'); } catch (e) { out.push(e.name); }
        Object.defineProperty(globalThis, 'require', { get() { return undefined; }, configurable: true });
        delete globalThis.require;
        out.push(typeof require, typeof process, (0, eval)('typeof require'), Function('return typeof process')(), ${escapeCode()});
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'] });
      await expectHealthy();
    });

    // realms-shim 2019: a stack overflow inside the shim's own (host) code handed out a host-realm error.
    it('hands out only powerless errors when a stack overflow hits the sandbox machinery', async () => {
      const result = await run(`
        const caught = [];
        const dive = (depth) => {
          try { return dive(depth + 1); } catch (e) {
            if (caught.length < 40) {
              try { mem.fileExists('a.md').catch((r) => caught.push(r)); } catch (x) { caught.push(x); }
            }
            throw e;
          }
        };
        try { dive(0); } catch (e) { caught.push(e); }
        for (let i = 0; i < 5; i++) await null;
        const built = caught.map((e) => { try { e.constructor.constructor('return ' + ${JSON.stringify(escapeCode())})(); return 'built'; } catch (x) { return x.name; } });
        return { count: caught.length, built: [...new Set(built)] };
      `);
      expect(result.ok).toBe(true);
      expect(result.value).toMatchObject({ built: ['TypeError'] });
      expect((result.value as { count: number }).count).toBeGreaterThan(1);
      await expectHealthy();
    });

    // Classic caller walk: arguments.callee.caller / fn.caller from code the host calls back (here: a getter run by structured clone).
    it('cannot walk .caller or arguments.callee from a getter the worker runs', async () => {
      const result = await run(`
        const seen = [];
        const arg = {
          get path() {
            try { seen.push(String(Object.getOwnPropertyDescriptor(arg, 'path').get.caller)); } catch (e) { seen.push(e.name); }
            try { seen.push(typeof arguments.callee); } catch (e) { seen.push(e.name); }
            return 'a.md';
          },
        };
        try { await mem.readFile(arg); } catch (e) { seen.push(e.name); }
        return seen;
      `);
      // Arguments are copied as plain data only: a getter is refused without ever being called.
      expect(result).toMatchObject({ ok: true, memCalls: 0, value: ['TypeError'] });
      await expectHealthy();
    });

    // SES: a second lockdown() (e.g. with laxer options) or unfreezing intrinsics.
    it('cannot lock down again with laxer options or unfreeze the intrinsics', async () => {
      const result = await run(`
        const out = [];
        try { lockdown({ errorTaming: 'unsafe-debug', evalTaming: 'unsafe-eval' }); out.push('relocked'); } catch (e) { out.push(e.name); }
        out.push(Object.isFrozen(Object.prototype), Object.isFrozen(Function.prototype), Object.isFrozen(Promise));
        try { Object.setPrototypeOf(Object.prototype, { polluted: 1 }); out.push('reparented'); } catch (e) { out.push(e.name); }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', true, true, true, 'TypeError'] });
      await expectHealthy();
    });
  });

  describe('stack-trace hooks', () => {
    // CVE-2023-29017 (vm2): Error.prepareStackTrace receives CallSites whose getThis/getFunction leak host objects.
    it('ignores Error.prepareStackTrace, in this run and the next', async () => {
      const result = await run(`
        const code = ${JSON.stringify(`return ${escapeCode()}`)};
        Error.prepareStackTrace = (error, frames) => {
          try { frames.constructor.constructor(code)(); } catch {}
          for (const frame of frames) {
            try { const fn = frame.getFunction(); if (fn) fn.constructor(code)(); } catch {}
            try { const self = frame.getThis(); if (self && self.require) self.require('node:fs'); } catch {}
          }
          return frames;
        };
        const own = new Error('probe').stack;
        let fromMem = '';
        try { await mem.readFile('../x.md'); } catch (e) { fromMem = e.stack; }
        return [typeof own, typeof fromMem, typeof Error.prepareStackTrace(new Error('x'), [])];
      `);
      expect(result).toMatchObject({ ok: true, value: ['string', 'string', 'string'] });
      const next = await run(`const e = new Error('x'); return [typeof e.stack, e.stack.includes('agent.ts')];`);
      expect(next).toMatchObject({ ok: true, value: ['string', true] });
      await expectHealthy();
    });

    // V8 stack API: Error.captureStackTrace and Error.stackTraceLimit, shared by every compartment of the realm.
    it('cannot capture raw stacks or switch stack traces off for later runs', async () => {
      const result = await run(`const o = {};\nError.captureStackTrace(o);\nError.stackTraceLimit = 0;\nconst limit = Error.stackTraceLimit;\nthrow Object.assign(new Error(JSON.stringify([o.stack, limit === 0])), {});`);
      expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError', message: '["",false]', line: 5 } });
      const next = await run(`const a = 1;\nthrow new Error('boom ' + a);`);
      expect(next).toMatchObject({ ok: false, error: { message: 'boom 1', line: 2 } });
      await expectHealthy();
    });
  });

  describe('mutating shared intrinsics', () => {
    // Prototype poisoning of a built-in method, to run code in whoever calls it next.
    it('cannot replace Array.prototype.push, and the next run sees the real one', async () => {
      const result = await run(`
        const out = [];
        try { Array.prototype.push = function () { return ${escapeCode()}; }; out.push('assigned'); } catch (e) { out.push(e.name); }
        try { Object.defineProperty(Array.prototype, 'push', { value: () => 0 }); out.push('defined'); } catch (e) { out.push(e.name); }
        const a = []; a.push(1);
        out.push(a.length);
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 1] });
      const next = await run(`const a = []; a.push(5); return [a, Object.getOwnPropertyNames(Array.prototype).length];`);
      expect(next).toMatchObject({ ok: true, value: [[5], Object.getOwnPropertyNames(Array.prototype).length] });
      await expectHealthy();
    });

    // Prototype pollution: Object.prototype.polluted, __proto__ assignment, defineProperty, Object.assign of parsed JSON.
    it('cannot pollute Object.prototype for the host or the next run', async () => {
      const result = await run(`
        const out = [];
        try { Object.prototype.polluted = 1; out.push('assigned'); } catch (e) { out.push(e.name); }
        try { ({}).__proto__.polluted = 1; out.push('assigned'); } catch (e) { out.push(e.name); }
        try { Object.defineProperty(Object.prototype, 'polluted', { value: 1 }); out.push('defined'); } catch (e) { out.push(e.name); }
        try { Object.assign(Object.prototype, JSON.parse('{"polluted": 1}')); out.push('merged'); } catch (e) { out.push(e.name); }
        out.push(({}).polluted === undefined);
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'TypeError', 'TypeError', true] });
      const next = await run(`return [({}).polluted === undefined, 'polluted' in Object.prototype];`);
      expect(next).toMatchObject({ ok: true, value: [true, false] });
      await expectHealthy();
    });

    // Overriding JSON.parse (and other global functions) so trusted code parses through the attacker.
    it('cannot override JSON.parse, Math.random, Date.now or toString methods', async () => {
      const result = await run(`
        const out = [];
        for (const [owner, key] of [[JSON, 'parse'], [Math, 'random'], [Date, 'now'], [String.prototype, 'toString'], [Function.prototype, 'toString']]) {
          try { owner[key] = () => ${escapeCode()}; out.push('assigned'); } catch (e) { out.push(e.name); }
        }
        out.push(JSON.parse('{"a": 1}').a);
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'TypeError', 'TypeError', 'TypeError', 1] });
      const next = await run(`return [JSON.parse('[2]')[0], typeof Math.random(), Date.now() > 0];`);
      expect(next).toMatchObject({ ok: true, value: [2, 'number', true] });
      await expectHealthy();
    });

    // CVE-2023-37466 (vm2): Promise species / then override to reach the host's promise machinery.
    it('gets nothing from Symbol.species on the promises mem returns, nor from Promise.prototype.then', async () => {
      const result = await run(`
        const code = ${JSON.stringify(`return ${escapeCode()}`)};
        const seen = [];
        try { Promise.prototype.then = function () { return new Function(code)(); }; seen.push('then replaced'); } catch (e) { seen.push(e.name); }
        function Evil(executor) {
          seen.push(typeof executor);
          try { executor.constructor(code)(); seen.push('built'); } catch (e) { seen.push(e.name); }
          executor(() => {}, () => {});
        }
        const species = { [Symbol.species]: Evil };
        const pending = mem.fileExists('a.md');
        Object.defineProperty(pending, 'constructor', { value: species });
        pending.then(() => {});
        seen.push(await mem.fileExists('a.md'));
        return seen;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'function', 'TypeError', false] });
      await expectHealthy();
    });

    // Symbol.species on Array: a returned array whose species constructor would run on copy.
    it('returns an Array subclass with a hostile species as a plain array', async () => {
      const result = await run(`
        class Sneaky extends Array {
          static get [Symbol.species]() { return function () { ${escapeCode()}; return []; }; }
        }
        return { list: Sneaky.from([1, 2, 3]), mapped: Sneaky.from([1]).map((x) => x + 1) };
      `);
      expect(result.ok).toBe(true);
      expect(result.value).toEqual({ list: [1, 2, 3], mapped: [2] });
      await expectHealthy();
    });

    // Cross-run persistence: anything left on the guest global is gone in the next run (fresh Compartment).
    it('leaves nothing on the global object for the next run', async () => {
      const first = await run(`globalThis.leaked = 'run 1'; globalThis.oldMem = mem; return Object.isFrozen(globalThis);`);
      expect(first).toMatchObject({ ok: true, value: false });
      const next = await run(`return [typeof leaked, typeof globalThis.oldMem, typeof globalThis.leaked];`);
      expect(next).toMatchObject({ ok: true, value: ['undefined', 'undefined', 'undefined'] });
      await expectHealthy();
    });
  });

  describe('tampering with mem', () => {
    // Replacing or deleting mem methods, to hijack later calls (including the next run's).
    it('cannot replace, redefine or delete mem methods', async () => {
      const result = await run(`
        const out = [];
        try { mem.readFile = async () => 'forged'; out.push('assigned'); } catch (e) { out.push(e.name); }
        try { Object.defineProperty(mem, 'writeFile', { value: async () => true }); out.push('defined'); } catch (e) { out.push(e.name); }
        try { delete mem.writeFile; out.push('deleted'); } catch (e) { out.push(e.name); }
        try { mem.extra = () => 1; out.push('added'); } catch (e) { out.push(e.name); }
        await mem.writeFile('real.md', 'real');
        out.push(await mem.readFile('real.md'));
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'TypeError', 'TypeError', 'real'] });
      expect(await readFile(join(vault.dir, 'real.md'), 'utf8')).toBe('real');
      const next = await run(`await mem.writeFile('next.md', 'next'); return [await mem.readFile('next.md'), Object.isFrozen(mem)];`);
      expect(next).toMatchObject({ ok: true, value: ['next', true] });
      await expectHealthy();
    });

    // The methods themselves: a property on one, or another prototype for it, would be the code's own to read back.
    it('cannot change mem\'s or console\'s methods themselves', async () => {
      const result = await run(`
        const out = [];
        for (const fn of [mem.readFile, console.log]) {
          out.push(Object.isFrozen(fn));
          try { fn.extra = 1; out.push('added'); } catch (e) { out.push(e.name); }
          try { Object.setPrototypeOf(fn, {}); out.push('reparented'); } catch (e) { out.push(e.name); }
          try { Object.defineProperty(fn, 'name', { value: 'forged' }); out.push('renamed'); } catch (e) { out.push(e.name); }
        }
        out.push(Object.isFrozen(console), Object.getPrototypeOf(mem.readFile) === Function.prototype, Object.isFrozen(Object.getPrototypeOf(mem.readFile)));
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: [true, 'TypeError', 'TypeError', 'TypeError', true, 'TypeError', 'TypeError', 'TypeError', true, true, true] });
      await expectHealthy();
    });

    // Prototype tampering: Object.setPrototypeOf(mem, …), mem.__proto__.x = …
    it('cannot change the prototype of mem or pollute it through mem.__proto__', async () => {
      const result = await run(`
        const out = [];
        try { Object.setPrototypeOf(mem, { readFile: async () => 'forged' }); out.push('reparented'); } catch (e) { out.push(e.name); }
        try { mem.__proto__ = {}; out.push('reparented'); } catch (e) { out.push(e.name); }
        try { mem.__proto__.polluted = 1; out.push('polluted'); } catch (e) { out.push(e.name); }
        out.push(Object.getPrototypeOf(mem) === Object.prototype);
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'TypeError', true] });
      await expectHealthy();
    });

    // Reaching a method the protocol does not offer: mem['constructor'], mem.hasOwnProperty, mem.toString.
    it('answers mem.constructor, hasOwnProperty and toString locally, never as host methods', async () => {
      const result = await run(`
        return [typeof mem.constructor('x'), mem.hasOwnProperty('readFile'), mem.toString(), 'eval' in mem, typeof mem.evaluate, typeof mem.__defineGetter__];
      `);
      expect(result).toMatchObject({ ok: true, memCalls: 0, value: ['object', true, '[object Object]', false, 'undefined', 'function'] });
      await expectHealthy();
    });
  });

  describe('hostile arguments to mem', () => {
    // Proxies as arguments: traps that would run wherever the argument is read (in the worker they run confined).
    it('refuses Proxy arguments before they reach the host', async () => {
      const result = await run(`
        const trap = (name) => function (...args) { ${escapeCode()}; return Reflect[name](...args); };
        const handler = { get: trap('get'), ownKeys: trap('ownKeys'), getOwnPropertyDescriptor: trap('getOwnPropertyDescriptor'), getPrototypeOf: trap('getPrototypeOf'), has: trap('has') };
        const out = [];
        for (const target of [{ path: 'a.md' }, ['a.md'], new String('a.md')]) {
          try { await mem.readFile(new Proxy(target, handler)); out.push('accepted'); } catch (e) { out.push([e.name, e.code === undefined]); }
        }
        try { await mem.getTokenCountForPaths([new Proxy({}, handler)]); out.push('accepted'); } catch (e) { out.push([e.name, e.code === undefined]); }
        return out;
      `);
      // The traps run in the worker (the sandbox) while the arguments are copied; the host only ever
      // sees the plain copies, which the path policy refuses. A String object is not plain data at all.
      const refusedByHost = ['PathRefusedError', false];
      expect(result).toMatchObject({ ok: true, memCalls: 3, value: [refusedByHost, refusedByHost, ['TypeError', true], refusedByHost] });
      await expectHealthy();
    });

    // Functions, symbols and Maps as arguments: not plain data, refused before anything is sent.
    it('refuses function, symbol and Map arguments locally', async () => {
      const result = await run(`
        const out = [];
        for (const arg of [() => 'a.md', Symbol('a.md'), Symbol.iterator, new Map([['path', 'a.md']])]) {
          try { await mem.readFile(arg); out.push('accepted'); } catch (e) { out.push(e.code ?? e.name); }
        }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, memCalls: 0, value: ['TypeError', 'TypeError', 'TypeError', 'TypeError'] });
      await expectHealthy();
    });

    // Time-of-check/time-of-use: an index getter that answers a safe path first and a traversal after.
    it('refuses getter arguments without reading them, so the host checks and uses the same path', async () => {
      await writeFile(join(vault.dir, 'a.md'), 'hello');
      const result = await run(`
        let reads = 0;
        const paths = [];
        Object.defineProperty(paths, 0, { enumerable: true, get() { reads++; return reads === 1 ? 'a.md' : ${JSON.stringify(`${outsideFromVault()}/secret.txt`)}; } });
        try { return { counts: await mem.getTokenCountForPaths(paths), reads }; } catch (e) { return { error: e.name, reads }; }
      `);
      expect(result).toMatchObject({ ok: true, memCalls: 0, value: { error: 'TypeError', reads: 0 } });
      await expectHealthy();
    });

    // Huge strings (50 MB) as a path and as content.
    it('refuses a 50 MB path and a 50 MB write with an error the code can read', async () => {
      const path = await run(`const huge = 'x'.repeat(50 * 1024 * 1024); try { await mem.readFile(huge); return 'read'; } catch (e) { return [e.code ?? null, e.name]; }`, { timeMs: 5000 });
      // Refused by the host's path policy, or before it is sent (an argument size limit).
      expect([['PathRefused', 'PathRefusedError'], ['InvalidArgument', 'RangeError'], [null, 'RangeError'], [null, 'TypeError']]).toContainEqual(path.value);
      expect(path.memCalls).toBe(0);
      const content = await run(`await mem.writeFile('big.md', 'x'.repeat(50 * 1024 * 1024)); return 'written';`, { timeMs: 5000 });
      expect(content.ok).toBe(false);
      expect(['WriteLimit', 'InvalidArgument', 'RuntimeError']).toContain(content.error?.code);
      expect(existsSync(join(vault.dir, 'big.md'))).toBe(false);
      await expectHealthy();
    });

    // Argument-count flooding: 1000 arguments (and 9, one over the host's cap).
    it('refuses 1000 arguments, and 9, with InvalidArgument', async () => {
      const result = await run(`
        const out = [];
        for (const count of [1000, 9]) {
          try { await mem.readFile(...Array(count).fill('a.md')); out.push('accepted'); } catch (e) { out.push(e.code); }
        }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['InvalidArgument', 'InvalidArgument'] });
      await expectHealthy();
    });

    // Structured-clone depth: nested arrays deep enough to overflow the copy on either side.
    it('survives arguments nested deeper than the host can copy, within the time limit', async () => {
      const started = Date.now();
      const result = await run(`
        const out = [];
        for (const depth of [1000, 3000, 6000, 20000]) {
          let nested = [];
          for (let i = 0; i < depth; i++) nested = [nested];
          try { await mem.fileExists(nested); out.push('accepted'); } catch (e) { out.push(e.code ?? e.name); }
        }
        return out;
      `, { timeMs: 1000 });
      // Refused in the worker (arguments nest at most 64 levels), so nothing the host cannot copy is ever sent.
      expect(result).toMatchObject({ ok: true, memCalls: 0, value: ['TypeError', 'TypeError', 'TypeError', 'TypeError'] });
      expect(Date.now() - started).toBeLessThan(3000);
      await expectHealthy();
    });

    // Wide arguments: an array with hundreds of thousands of items, which a host-side walk that spreads it
    // into a call (`push(...items)`) overflows; the error must not escape as an unhandled rejection.
    it('answers an argument array of 300 000 items without an unhandled rejection in the host', async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown): void => {
        rejections.push(reason);
      };
      process.on('unhandledRejection', onRejection);
      try {
        const result = await run(`try { return await mem.fileExists('a.md', new Array(300000).fill(0)); } catch (e) { return e.code ?? e.name; }`, { timeMs: 1000 });
        await sleep(50);
        expect(rejections.map(String)).toEqual([]);
        expect(result.ok, JSON.stringify(result.error)).toBe(true);
        expect([false, 'InvalidArgument', 'RangeError', 'TypeError']).toContain(result.value);
      } finally {
        process.off('unhandledRejection', onRejection);
      }
      await expectHealthy();
    });

    // Prototype pollution through arguments: objects with "__proto__" and "constructor.prototype" keys.
    it('refuses objects with __proto__ keys without polluting the host', async () => {
      const result = await run(`
        const evil = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}');
        const out = [];
        for (const [method, args] of [['gitLog', ['a.md', evil]], ['readFile', [evil]], ['writeFile', ['a.md', evil]], ['getTokenCountForPaths', [evil]]]) {
          try { await mem[method](...args); out.push('accepted'); } catch (e) { out.push(e.code); }
        }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['InvalidArgument', 'PathRefused', 'InvalidArgument', 'InvalidArgument'] });
      expect(existsSync(join(vault.dir, 'a.md'))).toBe(false);
      await expectHealthy();
    });

    // Path traversal in every spelling (CWE-22): ../, absolute, backslashes, percent-encoding, look-alikes, URLs, UNC.
    it('reads nothing outside the vault through any spelling of a path', async () => {
      const name = basename(outside);
      const paths = [
        `../${name}/secret.txt`,
        `./../${name}/secret.txt`,
        `notes/../../${name}/secret.txt`,
        `${'../'.repeat(16)}${outside.slice(1)}/secret.txt`,
        `${outside}/secret.txt`,
        `..\\${name}\\secret.txt`,
        `%2e%2e/${name}/secret.txt`,
        `%252e%252e/${name}/secret.txt`,
        `\uff0e\uff0e/${name}/secret.txt`,
        `.. /${name}/secret.txt`,
        `file://${outside}/secret.txt`,
        `//localhost${outside}/secret.txt`,
        '../../etc/passwd',
        '/etc/passwd',
        'C:\\Windows\\win.ini',
        '\\\\?\\C:\\Windows\\win.ini',
        `..\u0000/${name}/secret.txt`,
        `\u202e../${name}/secret.txt`,
      ];
      const result = await run(`
        const out = [];
        for (const path of ${JSON.stringify(paths)}) {
          for (const method of ['readFile', 'fileExists', 'listFiles', 'getTokenCount']) {
            try { out.push(['accepted', method, path, await mem[method](path)]); } catch (e) { out.push(e.code); }
          }
        }
        return out;
      `);
      expect(result.ok).toBe(true);
      expect(result.value).toEqual(paths.flatMap(() => ['PathRefused', 'PathRefused', 'PathRefused', 'PathRefused']));
      expect(JSON.stringify(result)).not.toContain('TOP SECRET');
      await expectHealthy();
    });

    // Path traversal for writes: writeFile, createDir, rename, deletePath, replaceInFile, updateFile outside the vault.
    it('writes, moves and deletes nothing outside the vault', async () => {
      await writeFile(join(vault.dir, 'a.md'), 'inside');
      const up = outsideFromVault();
      const result = await run(`
        const up = ${JSON.stringify(up)};
        const attempts = [
          ['writeFile', [up + '/pwned.md', 'x']],
          ['writeFile', [${JSON.stringify(`${outside}/pwned.md`)}, 'x']],
          ['createDir', [up + '/pwned']],
          ['rename', ['a.md', up + '/pwned.md']],
          ['rename', [up + '/secret.txt', 'stolen.txt']],
          ['deletePath', [up + '/secret.txt']],
          ['deletePath', [up]],
          ['replaceInFile', [up + '/secret.txt', 'TOP', 'NOT']],
          ['updateFile', [up + '/secret.txt', ${JSON.stringify(SECRET)}, 'overwritten']],
        ];
        const out = [];
        for (const [method, args] of attempts) {
          try { await mem[method](...args); out.push('accepted'); } catch (e) { out.push(e.code); }
        }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: Array(9).fill('PathRefused') });
      expect(await readdir(vault.dir)).toEqual(['a.md']);
      expect(await readFile(join(vault.dir, 'a.md'), 'utf8')).toBe('inside');
      await expectHealthy();
    });

    // Protected folders: .git/config, .obsidian/…, .trash, with case, look-alike, encoding, NTFS and trailing-dot tricks.
    it('neither reads nor changes .git, .obsidian or .trash in any spelling', async () => {
      await mkdir(join(vault.dir, '.git'));
      await mkdir(join(vault.dir, '.obsidian'));
      await mkdir(join(vault.dir, '.trash'));
      await writeFile(join(vault.dir, '.git', 'config'), '[core]\n');
      await writeFile(join(vault.dir, '.obsidian', 'app.json'), '{}');
      await writeFile(join(vault.dir, '.trash', 'old.md'), 'old');
      const paths = [
        '.git/config', '.GIT/config', '.git./config', '.git /config', '%2egit/config', '.git%2fconfig', 'GIT~1/config',
        '\uff0egit/config', '.\uff47it/config', 'notes/../.git/config', '.git::$INDEX_ALLOCATION/config', '.obsidian/app.json',
        '.Obsidian/app.json', '.obsidian/plugins/recursa/main.js', '.trash/old.md', '.TRASH/old.md',
      ];
      const result = await run(`
        const out = [];
        for (const path of ${JSON.stringify(paths)}) {
          for (const [method, args] of [['readFile', [path]], ['writeFile', [path, 'pwned']], ['deletePath', [path]], ['createDir', [path + '-dir']]]) {
            try { await mem[method](...args); out.push(['accepted', method, path]); } catch (e) { out.push(e.code); }
          }
        }
        try { await mem.rename('.git', 'exposed'); out.push('accepted'); } catch (e) { out.push(e.code); }
        return { out, listed: await mem.listFiles('') };
      `);
      expect(result).toMatchObject({ ok: true, value: { out: Array(paths.length * 4 + 1).fill('PathRefused'), listed: [] } });
      expect(await readFile(join(vault.dir, '.git', 'config'), 'utf8')).toBe('[core]\n');
      expect(await readFile(join(vault.dir, '.obsidian', 'app.json'), 'utf8')).toBe('{}');
      expect(await readFile(join(vault.dir, '.trash', 'old.md'), 'utf8')).toBe('old');
      expect((await readdir(vault.dir)).sort()).toEqual(['.git', '.obsidian', '.trash']);
      await expectHealthy();
    });

    // Destroying the vault itself: deleting or renaming the root under its various names.
    it('cannot delete, rename or overwrite the vault root', async () => {
      await writeFile(join(vault.dir, 'keep.md'), 'keep');
      const result = await run(`
        const out = [];
        for (const [method, args] of [['deletePath', ['']], ['deletePath', ['.']], ['deletePath', ['./']], ['deletePath', ['/']], ['deletePath', ['./.']],
          ['rename', ['', 'moved']], ['rename', ['.', 'sub/inside']], ['writeFile', ['', 'x']], ['writeFile', ['.', 'x']], ['createDir', ['']]]) {
          try { await mem[method](...args); out.push('accepted'); } catch (e) { out.push(e.code); }
        }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: Array(10).fill('PathRefused') });
      expect(await readdir(vault.dir)).toEqual(['keep.md']);
      await expectHealthy();
    });
  });

  describe('values handed back to the host', () => {
    // Thenables: a returned { then } would run in whoever awaits it (the host awaits sandbox.run).
    it('adopts a top-level thenable inside the guest and hands a nested one over as text', async () => {
      const adopted = await run(`return { then(resolve) { resolve({ adopted: ${escapeCode()} }); } };`);
      expect(adopted).toMatchObject({ ok: true, value: { adopted: 'undefined' } });
      const nested = await run(`return { inner: { then(resolve) { ${escapeCode()}; resolve(1); } } };`);
      expect(nested).toMatchObject({ ok: true, value: { inner: { then: '[Function then]' } } });
      expect(Reflect.get(nested, 'then')).toBeUndefined();
      const never = await run(`return { then() {} };`, { timeMs: 400 });
      expect(never).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      await expectHealthy();
    });

    // Code in the value: getters, toJSON, Symbol.toPrimitive, valueOf and CVE-2023-32314's Symbol.for('nodejs.util.inspect.custom').
    it('never calls getters, toJSON, toPrimitive or inspect.custom of a returned value, here or in the host', async () => {
      const run1 = await run(`
        const esc = () => ${escapeCode()};
        const value = {
          get secret() { esc(); return 'from getter'; },
          toJSON() { esc(); return 'from toJSON'; },
          valueOf() { esc(); return 42; },
          [Symbol.toPrimitive]() { esc(); return 'from toPrimitive'; },
          [Symbol.for('nodejs.util.inspect.custom')]() { esc(); return 'from inspect'; },
          plain: 1,
        };
        return { value, proxied: new Proxy(value, {}) };
      `);
      const expected = { secret: '[Getter]', toJSON: '[Function toJSON]', valueOf: '[Function valueOf]', plain: 1 };
      expect(run1).toMatchObject({ ok: true, value: { value: expected, proxied: expected } });
      expect(inspect(run1, { depth: null })).not.toContain('from ');
      expect(`${JSON.stringify(run1)}`).not.toContain('from ');
      await expectHealthy();
    });

    // A returned Proxy whose traps throw, lie or try to escape while the value is copied.
    it('turns a returned Proxy with hostile traps into plain data', async () => {
      const result = await run(`
        const esc = () => ${escapeCode()};
        const throwing = new Proxy({}, { ownKeys() { esc(); throw new Error('trap'); }, getPrototypeOf() { esc(); throw new Error('trap'); } });
        const lying = new Proxy({ a: 1 }, { ownKeys() { esc(); return ['a', 'ghost']; }, getOwnPropertyDescriptor(t, k) { esc(); return k === 'ghost' ? { value: 'x', enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, k); } });
        return { throwing, lying, list: [throwing] };
      `);
      expect(result.ok).toBe(true);
      expect(result.value).toMatchObject({ throwing: '[Unreadable]', list: ['[Unreadable]'] });
      await expectHealthy();
    });

    // Errors whose message, stack, name or code are getters (the host formats errors it did not make).
    it('reports a thrown error with getters as plain data the getters do not shape', async () => {
      const result = await run(`
        const esc = () => ${escapeCode()};
        const error = new Error('plain');
        Object.defineProperties(error, {
          message: { get() { esc(); return 'from getter'; } },
          name: { get() { esc(); return 'FromGetter'; } },
          code: { get() { esc(); return 'FromGetter'; } },
        });
        throw error;
      `);
      // V8 formats the stack lazily through the error's own name and message, so the getters may run in the
      // worker (confined, like any guest code); the code, name and message the host reports are never theirs.
      expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'Error' } });
      expect(result.error?.message).not.toBe('from getter');
      const literal = await run(`throw { get message() { ${escapeCode()}; return 'from getter'; }, get stack() { ${escapeCode()}; return 'x'; } };`);
      expect(literal).toMatchObject({ ok: false, error: { code: 'RuntimeError' } });
      expect(literal.error?.message).not.toContain('from getter');
      await expectHealthy();
    });

    // CVE-2023-30547 (vm2): throwing a Proxy whose traps run while the sandbox sanitizes the exception.
    it('reports a thrown Proxy as plain data whatever its traps do', async () => {
      const result = await run(`
        const esc = () => ${escapeCode()};
        const hostile = {};
        for (const trap of ['get', 'getPrototypeOf', 'ownKeys', 'getOwnPropertyDescriptor', 'has', 'apply']) hostile[trap] = () => { esc(); throw new Proxy({}, hostile); };
        throw new Proxy(new Error('x'), hostile);
      `);
      expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError' } });
      const primitive = await run(`throw Symbol('thrown');`);
      expect(primitive).toMatchObject({ ok: false, error: { code: 'RuntimeError' } });
      await expectHealthy();
    });

    // Returning a huge, deep or cyclic value, to exhaust the host while it copies or prints it.
    it('caps and summarises a huge, deep and cyclic return value', async () => {
      const result = await run(`
        const cyclic = { name: 'loop' }; cyclic.self = cyclic;
        let deep = []; for (let i = 0; i < 100000; i++) deep = [deep];
        return { cyclic, deep, wide: Array(200000).fill('abc'), long: 'y'.repeat(30 * 1024 * 1024), keys: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => ['k' + i, i])) };
      `, { timeMs: 5000 });
      expect(result.ok).toBe(true);
      expect(result.value).toMatchObject({ cyclic: { name: 'loop', self: '[Circular]' } });
      expect(JSON.stringify(result.value).length).toBeLessThanOrEqual(60_000 + 1000);
      expect(result.truncated.length).toBeGreaterThan(0);
      await expectHealthy();
    });

    // console as a channel: hostile values and an output flood through console.log.
    it('caps console output and logs hostile values as plain text', async () => {
      const result = await run(`
        const esc = () => ${escapeCode()};
        const cyclic = {}; cyclic.self = cyclic;
        console.log(new Proxy({}, { ownKeys() { esc(); throw new Error('trap'); } }), { [Symbol.for('nodejs.util.inspect.custom')]: esc, toJSON: esc }, cyclic);
        for (let i = 0; i < 200000; i++) console.log('z'.repeat(1000));
        return 'done';
      `, { timeMs: 5000, maxOutputChars: 10_000 });
      expect(result).toMatchObject({ ok: true, value: 'done' });
      expect(result.logs.reduce((sum, line) => sum + line.text.length, 0)).toBeLessThanOrEqual(10_000);
      expect(result.truncated.join(' ')).toContain('more log lines cut');
      await expectHealthy();
    });
  });

  describe('dynamic import and source censorship', () => {
    // import() is the one way out of a Compartment the shim cannot virtualise: it would load real Node modules.
    it('refuses real import() in every spelling before running anything', async () => {
      const load = `import('node:fs').then((fs) => fs.writeFileSync(${JSON.stringify(marker)}, 'import'))`;
      const spellings = [
        `await ${load};`,
        `await import /* comment */ ('node:fs');`,
        `await import\n('node:fs');`,
        `await import // comment\n('node:fs');`,
        'const text = `${await import("node:fs")}`;',
        `const load = async () => import('data:text/javascript,export default 1');`,
        `const x = [...import('node:fs')];`,
      ];
      for (const code of spellings) {
        const result = await run(code);
        expect(result, code).toMatchObject({ ok: false, error: { code: 'DynamicImport' } });
      }
      await sleep(100);
      await expectHealthy();
    });

    // Censorship evasion: building "import(" at run time for eval, Function, a nested Compartment, or SES's evasion option.
    it('refuses import() built at run time, in eval, Function, nested Compartments and with evasion options', async () => {
      const source = `'imp' + 'ort(' + ${JSON.stringify(JSON.stringify('node:fs'))} + ').then((fs) => fs.writeFileSync(' + ${JSON.stringify(JSON.stringify(marker))} + ', "x"))'`;
      const result = await run(`
        const source = ${source};
        const out = [];
        try { await (0, eval)(source); out.push('loaded'); } catch (e) { out.push(e.name); }
        try { await Function('return ' + source)(); out.push('loaded'); } catch (e) { out.push(e.name); }
        try { await new Compartment().evaluate(source); out.push('loaded'); } catch (e) { out.push(e.name); }
        try { await new Compartment().evaluate(source, { __evadeImportExpressionTest__: true }); out.push('loaded'); } catch (e) { out.push(e.name); }
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['SyntaxError', 'SyntaxError', 'SyntaxError', 'TypeError'] });
      await sleep(100);
      await expectHealthy();
    });

    // The false-positive side: import( and HTML comment tokens in strings, comments and regexes run; in code they are refused.
    it('runs code that only mentions import( or <!-- and refuses HTML comments in code', async () => {
      const mentions = await run(`
        // import('node:fs') in a comment, and <!-- an HTML comment -->
        /* import ('x') */
        const text = "import('node:fs') <!-- -->";
        const template = \`import('y') --> \${'import(' + "'z')"}\`;
        return [text, template, /import\\(/.test(text)];
      `);
      expect(mentions).toMatchObject({ ok: true, value: ["import('node:fs') <!-- -->", "import('y') --> import('z')", true] });
      const htmlOpen = await run(`const a = 3;\nreturn a <!-- 2\n;`);
      expect(htmlOpen.ok).toBe(false);
      const htmlClose = await run(`const a = 3;\n--> not a comment in strict code\nreturn a;`);
      expect(htmlClose.ok).toBe(false);
      await expectHealthy();
    });

    // SES module loading: a nested Compartment's importHook can only hand back modules the guest made itself.
    it('loads no real module through a nested Compartment import hook', async () => {
      const result = await run(`
        const out = [];
        const hooks = { __options__: true, resolveHook: (spec) => spec };
        const asNamespace = new Compartment({ ...hooks, importHook: async (spec) => ({ namespace: spec }) });
        try { await asNamespace.import('node:fs'); out.push('loaded'); } catch (e) { out.push(e.name); }
        const missing = new Compartment({ ...hooks, importNowHook: (spec) => ({ namespace: spec }) });
        try { missing.importNow('node:fs'); out.push('loaded'); } catch (e) { out.push(e.name); }
        const virtual = new Compartment({ ...hooks, importHook: async () => ({ source: { imports: [], exports: ['req'], execute(env) { env.req = typeof require; } } }) });
        const { namespace } = await virtual.import('node:fs');
        out.push(namespace.req);
        return out;
      `);
      expect(result).toMatchObject({ ok: true, value: ['TypeError', 'TypeError', 'undefined'] });
      await expectHealthy();
    });
  });

  describe('denial of service', () => {
    // The plainest hang.
    it('stops while (true) {} at the time limit and leaves no thread spinning', async () => {
      const result = await run(`while (true) {}`, DOS_LIMITS);
      expect(result).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      await sleep(100);
      expect(await cpuMsOver(500)).toBeLessThan(250);
      await expectHealthy();
    });

    // Microtask starvation: no timer ever fires inside the worker.
    it('stops an endless microtask loop (for (;;) await null)', async () => {
      const result = await run(`for (;;) await null;`, DOS_LIMITS);
      expect(result).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      await expectHealthy();
    });

    // Stack exhaustion.
    it('turns infinite recursion into a RangeError', async () => {
      const result = await run(`const f = (n) => f(n + 1) + 1; return f(0);`, DOS_LIMITS);
      expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'RangeError' } });
      await expectHealthy();
    });

    // Promise recursion: every job schedules the next, and nothing ever settles.
    it('stops a recursive promise chain and a promise that never settles', async () => {
      const chain = await run(`const next = () => Promise.resolve().then(next); next(); await new Promise(() => {});`, DOS_LIMITS);
      expect(chain).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      const never = await run(`await new Promise(() => {});`, DOS_LIMITS);
      expect(never).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      await expectHealthy();
    });

    // String memory bomb: 'x'.repeat(2 ** 29) is past V8's string limit.
    it('refuses a 2^29-character string', async () => {
      const result = await run(`return 'x'.repeat(2 ** 29).length;`, DOS_LIMITS);
      expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'RangeError' } });
      await expectHealthy();
    });

    // Heap memory bomb: arrays grown until the worker's heap limit.
    it('stops arrays grown until out of memory by losing the worker, not the host', async () => {
      const result = await run(`const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random()));`, { timeMs: 10_000 });
      expect(result).toMatchObject({ ok: false, error: { code: 'MemoryLimit' } });
      await expectHealthy();
    });

    // Memory bomb off the JS heap: ArrayBuffers live outside V8's heap, which resourceLimits does not count.
    it('stops a memory bomb made of ArrayBuffers at the worker memory limit', async () => {
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const result = await run(`
        const keep = [];
        for (let i = 0; i < 6; i++) { const block = new Uint8Array(256 * 1024 * 1024); block.fill(1); keep.push(block); }
        return keep.length;
      `, { timeMs: 10_000 });
      clearInterval(sampler);
      // The worker's memory limit is 256 MB; six filled 256 MB blocks are 1.5 GB in the host process.
      expect(result.ok, `the guest held 1.5 GB (host RSS grew by ${Math.round((peak - before) / 1e6)} MB)`).toBe(false);
      expect(result.error?.code).toBe('MemoryLimit');
      await expectHealthy();
    });

    // ReDoS: catastrophic backtracking inside a native regex engine call, which must still be interruptible.
    it('stops catastrophic regex backtracking and leaves no thread spinning', async () => {
      const result = await run(`return /(a+)+$/.test('a'.repeat(40) + '!');`, DOS_LIMITS);
      expect(result).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      await sleep(100);
      expect(await cpuMsOver(500)).toBeLessThan(250);
      await expectHealthy();
    });

    // Leftover work: a loop started but not awaited keeps the worker busy after the run returns.
    it('runs the next code after a run left a spinning async loop behind', async () => {
      const result = await run(`(async () => { for (;;) await null; })(); return 1;`);
      expect(result).toMatchObject({ ok: true, value: 1 });
      const next = await run(`return 'next';`);
      expect(next).toMatchObject({ ok: true, value: 'next' });
      await expectHealthy();
    });

    // The same leftover loop, between runs: nothing stops it until another run comes.
    it('does not keep burning CPU after a run that left a spinning async loop returned', async () => {
      const result = await run(`(async () => { for (;;) await null; })(); return 1;`);
      expect(result).toMatchObject({ ok: true, value: 1 });
      await sleep(200);
      const used = await cpuMsOver(1000);
      expect(used, `the test process used ${Math.round(used)} ms of CPU in the second after the run returned`).toBeLessThan(500);
      await expectHealthy();
    });

    // Leftover calls: mem calls a run fired without awaiting, unanswered when it ended, must not hold up the next run.
    it('serves the next run after a run ended with mem calls still in flight', async () => {
      const first = await run(`for (let i = 0; i < 20; i++) mem.fileExists('a.md'); return 1;`);
      expect(first).toMatchObject({ ok: true, value: 1 });
      const next = await run(`return await mem.fileExists('a.md');`);
      expect(next, JSON.stringify(next.error)).toMatchObject({ ok: true, value: false });
      await expectHealthy();
    });

    // Call flooding: more mem calls than the per-run limit, awaited one by one and fired all at once.
    it('stops a mem call flood at the per-run call limit', async () => {
      const sequential = await run(`for (let i = 0; i < 5000; i++) await mem.fileExists('a.md');`, { maxMemCalls: 100 });
      expect(sequential).toMatchObject({ ok: false, memCalls: 101, error: { code: 'MemCallLimit' } });
      const parallel = await run(`await Promise.all(Array.from({ length: 20000 }, () => mem.fileExists('a.md')));`, { maxMemCalls: 100 });
      expect(parallel).toMatchObject({ ok: false, error: { code: 'MemCallLimit' } });
      await expectHealthy();
    });

    // Write flooding: more bytes than the per-run write limit, spread over many files.
    it('stops a write flood at the per-run byte limit', async () => {
      const result = await run(`for (let i = 0; i < 50; i++) await mem.writeFile('flood/' + i + '.md', 'w'.repeat(300 * 1000));`, { maxBytesWritten: 1_000_000 });
      expect(result).toMatchObject({ ok: false, error: { code: 'WriteLimit' } });
      const written = await readdir(join(vault.dir, 'flood'));
      expect(written.length).toBeLessThanOrEqual(3);
      await expectHealthy();
    });

    // Message flooding: mem calls carrying 100 MB each, which the host must copy on its main thread before it
    // can check anything; a size check that reads only plain data properties is passed by a getter, a Map,
    // a Set or an ArrayBuffer.
    it.each([
      ['as a path', 'huge'],
      ['behind a getter', '{ get smuggled() { return huge; } }'],
      ['inside a Map', 'new Map([["smuggled", huge]])'],
      ['inside a Set', 'new Set([huge])'],
      ['as ArrayBuffer bytes', 'new TextEncoder().encode(huge).buffer'],
    ])('does not freeze the host event loop with a flood of 100 MB arguments %s', async (_how, argument) => {
      const { value: result, maxGapMs } = await withEventLoopProbe(() =>
        run(`const huge = 'x'.repeat(100 * 1000 * 1000); const arg = ${argument}; await Promise.all(Array.from({ length: 40 }, () => mem.readFile(arg).catch((e) => e.code)));`, { timeMs: 3000 }),
      );
      // Any ending will do (the calls finish, or a limit stops the run); what matters is the host's event loop.
      expect(result.ok || ['TimeLimit', 'MemoryLimit', 'MemCallLimit'].includes(result.error?.code ?? '')).toBe(true);
      expect(maxGapMs, `the host's event loop stalled for ${Math.round(maxGapMs)} ms`).toBeLessThan(500);
      await expectHealthy();
    });

    // Algorithmic complexity on the host: notes built to make BPE merging quadratic — one long pre-tokenizer
    // piece: an 8000-letter word, a run of 6000 spaces, a run of 3000 no-break spaces.
    it('does not freeze the host event loop when asked to count the tokens of pathological notes', async () => {
      // The encoder's rank table is parsed once, on first use: that one-time cost is not what is measured here.
      expect(await run(`await mem.writeFile('warm.md', 'warm up'); return await mem.getTokenCount('warm.md');`)).toMatchObject({ ok: true });
      const { value: result, maxGapMs } = await withEventLoopProbe(() =>
        run(`
          const notes = { 'letters.md': 'a'.repeat(8000), 'spaces.md': 'x' + ' '.repeat(6000) + 'x', 'nbsp.md': 'x' + '\u00a0'.repeat(3000) + 'x' };
          for (const [path, text] of Object.entries(notes)) await mem.writeFile(path, text);
          return await Promise.all(Object.keys(notes).map((path) => mem.getTokenCount(path)));
        `, { timeMs: 1500 }),
      );
      expect(result.ok === true || result.error?.code === 'TimeLimit').toBe(true);
      expect(maxGapMs, `the host's event loop stalled for ${Math.round(maxGapMs)} ms`).toBeLessThan(500);
      await expectHealthy();
    });

    // YAML "billion laughs" and deep nesting in frontmatter, parsed by the host when a note is written.
    it('refuses YAML alias bombs and deeply nested frontmatter without stalling the host', async () => {
      const { value: result, maxGapMs } = await withEventLoopProbe(() =>
        run(`
          let yaml = '---\\na0: &a0 [' + Array(9).fill('"lol"').join(',') + ']\\n';
          for (let i = 1; i < 10; i++) yaml += 'a' + i + ': &a' + i + ' [' + Array(9).fill('*a' + (i - 1)).join(',') + ']\\n';
          const out = [];
          try { await mem.writeFile('laughs.md', yaml + '---\\n'); out.push('written'); } catch (e) { out.push(e.code); }
          try { await mem.writeFile('deep.md', '---\\na: ' + '['.repeat(30000) + ']'.repeat(30000) + '\\n---\\n'); out.push('written'); } catch (e) { out.push(e.code); }
          return out;
        `),
      );
      expect(result).toMatchObject({ ok: true, value: ['InvalidContent', 'InvalidContent'] });
      expect(maxGapMs).toBeLessThan(500);
      await expectHealthy();
    });
  });
});
