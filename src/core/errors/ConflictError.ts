import { RecursaError } from './RecursaError';

/** Compare-and-swap failed: the file no longer holds the content the caller expected. */
export class ConflictError extends RecursaError {
  static readonly code = 'Conflict';
  readonly code = 'Conflict';

  constructor(path: string) {
    super(`"${path}" changed since it was read; nothing was written. Read it again and apply your change to the current content.`, { path });
  }
}
