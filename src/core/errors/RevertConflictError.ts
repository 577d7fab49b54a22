import { RecursaError } from './RecursaError';

/** A commit cannot be reverted cleanly: later commits or uncommitted edits changed the same files. */
export class RevertConflictError extends RecursaError {
  static readonly code = 'RevertConflict';
  readonly code = 'RevertConflict';

  constructor(hash: string, paths: readonly string[], reason: string) {
    super(
      `Cannot revert ${hash.slice(0, 7)}: ${paths.map((path) => `"${path}"`).join(', ')} ${reason}. Nothing was changed.`,
      { hash, paths: [...paths] },
    );
  }
}
