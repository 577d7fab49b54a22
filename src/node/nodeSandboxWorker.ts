import { Worker } from 'node:worker_threads';
import workerSource from 'recursa:sandbox-worker';
import type { SandboxWorker } from '../core/sandbox/protocol';

// "use strict" must come first for SES; the channel must exist before the worker script runs.
const PRELUDE = `"use strict";
const { parentPort } = require('node:worker_threads');
globalThis.__recursaChannel = { post: (message) => parentPort.postMessage(message), listen: (listener) => parentPort.on('message', listener) };
`;

export interface NodeSandboxWorkerOptions {
  /** Heap limit of the worker, and the most ArrayBuffer memory it may add; code that allocates more is stopped. Default 256 MB. */
  maxMemoryMb?: number;
}

const WATCH_INTERVAL_MS = 25;

/** A sandbox worker in a `worker_threads` Worker, with a memory limit. */
export function createNodeSandboxWorker(options: NodeSandboxWorkerOptions = {}): SandboxWorker {
  const worker = new Worker(PRELUDE + workerSource, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb ?? 256, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  });
  const maxMemoryMb = options.maxMemoryMb ?? 256;
  const failures: ((error: Error & { code?: string }) => void)[] = [];
  const fail = (error: Error & { code?: string }): void => {
    for (const listener of failures) listener(error);
  };
  // ArrayBuffer contents live outside the V8 heap, so the heap limit does not cover them, and a
  // thread cannot be asked for its own memory. The process's resident size is what is left:
  // growth beyond twice the limit over its lowest point while this worker lives is charged to it.
  let floor = process.memoryUsage.rss();
  const watch = setInterval(() => {
    const rss = process.memoryUsage.rss();
    floor = Math.min(floor, rss);
    if (rss - floor > 2 * maxMemoryMb * 1024 * 1024) {
      clearInterval(watch);
      void worker.terminate();
      fail(Object.assign(new Error(`the code used more than the memory limit of ${maxMemoryMb} MB`), { code: 'MemoryLimit' }));
    }
  }, WATCH_INTERVAL_MS);
  watch.unref();
  worker.on('error', (error: Error & { code?: string }) => {
    fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? Object.assign(new Error(`the code used more than the memory limit of ${maxMemoryMb} MB`), { code: 'MemoryLimit' }) : error);
  });
  // A message the host cannot deserialize would otherwise vanish, leaving its call unanswered.
  worker.on('messageerror', (error) => fail(error));
  worker.on('exit', (code) => {
    clearInterval(watch);
    fail(new Error(`the worker exited (code ${code})`));
  });
  return {
    postMessage: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => failures.push(listener),
    terminate: () => {
      clearInterval(watch);
      void worker.terminate();
    },
  };
}
