import { RecursaError } from './RecursaError';

/**
 * Undoing a change (a commit, the agent's uncommitted work, a checkpoint) would overwrite other
 * changes to the same lines or files; nothing was changed.
 */
export class RevertConflictError extends RecursaError {
  static readonly code = 'RevertConflict';
  readonly code = 'RevertConflict';

  /** `subject`: the commit's hash, or the operation (`discardChanges`, `revertToLastCheckpoint`). */
  constructor(subject: string, paths: readonly string[], reason: string) {
    const isHash = /^[0-9a-f]{40}$/.test(subject);
    super(
      `Cannot ${isHash ? `revert ${subject.slice(0, 7)}` : `${subject}`}: ${paths.map((path) => `"${path}"`).join(', ')} ${reason}. Nothing was changed.`,
      isHash ? { hash: subject, paths: [...paths] } : { operation: subject, paths: [...paths] },
    );
  }
}
