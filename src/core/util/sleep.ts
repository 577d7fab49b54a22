/** Resolves after `ms` milliseconds, as a macrotask (so rendering and other timers get their turn). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
