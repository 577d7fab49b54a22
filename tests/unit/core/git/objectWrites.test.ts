import { describe, expect, it } from 'vitest';
import { ObjectWrites } from '../../../../src/core/git/objectWrites';

describe('ObjectWrites', () => {
  it('settles with every write added, and starts afresh after', async () => {
    const writes = new ObjectWrites();
    const finished: string[] = [];
    writes.add(new Promise<void>((resolve) => setTimeout(() => (finished.push('slow'), resolve()), 10)));
    writes.add(Promise.resolve().then(() => void finished.push('quick')));
    await writes.settled();
    expect(finished.sort()).toEqual(['quick', 'slow']);
    await expect(writes.settled()).resolves.toBeUndefined();
  });

  it('rejects with a failed write only once the others are done, and never leaves it unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const writes = new ObjectWrites();
      let slowDone = false;
      writes.add(Promise.reject(new Error('disk full')));
      writes.add(new Promise<void>((resolve) => setTimeout(() => ((slowDone = true), resolve()), 10)));
      // Let the failure go unobserved by the caller for a while, as a commit still hashing would.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await expect(writes.settled()).rejects.toThrow('disk full');
      expect(slowDone).toBe(true);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
