import { RecursaError } from './RecursaError';

/**
 * Restoring files the agent touched would overwrite changes someone else made to them since the
 * agent wrote them. Nothing was restored.
 */
export class UserEditsError extends RecursaError {
  static readonly code = 'UserEdits';
  readonly code = 'UserEdits';

  constructor(operation: string, paths: readonly string[]) {
    super(
      `${operation} stopped: ${paths.map((path) => `"${path}"`).join(', ')} changed since the agent last wrote ${paths.length === 1 ? 'it' : 'them'} (edited by the user or another program). Nothing was restored; those edits are kept.`,
      { operation, paths: [...paths] },
    );
  }
}
