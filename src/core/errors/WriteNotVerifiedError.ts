import { RecursaError } from './RecursaError';

/** A write reported success but the file does not hold what was written. */
export class WriteNotVerifiedError extends RecursaError {
  static readonly code = 'WriteNotVerified';
  readonly code = 'WriteNotVerified';

  constructor(path: string) {
    super(`Writing "${path}" could not be verified: reading it back gave different content. The file may be in use by another program; try again.`, { path });
  }
}
