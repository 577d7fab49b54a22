import { describe, expect, it } from 'vitest';
import { ObjectWrites } from '../../../../src/core/git/objectWrites';
import { Slicer } from '../../../../src/core/util/Slicer';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('ObjectWrites', () => {
  it('settles with every write started, and starts afresh after', async () => {
    const writes = new ObjectWrites();
    const finished: string[] = [];
    await writes.start(() => later(10).then(() => void finished.push('slow')));
    await writes.start(() => Promise.resolve().then(() => void finished.push('quick')));
    await writes.settled();
    expect(finished.sort()).toEqual(['quick', 'slow']);
    await expect(writes.settled()).resolves.toBeUndefined();
  });

  it('runs no more than its limit at once, starting the next as one ends', async () => {
    const writes = new ObjectWrites(2);
    let running = 0;
    let most = 0;
    const write = (ms: number) => async (): Promise<void> => {
      running += 1;
      most = Math.max(most, running);
      await later(ms);
      running -= 1;
    };
    const order: number[] = [];
    for (const [at, ms] of [20, 5, 5, 5, 5].entries()) {
      await writes.start(write(ms));
      order.push(at);
    }
    await writes.settled();
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(running).toBe(0);
  });

  it('rejects with a failed write only once the others are done, and never leaves it unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const writes = new ObjectWrites();
      let slowDone = false;
      await writes.start(() => Promise.reject(new Error('disk full')));
      await writes.start(() => later(10).then(() => void (slowDone = true)));
      // Let the failure go unobserved by the caller for a while, as a commit still hashing would.
      await later(20);
      await expect(writes.settled()).rejects.toThrow('disk full');
      expect(slowDone).toBe(true);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('paces CPU-bound steps in its slicer\'s slices, handing the event loop back once a slice is used up', async () => {
    const slicer = new Slicer(0);
    const writes = new ObjectWrites(8, slicer);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    await writes.pace();
    expect(timerRan, 'a task queued before the pace ran during it').toBe(true);
    await writes.pace();
    expect(slicer.yields).toBe(2);
  });

  it('paces without a pause when it has no slicer', async () => {
    const writes = new ObjectWrites();
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    await writes.pace();
    expect(timerRan).toBe(false);
  });
});
