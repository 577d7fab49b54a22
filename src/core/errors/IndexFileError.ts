import { RecursaError } from './RecursaError';

/** Why an index could not be read: damaged (`IndexCorrupt`) or valid but beyond this codec (`IndexUnsupported`). */
export class IndexFileError extends RecursaError {
  readonly code: 'IndexCorrupt' | 'IndexUnsupported';

  /** `advice` says what to do next; by default, what suits `code`. */
  constructor(code: 'IndexCorrupt' | 'IndexUnsupported', detail: string, data: Record<string, unknown> = {}, advice?: string) {
    const summary = code === 'IndexCorrupt' ? 'The git index is damaged' : 'The git index uses a feature Recursa does not support';
    const next =
      advice ??
      (code === 'IndexCorrupt'
        ? 'Delete .git/index and run `git reset` to rebuild it from the last commit (files are kept; staged changes become unstaged).'
        : 'Recursa leaves this index alone; git itself can still use it.');
    super(`${summary}: ${detail}. ${next}`, { detail, ...data });
    this.code = code;
  }
}
