/**
 * The guest side of the sandbox: runs inside a Worker (a Web Worker in Obsidian, a
 * `worker_threads` Worker in Node), never in the app's own window. It locks the realm down with
 * SES, then evaluates each run's code in a fresh Compartment whose only powers are a `mem` that
 * forwards calls to the host, a capturing `console`, and working `Date` and `Math`.
 *
 * Bundled on its own (see esbuild.config.mjs) as a classic script that starts with "use strict":
 * SES refuses to initialise in sloppy mode.
 */
import 'ses';
/* global lockdown, Compartment -- globals that `ses` installs */
import { formatLogArguments, toJsonSafe } from '../jsonSafe';
import type { HostToWorker, LogLine, MemResponse, RunError, RunRequest, WorkerToHost } from '../protocol';

interface Channel {
  post(message: WorkerToHost): void;
  listen(listener: (message: unknown) => void): void;
}

declare const globalThis: { __recursaChannel?: Channel; postMessage?: (message: unknown) => void; addEventListener?: (type: string, listener: (event: { data: unknown }) => void) => void };

/** The file name the run's code gets in stack traces: neutral, and how its frames are told from the worker's own. */
const SOURCE_URL = 'agent.ts';
/** `prepareCode` wraps the code in `(async function () {` on its first line; columns there are shifted by it. */
const FIRST_LINE_PREFIX = '(async function () {'.length;
const LOG_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

function connect(): Channel {
  // Node's worker_threads host defines the channel before this script runs; a Web Worker has `self`.
  const injected = globalThis.__recursaChannel;
  if (injected !== undefined) return injected;
  const post = globalThis.postMessage;
  const listen = globalThis.addEventListener;
  if (post === undefined || listen === undefined) throw new Error('sandbox worker: no channel to the host');
  return {
    post: (message) => post(message),
    listen: (listener) => listen('message', (event) => listener(event.data)),
  };
}

const channel = connect();
/** Some engines give each error an own `stack` accessor; this one is the engine's, not the code's. */
const ENGINE_STACK_GETTER: unknown = Reflect.get(Object.getOwnPropertyDescriptor(new Error(), 'stack') ?? {}, 'get');
lockdown({ errorTaming: 'unsafe', overrideTaming: 'severe', consoleTaming: 'unsafe', stackFiltering: 'verbose' });
installAgentOnlyStacks();

/**
 * On V8 (Chromium, Node) every error's `stack` — what the code reads, logs or returns, and what
 * lines are taken from — lists only frames of the code itself, as `agent.ts:line:column`: no frame
 * of this worker, SES or the engine's internals, and so no path or URL of the host. SES lets the
 * start compartment set `Error.prepareStackTrace` after lockdown (it hands over attenuated call
 * sites); a compartment cannot. Other engines keep their own format, which `agentFrames` filters
 * where this worker builds a stack itself.
 */
function installAgentOnlyStacks(): void {
  interface CallSite {
    getScriptNameOrSourceURL(): unknown;
    getFunctionName(): unknown;
    getLineNumber(): unknown;
    getColumnNumber(): unknown;
    isAsync(): unknown;
  }
  const format = (error: unknown, sites: readonly CallSite[]): string => {
    let head: string;
    try {
      head = String(error);
    } catch {
      head = 'Error';
    }
    const frames = sites.filter((site) => site.getScriptNameOrSourceURL() === SOURCE_URL).map((site) => {
      const line = Number(site.getLineNumber());
      const column = Number(site.getColumnNumber()) - (line === 1 ? FIRST_LINE_PREFIX : 0);
      const name = site.getFunctionName();
      // The function that wraps the code shows up as "eval": it is no name the code gave.
      const named = typeof name === 'string' && name !== '' && name !== 'eval' ? name : undefined;
      const where = `${SOURCE_URL}:${line}:${Math.max(1, column)}`;
      return `\n    at ${site.isAsync() === true ? 'async ' : ''}${named === undefined ? where : `${named} (${where})`}`;
    });
    return head + frames.join('');
  };
  Reflect.set(Error, 'prepareStackTrace', format);
}

/** The lines of a stack that point into the code, whatever the engine's format. */
function agentFrames(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => line.includes(`${SOURCE_URL}:`))
    .join('\n');
}

const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; callSite: Error }>();
let nextCallId = 1;

