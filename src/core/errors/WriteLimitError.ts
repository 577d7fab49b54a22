import { RecursaError } from './RecursaError';

/** A write would have taken a run past the bytes it may write to disk; it was not done. */
export class WriteLimitError extends RecursaError {
  static readonly code = 'WriteLimit';
  readonly code = 'WriteLimit';

  constructor(path: string, bytes: number, written: number, limit: number) {
    super(
      `Writing ${bytes} bytes to "${path}" would take this run past its limit of ${limit} bytes written to disk (${written} written so far); "${path}" was not written and the run was stopped. Write less per run: change notes with small edits to small files, and finish the rest in the next run.`,
      { path, bytes, written, limit },
    );
  }
}
