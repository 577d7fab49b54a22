/**
 * Runs `action` and returns the error it throws, which must be an instance of `type`; anything
 * else thrown, or nothing thrown, fails the test.
 */
export function thrownBy<E extends Error>(action: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    action();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}, but nothing was thrown`);
}

/** Joins lines with `\n`, so an example shows one line per argument (tabs written `\t`). */
export function lines(...parts: string[]): string {
  return parts.join('\n');
}

/** `thrownBy` for async actions: awaits `action` and returns the error it rejects with. */
export async function rejectionOf<E extends Error>(action: () => Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await action();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}, but nothing was thrown`);
}