channel.listen((message) => {
  const data = message as HostToWorker;
  if (data.type === 'run') void run(data);
  else if (data.type === 'mem-result') settle(data);
  // Answered only when no code left behind by a run keeps this thread busy.
  else if (data.type === 'ping') channel.post({ type: 'pong', id: data.id });
});
channel.post({ type: 'ready' });

function settle(response: MemResponse): void {
  const call = pending.get(response.callId);
  if (call === undefined) return;
  pending.delete(response.callId);
  if (response.ok) {
    startQueuedCall();
    call.resolve(response.value);
    return;
  }
  startQueuedCall();
  const failure = response.error ?? { name: 'Error', code: 'Io', message: 'mem call failed' };
  const error = new Error(failure.message);
  error.name = failure.name;
  Object.defineProperty(error, 'code', { value: failure.code, enumerable: true });
  // Point at the line of the model's code that made the call, not at this function.
  Object.defineProperty(error, 'stack', { value: `${failure.name}: ${failure.message}\n${agentFrames(call.callSite.stack ?? '')}`, configurable: true, writable: true });
  call.reject(error);
}

async function run(request: RunRequest): Promise<void> {
  // Calls a previous run left unanswered are never answered (the host serves one run at a time);
  // they must not hold this run's slots.
  pending.clear();
  queued.length = 0;
  channel.post({ type: 'started', runId: request.runId });
  const logs: LogLine[] = [];
  const truncated: string[] = [];
  let logChars = 0;
  let droppedLogs = 0;
  const capture = (level: LogLine['level']) => (...args: unknown[]) => {
    const room = request.limits.maxOutputChars - logChars;
    if (room <= 0) {
      droppedLogs++;
      return;
    }
    const text = formatLogArguments(args, room);
    logChars += text.length;
    logs.push({ level, text });
  };
  const console = frozenFunctions(Object.fromEntries(LOG_LEVELS.map((level) => [level, capture(level)])));
  const mem = frozenFunctions(
    Object.fromEntries(
      request.methods.map((method) => [method, (...args: unknown[]) => callHost(request.runId, method, args, request.limits.maxArgChars)]),
    ),
  );
  const compartment = new Compartment({ globals: { mem, console, Date, Math }, __options__: true });

  let value: unknown = null;
  let error: RunError | null = null;
  try {
    const body = compartment.evaluate(`${request.source}\n//# sourceURL=${SOURCE_URL}\n`) as () => Promise<unknown>;
    value = await body();
  } catch (thrown) {
    error = describeError(thrown);
  }
  const safe = toJsonSafe(error === null ? value : null, { maxTotalChars: request.limits.maxOutputChars });
  truncated.push(...safe.truncated);
  if (droppedLogs > 0) truncated.push(`logs: ${droppedLogs} more log lines cut (output limit ${request.limits.maxOutputChars} characters)`);
  channel.post({ type: 'done', runId: request.runId, ok: error === null, value: safe.value, logs, error, truncated });
}

/**
 * `harden` for a plain object of fresh arrow functions, at a fraction of its cost on every run:
 * their own properties are primitives and their prototypes the intrinsics `lockdown` hardened,
 * so freezing each function and the object is all `harden` would do.
 */
function frozenFunctions<T extends Record<string, (...args: never[]) => unknown>>(functions: T): T {
  for (const fn of Object.values(functions)) Object.freeze(fn);
  return Object.freeze(functions);
}

/** Calls the host has not answered yet; more wait here, so code cannot flood the host with work. */
const MAX_IN_FLIGHT = 8;
const queued: (() => void)[] = [];

function startQueuedCall(): void {
  queued.shift()?.();
}

function callHost(runId: number, method: string, args: unknown[], maxArgChars: number): Promise<unknown> {
  // Formatted only if the call fails: V8 builds the text on first read of `stack`.
  const callSite = new Error();
  return new Promise((resolve, reject) => {
    let plain: unknown[];
    try {
      plain = plainCopy(args, maxArgChars) as unknown[];
    } catch (problem) {
      reject(new TypeError(`mem.${method}: ${problem instanceof Error ? problem.message : 'the arguments cannot be sent'}`));
      return;
    }
    const send = (): void => {
      const callId = nextCallId++;
      channel.post({ type: 'mem', runId, callId, method, args: plain });
      pending.set(callId, { resolve, reject, callSite });
    };
    if (pending.size < MAX_IN_FLIGHT) send();
    else queued.push(send);
  });
}

