import { isRecursaError } from '../errors';
import { MEM_METHOD_NAMES, memForRun, type Mem, type RunScopedMem } from '../mem/createMem';
import { WriteBudget } from '../mem/runScope';
import { utf8Length } from '../text/decodeText';
import { KeyedMutex } from '../util/KeyedMutex';
import { toJsonSafe } from './jsonSafe';
import { scrubHostPaths } from './scrubError';
import {
  DEFAULT_RUN_LIMITS,
  type LogLine,
  type MemRequest,
  type RunError,
  type RunLimits,
  type RunResult,
  type SandboxWorker,
  type SandboxWorkerFactory,
} from './protocol';

export interface SandboxOptions {
  /** Defaults for every run. */
  limits?: Partial<RunLimits>;
  /** How long a new worker may take to start (load SES, lock down). Default 10 s. */
  bootTimeoutMs?: number;
  /** How long a warm worker may take to pick up a run before it is replaced. Default 1 s. */
  pickupTimeoutMs?: number;
  /** How long a worker may take to answer the ping after a run before it is replaced. Default 250 ms. */
  idleTimeoutMs?: number;
  /**
   * Absolute folders of the vault (its `root`). Errors the code sees name paths inside them
   * vault-relative; every other host path becomes `<host path>` (see `scrubError.ts`).
   */
  hostPaths?: readonly string[];
}

export interface RunOptions {
  limits?: Partial<RunLimits>;
  /** Stops the run at once: the worker is terminated. */
  signal?: AbortSignal;
}

/** Arguments `mem` methods take; anything longer is refused before it reaches `mem`. */
const MAX_ARGS = 8;
/** For a `mem` that cannot be bound to a run (not made by `createMem`): the argument that holds the content written. */
const WRITE_CONTENT_ARG: Partial<Record<string, number>> = { writeFile: 1, updateFile: 2, replaceInFile: 2 };
const KNOWN_METHODS = new Set<string>(MEM_METHOD_NAMES);

interface LiveWorker {
  handle: SandboxWorker;
  listeners: Set<(message: unknown) => void>;
  failures: Set<(error: Error) => void>;
  /** Resolves once the check after the last run is over: true if the worker is idle and kept. */
  idle: Promise<boolean>;
}

/**
 * Why a run's scope is aborted when it ends. Given, not left to `abort()`, which makes a
 * `DOMException` (with its stack) on every run; nothing reads it.
 */
const RUN_ENDED = Object.freeze(new Error('the run ended'));

/**
 * Runs model-written code against `mem` in a worker, one run at a time. The worker is reused
 * between runs (a warm run costs milliseconds) and replaced after any run that had to be stopped.
 *
 * The worker is untrusted: everything it sends is plain data (structured clone), every `mem` call
 * is checked again here — method, argument count and size, the per-run limits — before `mem`
 * (which applies the path policy and its own argument checks) sees it.
 */
export class Sandbox {
  private worker: LiveWorker | null = null;
  private readonly queue = new KeyedMutex();
  private runCounter = 0;

  /**
   * @param mem the `mem` the code gets. Made by `createMem` (or a `RunScopedMem`), it is bound to
   *   each run: when the run ends, for any reason, the host work of its calls in flight stops, and
   *   `maxBytesWritten` counts every byte any method writes to disk. Any other `Mem` is called as it
   *   is, and only the content arguments of `writeFile`, `updateFile` and `replaceInFile` count.
   */
  constructor(
    private readonly createWorker: SandboxWorkerFactory,
    private readonly mem: Mem | RunScopedMem,
    private readonly options: SandboxOptions = {},
  ) {}

  run(code: string, options: RunOptions = {}): Promise<RunResult> {
    return this.queue.run('run', () => this.runNow(code, options));
  }

  /** Terminates the worker; the next run starts a new one. */
  dispose(): void {
    this.worker?.handle.terminate();
    this.worker = null;
  }

