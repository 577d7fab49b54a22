import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../../../src/core/util/sleep';

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves once the time has passed, not before', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = sleep(1000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('resolves at once when its signal aborts, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await waiting;
    expect(vi.getTimerCount()).toBe(0);
    await sleep(60_000, controller.signal);
    expect(vi.getTimerCount()).toBe(0);
  });
});