const MAX_ARG_DEPTH = 64;
const PLAIN_PROTOTYPES = new Set<unknown>([Object.prototype, null]);

/**
 * A fresh copy of `mem` arguments as JSON-like data — strings, finite numbers, booleans, null,
 * arrays and plain objects, read through own data properties only — so what reaches the host is
 * exactly what was checked: no getters to change their answer, no Maps, buffers or class
 * instances to smuggle size past the limit. Throws a message for the model when it is not.
 */
function plainCopy(value: unknown, maxChars: number): unknown {
  let chars = 0;
  const charge = (count: number): void => {
    chars += count;
    if (chars > maxChars) throw new Error(`the arguments are larger than ${maxChars} characters; pass less at a time`);
  };
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') {
      charge(item.length);
      return item;
    }
    charge(8);
    if (item === null || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item))) return item;
    if (item === undefined) return undefined;
    if (typeof item !== 'object') throw new Error(`arguments must be plain data (strings, numbers, booleans, arrays, plain objects), not ${typeof item}`);
    if (depth >= MAX_ARG_DEPTH) throw new Error(`arguments are nested more than ${MAX_ARG_DEPTH} levels deep`);
    if (Array.isArray(item)) {
      const length = Reflect.get(Object.getOwnPropertyDescriptor(item, 'length') ?? {}, 'value') as number;
      charge(length);
      const out: unknown[] = [];
      for (let i = 0; i < length; i++) out.push(copy(ownData(item, String(i)), depth + 1));
      return out;
    }
    if (!PLAIN_PROTOTYPES.has(Object.getPrototypeOf(item))) throw new Error('arguments must be plain data: arrays and plain objects only');
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item)) {
      charge(key.length);
      Object.defineProperty(out, key, { value: copy(ownData(item, key), depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return copy(value, 0);
}

function ownData(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return undefined;
  if (!('value' in descriptor)) throw new Error(`arguments must be plain data: "${key.slice(0, 40)}" is a getter`);
  return descriptor.value;
}

/**
 * What the code threw, read defensively: it may be any value, including a Proxy or an object with
 * traps. Only own data properties are read; the engine's `stack` getter is used only when
 * `name` and `message` are plain data too (it would call their getters to format the stack).
 */
function describeError(thrown: unknown): RunError {
  try {
    if (thrown !== null && typeof thrown === 'object' && Object.getPrototypeOf(thrown) !== null) {
      const descriptors = Object.getOwnPropertyDescriptors(thrown);
      const isData = (key: string): boolean => descriptors[key] === undefined || 'value' in descriptors[key];
      const read = (key: string): unknown => (descriptors[key] !== undefined && 'value' in descriptors[key] ? descriptors[key].value : undefined);
      const message = read('message');
      const engineStack = isData('stack') || Reflect.get(descriptors.stack ?? {}, 'get') === ENGINE_STACK_GETTER;
      const stack = read('stack') ?? (isData('name') && isData('message') && engineStack ? stackOf(thrown) : undefined);
      const name = typeof read('name') === 'string' ? (read('name') as string) : nameOf(thrown);
      const code = read('code');
      return {
        code: typeof code === 'string' ? code.slice(0, 100) : 'RuntimeError',
        ...(name === undefined ? {} : { name: name.slice(0, 100) }),
        message: typeof message === 'string' ? message.slice(0, 2000) : 'the code threw an error whose message could not be read',
        ...lineOf(typeof stack === 'string' ? stack : ''),
      };
    }
    return { code: 'RuntimeError', message: `the code threw ${JSON.stringify(toJsonSafe(thrown, { maxTotalChars: 500 }).value)}` };
  } catch {
    return { code: 'RuntimeError', message: 'the code threw a value that could not be read' };
  }
}

function stackOf(error: object): unknown {
  try {
    return (error as { stack?: unknown }).stack;
  } catch {
    return undefined;
  }
}

function nameOf(error: object): string | undefined {
  try {
    const name = (Object.getPrototypeOf(error) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

function lineOf(stack: string): { line?: number } {
  const match = new RegExp(`${SOURCE_URL.replace('.', '\\.')}:(\\d+):\\d+`).exec(stack);
  return match === null ? {} : { line: Number(match[1]) };
}