  private async runNow(code: string, options: RunOptions): Promise<RunResult> {
    const started = Date.now();
    const limits: RunLimits = { ...DEFAULT_RUN_LIMITS, ...this.options.limits, ...options.limits };
    const finish = (partial: Partial<RunResult> & { error: RunError | null }): RunResult => ({
      ok: partial.error === null,
      value: partial.value ?? null,
      logs: partial.logs ?? [],
      memCalls: partial.memCalls ?? 0,
      truncated: partial.truncated ?? [],
      ...partial,
      durationMs: Date.now() - started,
    });
    if (typeof code !== 'string') return finish({ error: { code: 'InvalidArgument', message: 'the code must be a string' } });
    if (code.length > limits.maxCodeChars) {
      return finish({ error: { code: 'CodeTooLarge', message: `the code is ${code.length} characters; the limit is ${limits.maxCodeChars}` } });
    }
    if (options.signal?.aborted === true) return finish({ error: cancelled() });
    // The transpiler (Sucrase) loads with the first run, not with the plugin.
    const { prepareCode } = await import('./prepareCode');
    const prepared = prepareCode(code);
    if (!prepared.ok) return finish({ error: prepared.error });
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.execute(prepared.source, limits, started, options.signal);
      if (outcome !== 'not-picked-up') return finish(outcome);
      // A previous run left the worker's event loop busy; a fresh worker gets one more chance.
      if (attempt === 1) return finish({ error: { code: 'WorkerCrashed', message: 'the sandbox did not start the run' } });
    }
  }

  private async execute(source: string, limits: RunLimits, started: number, signal: AbortSignal | undefined): Promise<Partial<RunResult> & { error: RunError | null } | 'not-picked-up'> {
    let worker: LiveWorker;
    try {
      worker = await this.ensureWorker();
    } catch (error) {
      return { error: { code: 'WorkerCrashed', message: `the sandbox could not start: ${scrubHostPaths(error instanceof Error ? error.message : String(error), this.options.hostPaths)}` } };
    }
    const runId = ++this.runCounter;
    let memCalls = 0;
    let bytesWritten = 0;
    // The run's scope: aborted when the run ends, whatever ends it, so host work of its calls stops too.
    const scope = new AbortController();
    return new Promise((resolve) => {
      let settled = false;
      const timers: ReturnType<typeof setTimeout>[] = [];
      const end = (outcome: Partial<RunResult> & { error: RunError | null } | 'not-picked-up', kill: boolean): void => {
        if (settled) return;
        settled = true;
        scope.abort(RUN_ENDED);
        for (const timer of timers) clearTimeout(timer);
        worker.listeners.delete(onMessage);
        worker.failures.delete(onFailure);
        signal?.removeEventListener('abort', onAbort);
        if (kill) this.retire(worker);
        resolve(outcome === 'not-picked-up' ? outcome : { ...outcome, memCalls });
      };
      const stop = (error: RunError): void => end({ error }, true);
      const writeBudget = new WriteBudget(limits.maxBytesWritten, (error) => stop({ code: 'WriteLimit', message: error.message }));
      const mem = memForRun(this.mem, { signal: scope.signal, writeBudget });
      const onAbort = (): void => stop(cancelled());
      const onFailure = (error: Error & { code?: string }): void => {
        this.retire(worker);
        const code = error.code === 'MemoryLimit' ? 'MemoryLimit' : 'WorkerCrashed';
        if (code === 'WorkerCrashed') console.error('Recursa: the sandbox worker stopped', error);
        end({ error: { code, message: `the sandbox stopped: ${scrubHostPaths(error.message, this.options.hostPaths)}` } }, false);
      };
      const onMessage = (message: unknown): void => {
        const data = message as { type?: unknown; runId?: unknown };
        if (data.runId !== runId) return;
        if (data.type === 'started') {
          clearTimeout(timers[1]);
        } else if (data.type === 'mem') {
          this.serveMem(worker, message as MemRequest, {
            mem: mem ?? (this.mem as Mem),
            metered: mem !== null,
            count: () => ++memCalls,
            write: (bytes) => (bytesWritten += bytes),
            limits,
            stop,
            live: () => !settled,
          }).catch((error: unknown) => stop({ code: 'WorkerCrashed', message: `a mem call could not be served: ${scrubHostPaths(error instanceof Error ? error.message : String(error), this.options.hostPaths)}` }));
        } else if (data.type === 'done') {
          end(readDone(message, limits), false);
          this.checkIdle(worker);
        }
      };
      worker.listeners.add(onMessage);
      worker.failures.add(onFailure);
      signal?.addEventListener('abort', onAbort);
      // An abort while the worker started (or while an earlier worker went idle) fired no event here.
      if (signal?.aborted === true) return end({ error: cancelled() }, false);
      timers.push(setTimeout(() => stop({ code: 'TimeLimit', message: `the code ran longer than the time limit of ${limits.timeMs} ms and was stopped` }), Math.max(0, limits.timeMs - (Date.now() - started))));
      timers.push(setTimeout(() => end('not-picked-up', true), this.options.pickupTimeoutMs ?? 1000));
      worker.handle.postMessage({
        type: 'run',
        runId,
        source,
        methods: [...KNOWN_METHODS],
        limits: { maxOutputChars: limits.maxOutputChars, maxArgChars: limits.maxArgChars },
      });
    });
  }

  private async serveMem(
    worker: LiveWorker,
    request: MemRequest,
    run: { mem: Mem; metered: boolean; count: () => number; write: (bytes: number) => number; limits: RunLimits; stop: (error: RunError) => void; live: () => boolean },
  ): Promise<void> {
    const { callId, method, args } = request;
    const reply = (response: { ok: true; value: unknown } | { ok: false; error: { name: string; code: string; message: string } }): void => {
      if (run.live()) worker.handle.postMessage({ type: 'mem-result', callId, ...response });
    };
    if (typeof method !== 'string' || !KNOWN_METHODS.has(method)) {
      reply({ ok: false, error: { name: 'TypeError', code: 'InvalidArgument', message: `mem has no method ${JSON.stringify(String(method).slice(0, 60))}` } });
      return;
    }
    if (!Array.isArray(args) || args.length > MAX_ARGS) {
      reply({ ok: false, error: { name: 'TypeError', code: 'InvalidArgument', message: `mem.${method} takes at most ${MAX_ARGS} arguments` } });
      return;
    }
    if (stringChars(args, run.limits.maxArgChars) > run.limits.maxArgChars) {
      reply({ ok: false, error: { name: 'RangeError', code: 'InvalidArgument', message: `mem.${method}: the arguments are larger than ${run.limits.maxArgChars} characters` } });
      return;
    }
    const calls = run.count();
    if (calls > run.limits.maxMemCalls) {
      run.stop({ code: 'MemCallLimit', message: `the code made more than ${run.limits.maxMemCalls} mem calls (the per-run limit) and was stopped` });
      return;
    }
    const contentArg = run.metered ? undefined : WRITE_CONTENT_ARG[method];
    const content = contentArg === undefined ? undefined : args[contentArg];
    if (typeof content === 'string' && run.write(utf8Length(content)) > run.limits.maxBytesWritten) {
      run.stop({ code: 'WriteLimit', message: `the code tried to write more than ${run.limits.maxBytesWritten} bytes in one run (the per-run limit) and was stopped` });
      return;
    }
    try {
      const operation = run.mem[method as keyof Mem] as (...values: unknown[]) => Promise<unknown>;
      reply({ ok: true, value: await operation(...args) });
    } catch (error) {
      reply({ ok: false, error: this.describeMemError(method, error) });
    }
  }

  /** What the code sees of a `mem` failure: name, code, message, with host paths taken out; the whole error goes to the console. */
  private describeMemError(method: string, error: unknown): { name: string; code: string; message: string } {
    const known = isRecursaError(error);
    const original = error instanceof Error ? error.message : String(error);
    const message = scrubHostPaths(original, this.options.hostPaths);
    // A routine failure (NotFound, Conflict…) says all there is; anything else is worth a developer's look.
    if (!known || message !== original) console.error(`Recursa: mem.${method} failed`, error);
    return known ? { name: error.name, code: error.code, message } : { name: 'Error', code: 'Io', message };
  }

  private async ensureWorker(): Promise<LiveWorker> {
    const current = this.worker;
    if (current !== null && (await current.idle) && this.worker === current) return current;
    return this.startWorker();
  }

  private startWorker(): Promise<LiveWorker> {
    const handle = this.createWorker();
    const worker: LiveWorker = { handle, listeners: new Set(), failures: new Set(), idle: Promise.resolve(true) };
    this.worker = worker;
    handle.onMessage((message) => {
      for (const listener of [...worker.listeners]) listener(message);
    });
    handle.onError((error) => {
      for (const failure of [...worker.failures]) failure(error);
      this.retire(worker);
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.retire(worker);
        reject(new Error(`it took longer than ${this.options.bootTimeoutMs ?? 10_000} ms to start`));
      }, this.options.bootTimeoutMs ?? 10_000);
      const onReady = (message: unknown): void => {
        if ((message as { type?: unknown }).type !== 'ready') return;
        cleanup();
        resolve(worker);
      };
      const onFailure = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        worker.listeners.delete(onReady);
        worker.failures.delete(onFailure);
      };
      worker.listeners.add(onReady);
      worker.failures.add(onFailure);
    });
  }

  /**
   * After a run, makes sure nothing it left behind (an async loop it never awaited, say) keeps the
   * worker busy: a worker that does not answer a ping at once is replaced.
   */
  private checkIdle(worker: LiveWorker): void {
    const id = ++this.runCounter;
    worker.idle = new Promise((resolve) => {
      const timer = setTimeout(() => {
        worker.listeners.delete(onPong);
        this.retire(worker);
        resolve(false);
      }, this.options.idleTimeoutMs ?? 250);
      const onPong = (message: unknown): void => {
        const data = message as { type?: unknown; id?: unknown };
        if (data.type !== 'pong' || data.id !== id) return;
        clearTimeout(timer);
        worker.listeners.delete(onPong);
        resolve(true);
      };
      worker.listeners.add(onPong);
      worker.handle.postMessage({ type: 'ping', id });
    });
  }

  private retire(worker: LiveWorker): void {
    if (this.worker === worker) this.worker = null;
    worker.handle.terminate();
  }
}

