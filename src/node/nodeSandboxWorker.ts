import { Worker } from 'node:worker_threads';
import workerSource from 'recursa:sandbox-worker';
import type { SandboxWorker } from '../core/sandbox/protocol';

// "use strict" must come first for SES; the channel must exist before the worker script runs.
const PRELUDE = `"use strict";
const { parentPort } = require('node:worker_threads');
globalThis.__recursaChannel = { post: (message) => parentPort.postMessage(message), listen: (listener) => parentPort.on('message', listener) };
`;

export interface NodeSandboxWorkerOptions {
  /** Heap limit of the worker; code that allocates more is stopped. Default 256 MB. */
  maxMemoryMb?: number;
}

/** A sandbox worker in a `worker_threads` Worker, with a memory limit. */
export function createNodeSandboxWorker(options: NodeSandboxWorkerOptions = {}): SandboxWorker {
  const worker = new Worker(PRELUDE + workerSource, {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb ?? 256, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  });
  return {
    postMessage: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => {
      worker.on('error', listener);
      worker.on('exit', (code) => listener(new Error(`the worker exited (code ${code})`)));
    },
    terminate: () => void worker.terminate(),
  };
}
