import { isRecursaError } from '../errors';

/** How a run ended that did not complete. */
export type StoppedState = 'failed' | 'timed-out' | 'cancelled';

/** Thrown inside a run to end it in `state`, with `message` for the user. */
export class RunStopped extends Error {
  constructor(readonly state: StoppedState, message: string) {
    super(message);
  }
}

/**
 * Stop handling of one run: its wall-time budget and the caller's signal both abort the model call
 * and the code in flight at once, and the loop stops at its next check.
 */
export class RunControl {
  private readonly controller = new AbortController();
  private readonly started = Date.now();
  private reason: 'timed-out' | 'cancelled' | null = null;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort = (): void => this.stop('cancelled');

  constructor(
    private readonly timeMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal?.aborted === true) this.stop('cancelled');
    signal?.addEventListener('abort', this.onAbort);
    this.timer = setTimeout(() => this.stop('timed-out'), timeMs);
  }

  /** Aborted when the run is stopped: for the model call and the code it runs. */
  get abortSignal(): AbortSignal {
    return this.controller.signal;
  }

  /** Wall time left of the budget. */
  remainingMs(): number {
    return this.timeMs - (Date.now() - this.started);
  }

  /** Ends the run if it was cancelled or ran out of time. */
  check(): void {
    if (this.reason === 'cancelled') throw new RunStopped('cancelled', 'The run was cancelled.');
    if (this.reason === 'timed-out') throw new RunStopped('timed-out', `The run went over its time budget of ${Math.round(this.timeMs / 1000)} s.`);
  }

  /** How a failure ends the run: a stop says so itself; anything else fails it, unless the run was stopped meanwhile. */
  endingOf(failure: unknown): { state: StoppedState; error: string } {
    if (failure instanceof RunStopped) return { state: failure.state, error: failure.message };
    return { state: this.reason ?? 'failed', error: isRecursaError(failure) || failure instanceof Error ? failure.message : String(failure) };
  }

  /** Stops the timer and lets go of the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private stop(reason: 'timed-out' | 'cancelled'): void {
    this.reason ??= reason;
    this.controller.abort();
  }
}