/** Size of structured-cloned data (characters of strings and keys, 8 per other value), counted until `limit` is passed. */
function stringChars(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') {
      total += item.length;
    } else if (item instanceof ArrayBuffer || ArrayBuffer.isView(item)) {
      total += item.byteLength;
    } else if (item instanceof Map || item instanceof Set) {
      total += 8;
      for (const entry of item instanceof Map ? item.entries() : item.values()) stack.push(entry);
    } else if (item !== null && typeof item === 'object') {
      total += 8;
      for (const key of Object.keys(item)) {
        total += key.length;
        stack.push((item as Record<string, unknown>)[key]);
      }
    } else {
      total += 8;
    }
  }
  return total;
}

function cancelled(): RunError {
  return { code: 'Cancelled', message: 'the run was cancelled' };
}

/** The worker's report, re-checked: it is untrusted data, whatever shape it has. */
function readDone(message: unknown, limits: RunLimits): Partial<RunResult> & { error: RunError | null } {
  const data = message as { ok?: unknown; value?: unknown; logs?: unknown; error?: unknown; truncated?: unknown };
  const safe = toJsonSafe(data.value, { maxTotalChars: limits.maxOutputChars });
  const logs: LogLine[] = [];
  let chars = 0;
  for (const line of Array.isArray(data.logs) ? (data.logs as unknown[]) : []) {
    const entry = line as { level?: unknown; text?: unknown };
    if (typeof entry.text !== 'string' || chars >= limits.maxOutputChars) continue;
    const text = entry.text.slice(0, limits.maxOutputChars - chars);
    chars += text.length;
    logs.push({ level: isLevel(entry.level) ? entry.level : 'log', text });
  }
  const notes = Array.isArray(data.truncated) ? (data.truncated as unknown[]).filter((note): note is string => typeof note === 'string').map((note) => note.slice(0, 300)) : [];
  return { value: data.ok === true ? (safe.value) : null, logs, error: data.ok === true ? null : readError(data.error), truncated: [...notes.slice(0, 20), ...safe.truncated] };
}

function readError(value: unknown): RunError {
  const error = (value ?? {}) as { code?: unknown; message?: unknown; line?: unknown; name?: unknown };
  return {
    code: typeof error.code === 'string' ? error.code.slice(0, 100) : 'RuntimeError',
    message: typeof error.message === 'string' ? error.message.slice(0, 2000) : 'the code failed',
    ...(typeof error.line === 'number' && Number.isInteger(error.line) ? { line: error.line } : {}),
    ...(typeof error.name === 'string' ? { name: error.name.slice(0, 100) } : {}),
  };
}

function isLevel(level: unknown): level is LogLine['level'] {
  return level === 'log' || level === 'info' || level === 'warn' || level === 'error' || level === 'debug';
}
