import { RecursaError } from './RecursaError';

/** `commitChanges` found no change by the agent to commit; no empty commit is made. */
export class NothingToCommitError extends RecursaError {
  static readonly code = 'NothingToCommit';
  readonly code = 'NothingToCommit';

  /** `ignored`: paths the agent changed that the vault's ignore rules keep out of history. */
  constructor(ignored: readonly string[] = []) {
    super(
      ignored.length === 0
        ? 'Nothing to commit: no file written, renamed or deleted through mem differs from the last commit.'
        : `Nothing to commit: ${ignored.map((path) => `"${path}"`).join(', ')} ${ignored.length === 1 ? 'is' : 'are'} ignored by the vault's .gitignore, so ${ignored.length === 1 ? 'it stays' : 'they stay'} out of history; no other file changed.`,
      { ignored: [...ignored] },
    );
  }
}
