import workerSource from 'recursa:sandbox-worker';
import type { SandboxWorker } from '../core/sandbox/protocol';

/**
 * A sandbox worker in a Blob-URL Web Worker: desktop and mobile alike, never the app's window
 * (SES's lockdown there would freeze the intrinsics Obsidian and other plugins rely on).
 */
export function createBrowserSandboxWorker(): SandboxWorker {
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  const worker = new Worker(url, { name: 'recursa-sandbox' });
  let revoked = false;
  return {
    postMessage: (message) => worker.postMessage(message),
    onMessage: (listener) =>
      worker.addEventListener('message', (event: MessageEvent<unknown>) => {
        if (!revoked) {
          revoked = true;
          URL.revokeObjectURL(url);
        }
        listener(event.data);
      }),
    onError: (listener) => worker.addEventListener('error', (event: ErrorEvent) => listener(new Error(event.message || 'the sandbox worker failed'))),
    terminate: () => {
      worker.terminate();
      if (!revoked) URL.revokeObjectURL(url);
      revoked = true;
    },
  };
}
