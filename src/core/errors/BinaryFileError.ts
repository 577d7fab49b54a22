import { RecursaError } from './RecursaError';

/** Text was asked of a file that is not UTF-8 text. */
export class BinaryFileError extends RecursaError {
  static readonly code = 'BinaryFile';
  readonly code = 'BinaryFile';

  constructor(path: string, size: number) {
    super(`"${path}" is a binary file (${size} bytes), not text; it cannot be read as a string.`, { path, size });
  }
}
