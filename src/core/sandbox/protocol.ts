import type { SerializedRecursaError } from '../errors';
import type { JsonValue } from './jsonSafe';

/** Limits of one run. Every field has a default in `DEFAULT_RUN_LIMITS`. */
export interface RunLimits {
  /** Wall time of the whole run; the worker is terminated when it is exceeded. */
  timeMs: number;
  /** `mem` calls per run. */
  maxMemCalls: number;
  /**
   * Bytes a run may write to disk, every `mem` method together, each file write counted whole (a
   * `replaceInFile` of one word in a 1 MB note costs 1 MB). Folders, renames and deletions cost
   * nothing; restores (`discardChanges`, `revertToLastCheckpoint`, `revertCommit`) are not counted,
   * as they put back content the history already holds. The write that would pass the limit is not
   * done, and the run stops with `WriteLimit`.
   */
  maxBytesWritten: number;
  /** Characters of `value` (as JSON) and of `logs` (together) a result may carry. */
  maxOutputChars: number;
  /** Characters of source code accepted. */
  maxCodeChars: number;
  /** Characters of strings one `mem` call may pass (a note is at most 4 MiB anyway). */
  maxArgChars: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = {
  timeMs: 10_000,
  maxMemCalls: 1_000,
  maxBytesWritten: 16 * 1024 * 1024,
  maxOutputChars: 60_000,
  maxCodeChars: 200_000,
  maxArgChars: 8 * 1024 * 1024,
};

export type SandboxErrorCode =
  | 'SyntaxError'
  | 'RuntimeError'
  | 'DynamicImport'
  | 'TimeLimit'
  | 'MemCallLimit'
  | 'WriteLimit'
  | 'CodeTooLarge'
  | 'WorkerCrashed'
  | 'MemoryLimit'
  | 'Cancelled';

/** What went wrong in a run, for the model to act on. */
export interface RunError {
  /** A `SandboxErrorCode`, or the `code` of the error the code threw (a `mem` error's `NotFound`, say). */
  code: string;
  /** A short message; for limits it names the limit and its value. */
  message: string;
  /** 1-based line in the model's own code, when known. */
  line?: number;
  /** The error class the code threw (`TypeError`, `NotFoundError`…), when it threw one. */
  name?: string;
}

export interface LogLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

/** The outcome of one run. Plain data: safe to log, to serialize, to show. */
export interface RunResult {
  ok: boolean;
  /** What the code returned, made JSON-safe; null when it returned nothing or failed. */
  value: JsonValue;
  logs: LogLine[];
  error: RunError | null;
  /** `mem` calls the host served. */
  memCalls: number;
  durationMs: number;
  /** What was cut from `value` and `logs` to fit the limits, said plainly. */
  truncated: string[];
}

// Messages between host and worker. Everything is structured-cloned plain data.

export interface RunRequest {
  type: 'run';
  runId: number;
  /** Plain JavaScript: the body of an async function, already free of TypeScript and censored tokens. */
  source: string;
  /** The `mem` method names to offer; the host checks every call again anyway. */
  methods: string[];
  limits: { maxOutputChars: number; maxArgChars: number };
}

export interface MemResponse {
  type: 'mem-result';
  callId: number;
  ok: boolean;
  value?: unknown;
  error?: SerializedRecursaError | { name: string; code: string; message: string };
}

export interface Ping {
  type: 'ping';
  id: number;
}

export type HostToWorker = RunRequest | MemResponse | Ping;

export interface MemRequest {
  type: 'mem';
  runId: number;
  callId: number;
  method: string;
  args: unknown[];
}

export interface RunDone {
  type: 'done';
  runId: number;
  ok: boolean;
  value: JsonValue;
  logs: LogLine[];
  error: RunError | null;
  truncated: string[];
}

export interface WorkerReady {
  type: 'ready';
}

/** The worker took the run: its event loop is free (code a previous run left spinning would block this). */
export interface RunStarted {
  type: 'started';
  runId: number;
}

export interface Pong {
  type: 'pong';
  id: number;
}

export type WorkerToHost = MemRequest | RunDone | WorkerReady | RunStarted | Pong;

/** The host's view of a worker; each runtime provides one (Web Worker, `worker_threads`). */
export interface SandboxWorker {
  postMessage(message: HostToWorker): void;
  onMessage(listener: (message: unknown) => void): void;
  /**
   * The worker died (crash, out of memory) or failed to start. An error with `code`
   * `MemoryLimit` says the worker was stopped for using too much memory.
   */
  onError(listener: (error: Error & { code?: string }) => void): void;
  terminate(): void;
}

export type SandboxWorkerFactory = () => SandboxWorker;
