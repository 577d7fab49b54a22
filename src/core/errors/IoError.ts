import { RecursaError } from './RecursaError';

/** A failure from below (the file system, the platform) that has no more specific error. */
export class IoError extends RecursaError {
  static readonly code = 'Io';
  readonly code = 'Io';

  constructor(operation: string, detail: string, path?: string) {
    super(`${operation} failed${path === undefined ? '' : ` for "${path}"`}: ${detail}`, {
      operation,
      detail,
      ...(path === undefined ? {} : { path }),
    });
  }
}
