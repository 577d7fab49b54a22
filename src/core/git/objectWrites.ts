import { settleAll } from '../util/settleAll';

/**
 * Object writes started together and waited for together. A commit's trees and its commit need
 * each other's ids, which hashing gives at once, not each other's files: their writes can all be
 * under way while the next object is hashed and the index is serialized, and only moving the
 * branch must wait for every one of them (`settled`).
 */
export class ObjectWrites {
  private readonly started: Promise<void>[] = [];

  add(write: Promise<void>): void {
    // Observed here so that a failure is never unhandled; `settled` still rejects with it.
    write.catch(() => undefined);
    this.started.push(write);
  }

  /** Resolves once every write added so far is done; rejects, once all are done, with the first failure. */
  settled(): Promise<void> {
    return settleAll(this.started.splice(0));
  }
}
