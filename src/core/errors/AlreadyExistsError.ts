import { RecursaError } from './RecursaError';

/** The destination of a create or rename is taken. */
export class AlreadyExistsError extends RecursaError {
  static readonly code = 'AlreadyExists';
  readonly code = 'AlreadyExists';

  constructor(path: string) {
    super(`"${path}" already exists. Choose another path, or delete it first if replacing it is intended.`, { path });
  }
}
