import { describe, expect, it } from 'vitest';
import { settleAll } from '../../../../src/core/util/settleAll';

/** A promise and the functions that settle it, for ordering settlements by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('settleAll', () => {
  it('resolves once every promise has', async () => {
    const a = deferred();
    const b = deferred();
    let done = false;
    const all = settleAll([a.promise, b.promise]).then(() => (done = true));
    a.resolve();
    await Promise.resolve();
    expect(done).toBe(false);
    b.resolve();
    await all;
    expect(done).toBe(true);
  });

  it('waits for the others after a failure before rejecting, with the first failure in the order given', async () => {
    const slow = deferred();
    const second = deferred();
    const third = deferred();
    let settled = false;
    const all = settleAll([slow.promise, second.promise, third.promise]).finally(() => (settled = true));
    third.reject(new Error('third'));
    second.reject(new Error('second'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
    slow.resolve();
    await expect(all).rejects.toThrow('second');
  });
});
