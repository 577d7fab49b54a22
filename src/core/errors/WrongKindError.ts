import { RecursaError } from './RecursaError';

/** A file was given where a folder was needed, or the other way round. */
export class WrongKindError extends RecursaError {
  static readonly code = 'WrongKind';
  readonly code = 'WrongKind';

  constructor(path: string, expected: 'file' | 'folder') {
    super(`"${path}" is a ${expected === 'file' ? 'folder' : 'file'}, not a ${expected}.`, { path, expected });
  }
}
