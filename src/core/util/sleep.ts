/**
 * Resolves after `ms` milliseconds, as a macrotask (so rendering and other timers get their turn),
 * or at once when `signal` aborts (the timer then cleared, so nothing keeps a process alive).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
