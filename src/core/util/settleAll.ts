/**
 * Waits for every one of `promises`, then rejects with the first failure among them (in the order
 * given), if any. Unlike `Promise.all`, nothing is still running once it settles, so the caller's
 * clean-up (removing a lock, say) cannot race a write still under way.
 */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const outcomes = await Promise.allSettled(promises);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
}
