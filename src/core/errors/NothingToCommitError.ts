import { RecursaError } from './RecursaError';

/** `commitChanges` found no change by the agent to commit; no empty commit is made. */
export class NothingToCommitError extends RecursaError {
  static readonly code = 'NothingToCommit';
  readonly code = 'NothingToCommit';

  constructor() {
    super('Nothing to commit: no file written, renamed or deleted through mem differs from the last commit.', {});
  }
}
