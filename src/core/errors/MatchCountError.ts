import { RecursaError } from './RecursaError';

/** A replace expected exactly one occurrence of the search text and found another number. */
export class MatchCountError extends RecursaError {
  static readonly code = 'MatchCount';
  readonly code = 'MatchCount';

  constructor(path: string, count: number) {
    super(
      count === 0
        ? `The search text does not occur in "${path}"; nothing was replaced. Read the file and copy the text exactly.`
        : `The search text occurs ${count} times in "${path}"; nothing was replaced. Include more surrounding text so it matches exactly once.`,
      { path, count },
    );
  }
}
