import { RecursaError } from '../errors/RecursaError';

/** Why a sync failed (`GitBusy` here: another program moved the branch meanwhile; a held lock is a `GitBusyError`). */
export type SyncErrorCode = 'AuthFailed' | 'Unreachable' | 'Rejected' | 'Conflict' | 'GitBusy';

/**
 * A sync that could not finish. Nothing half-done is left: the branch and the work tree agree, and
 * running the sync again is safe. The message never holds credentials.
 */
export class SyncError extends RecursaError {
  readonly code: SyncErrorCode;

  constructor(code: SyncErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message, data);
    this.code = code;
  }
}
