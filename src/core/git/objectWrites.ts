import { settleAll } from '../util/settleAll';
import type { Slicer } from '../util/Slicer';

/** Writes under way at once: a commit's few objects all together, a first snapshot's trees a few at a time. */
const DEFAULT_LIMIT = 8;

/**
 * Object writes started together and waited for together. A commit's trees and its commit need
 * each other's ids, which hashing gives at once, not each other's files: their writes can be
 * under way while the next object is hashed and the index is serialized, and only deciding the
 * update (so the branch can move) must wait for every one of them (`settled`). At most `limit`
 * run at once, so a commit of thousands of trees neither holds their bytes all at once nor lets
 * their continuations pile up into one long task. With a `slicer`, each write's compression waits
 * its turn in the slices (`pace`): the writes' continuations run one after another in the same
 * task when their looks resolve at once, and a snapshot's large trees, compressed together, held a
 * phone's main thread for over 100 ms.
 */
export class ObjectWrites {
  private readonly started: Promise<void>[] = [];
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit = DEFAULT_LIMIT,
    private readonly slicer?: Slicer,
  ) {}

  /** Before a write's CPU-bound step: hands the event loop back once the slice's time is used up. */
  async pace(): Promise<void> {
    await this.slicer?.maybeYield();
  }

  /** Starts `write` once fewer than `limit` writes are under way; resolves when it has started. */
  async start(write: () => Promise<void>): Promise<void> {
    while (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    const running = write().finally(() => {
      this.running -= 1;
      this.waiting.shift()?.();
    });
    // Observed here so that a failure is never unhandled; `settled` still rejects with it.
    running.catch(() => undefined);
    this.started.push(running);
  }

  /** Resolves once every write started so far is done; rejects, once all are done, with the first failure. */
  settled(): Promise<void> {
    return settleAll(this.started.splice(0));
  }
}
