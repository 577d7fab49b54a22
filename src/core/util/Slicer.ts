import { sleep } from './sleep';

/**
 * Cuts long work into slices so the app stays responsive: `maybeYield()` hands the event loop
 * back (a macrotask, so rendering and timers run) once `budgetMs` of work has passed since the
 * last yield. Awaiting I/O is not enough on its own: cached reads resolve as microtasks.
 */
export class Slicer {
  private sliceStart = Date.now();
  /** Number of times work was paused; for progress reports and tests. */
  yields = 0;

  /**
   * @param giveWay resolves when more urgent work (a commit the user waits for) is done: the pause
   *   between slices lasts until then, so background work never slows the foreground.
   */
  constructor(
    private readonly budgetMs = 30,
    private readonly giveWay?: () => Promise<void>,
  ) {}

  async maybeYield(): Promise<boolean> {
    if (Date.now() - this.sliceStart < this.budgetMs) return false;
    await sleep(0);
    await this.giveWay?.();
    this.yields++;
    this.sliceStart = Date.now();
    return true;
  }
}
