import { RecursaError } from './RecursaError';

/** Nothing exists at the path. */
export class NotFoundError extends RecursaError {
  static readonly code = 'NotFound';
  readonly code = 'NotFound';

  constructor(path: string) {
    super(`No file or folder at "${path}". Check the path with mem.listFiles or mem.fileExists.`, { path });
  }
}
