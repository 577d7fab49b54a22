import { RecursaError } from './RecursaError';

/** The run this work belonged to ended (Stop, the time limit, a client cancelling): the work stopped with it. */
export class CancelledError extends RecursaError {
  static readonly code = 'Cancelled';
  readonly code = 'Cancelled';

  constructor(what = 'the work') {
    super(`The run ended, so ${what} was stopped before it finished. Nothing more is done for it; start a new run to try again.`, {});
  }
}

/** Throws a `CancelledError` when `signal` has aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted === true) throw new CancelledError(what);
}
