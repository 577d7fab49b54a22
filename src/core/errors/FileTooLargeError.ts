import { RecursaError } from './RecursaError';

/** A file is over the size that may be read into memory at once. */
export class FileTooLargeError extends RecursaError {
  static readonly code = 'FileTooLarge';
  readonly code = 'FileTooLarge';

  constructor(path: string, size: number, limit: number) {
    super(`"${path}" is ${size} bytes, over the ${limit}-byte limit for reading a file whole. Read a smaller file, or search it instead.`, { path, size, limit });
  }
}
