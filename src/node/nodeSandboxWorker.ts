import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import workerSource from 'recursa:sandbox-worker';
import type { SandboxWorker } from '../core/sandbox/protocol';

// "use strict" must come first for SES; the channel must exist before the worker script runs.
const PRELUDE = `"use strict";
const { parentPort } = require('node:worker_threads');
globalThis.__recursaChannel = { post: (message) => parentPort.postMessage(message), listen: (listener) => parentPort.on('message', listener) };
`;

export interface NodeSandboxWorkerOptions {
  /**
   * Heap limit of the worker; beyond its heap, the worker may add about as much again (ArrayBuffer
   * contents) before it is stopped. Default 256 MB.
   */
  maxMemoryMb?: number;
}

const WATCH_INTERVAL_MS = 25;

/**
 * What a worker holds outside its V8 heap (ArrayBuffer contents), which `resourceLimits` does not
 * cover and Node 20 cannot report per thread. The process's resident size is what is left, and it
 * also grows with what this thread's isolate allocates (a 50 MB note read for the index, a big
 * `mem` result): that growth — heap and external memory, ArrayBuffers included, as
 * `process.memoryUsage()` reports them for the calling thread's isolate — is taken off, at its
 * highest since the worker started, since memory freed is not always given back to the system.
 * Other threads of the process (another sandbox worker, say) are still charged to this one.
 */
class OffHeapMeter {
  private rssFloor = process.memoryUsage.rss();
  private hostAtFloor = hostBytes();
  private hostPeak = this.hostAtFloor;

  constructor(private readonly limitBytes: number) {}

  /** Notes the host's own memory now; call it where the host may hold a lot briefly. */
  sample(): number {
    const host = hostBytes();
    this.hostPeak = Math.max(this.hostPeak, host);
    return host;
  }

  overLimit(): boolean {
    const host = this.sample();
    const rss = process.memoryUsage.rss();
    if (rss < this.rssFloor) {
      this.rssFloor = rss;
      this.hostAtFloor = host;
      this.hostPeak = host;
    }
    return rss - this.rssFloor - Math.max(0, this.hostPeak - this.hostAtFloor) > this.limitBytes;
  }
}

/**
 * Memory of this thread's isolate: its V8 heap and what it holds outside it (ArrayBuffers
 * included). The heap statistics say it without `process.memoryUsage()`'s read of the resident
 * size from the system, which cost a tenth of a millisecond on every message.
 */
function hostBytes(): number {
  const heap = getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
}

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
  const overLimit = (): Error & { code: string } =>
    Object.assign(new Error(`the code used more than the memory limit of ${maxMemoryMb} MB`), { code: 'MemoryLimit' });
  const meter = new OffHeapMeter(2 * maxMemoryMb * 1024 * 1024);
  const check = (): void => {
    if (!meter.overLimit()) return;
    clearInterval(watch);
    void worker.terminate();
    fail(overLimit());
  };
  const watch = setInterval(check, WATCH_INTERVAL_MS);
  watch.unref();
  worker.on('error', (error: Error & { code?: string }) => {
    fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? overLimit() : error);
  });
  // A message the host cannot deserialize would otherwise vanish, leaving its call unanswered.
  worker.on('messageerror', (error) => fail(error));
  worker.on('exit', (code) => {
    clearInterval(watch);
    fail(new Error(`the worker exited (code ${code})`));
  });
  // What the host holds for a call (a note read, a result about to be sent) is counted as the host's.
  worker.on('message', () => meter.sample());
  return {
    postMessage: (message) => {
      meter.sample();
      worker.postMessage(message);
    },
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => failures.push(listener),
    terminate: () => {
      clearInterval(watch);
      void worker.terminate();
    },
  };
}
