import { throwIfCancelled, WriteLimitError } from '../errors';
import { Slicer } from '../util/Slicer';

/**
 * What one sandbox run gives the `mem` calls it makes: the run's lifetime and its write budget.
 * `MemInstance.forRun(scope)` binds `mem` to it; the model's `Mem` type does not change.
 */
export interface RunScope {
  /**
   * Aborted when the run ends, for any reason (done, Stop, the time limit, a crash). Host work of
   * calls still in flight then stops with `Cancelled` at its next check: before each vault
   * operation, and between the slices of long queries and counts.
   */
  readonly signal: AbortSignal;
  /** The bytes the run may write to disk, all `mem` methods together; unlimited when absent. */
  readonly writeBudget?: WriteBudget;
}

/**
 * Bytes one run may write to the vault's files. Every file write counts whole: a `replaceInFile`
 * of one word in a 1 MB note costs 1 MB. Creating folders, renaming, moving and deleting write no
 * content and cost nothing; restores by `discardChanges`, `revertToLastCheckpoint` and
 * `revertCommit` are not counted either — they put back content the history already holds.
 */
export class WriteBudget {
  private written = 0;

  /** @param onExceeded told of a write the budget refused (the sandbox stops the run with it). */
  constructor(
    readonly limit: number,
    private readonly onExceeded?: (error: WriteLimitError) => void,
  ) {}

  /** Bytes written so far. */
  get bytesWritten(): number {
    return this.written;
  }

  /**
   * Takes `bytes` for a write to `path`, before it is done. Throws `WriteLimitError` — taking
   * nothing, so the write must not happen — when they would take the run past the limit.
   */
  spend(path: string, bytes: number): void {
    if (this.written + bytes > this.limit) {
      const error = new WriteLimitError(path, bytes, this.written, this.limit);
      this.onExceeded?.(error);
      throw error;
    }
    this.written += bytes;
  }
}

/** How long host work runs between checks of the run's signal (and turns for the event loop). */
export const RUN_SLICE_MS = 20;

/**
 * A `Slicer` for host work of a run: between slices it checks `signal` and throws `Cancelled` once
 * the run has ended. (The abort can only be seen after yielding: it arrives as an event.)
 */
export function runSlicer(signal: AbortSignal | undefined, what?: string): Slicer {
  return new Slicer(RUN_SLICE_MS, signal === undefined ? undefined : () => {
    throwIfCancelled(signal, what);
    return Promise.resolve();
  });
}
