import workerSource from 'recursa:sandbox-worker';
import type { SandboxWorker } from '../core/sandbox/protocol';

/**
 * A sandbox worker in a Blob-URL Web Worker: desktop and mobile alike, never the app's window
 * (SES's lockdown there would freeze the intrinsics Obsidian and other plugins rely on).
 *
 * Memory: a Web Worker has no heap limit of its own, and cannot measure its heap —
 * `performance.memory` is not exposed in workers (and on the page covers the page's heap only),
 * `performance.measureUserAgentSpecificMemory` needs cross-origin isolation, which Obsidian's
 * `app://` page does not have. Measured in Chromium: a worker that fills its V8 heap (about 4 GB on
 * desktop) takes the whole renderer down with it, page included, with no event first. A doubling
 * string ends at the string length limit, a huge array or buffer at once, in a RangeError the code
 * sees; ArrayBuffers allocated bit by bit fail only when the system refuses memory (after 16 GB on
 * a 24 GB machine). What bounds a run here is what crosses `mem` (`maxArgChars`, the call and write
 * limits) and its time limit.
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
    onError: (listener) => {
      worker.addEventListener('error', (event: ErrorEvent) => listener(new Error(event.message || 'the sandbox worker failed')));
      // A message the page cannot deserialize would otherwise vanish, leaving its call unanswered.
      worker.addEventListener('messageerror', () => listener(new Error('the sandbox worker sent a message that could not be read')));
    },
    terminate: () => {
      worker.terminate();
      if (!revoked) URL.revokeObjectURL(url);
      revoked = true;
    },
  };
}
