import { RecursaError } from './RecursaError';

/** The git layer cannot work on this vault right now; `reason` says why and what to do. */
export class GitUnavailableError extends RecursaError {
  static readonly code = 'GitUnavailable';
  readonly code = 'GitUnavailable';

  constructor(reason: string) {
    super(`Version history is unavailable: ${reason}`, { reason });
  }
}
