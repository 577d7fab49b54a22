import { RecursaError } from './RecursaError';

/** Why the path policy refused a path; stable, for callers and tests to branch on. */
export type PathRule =
  | 'not-a-string'
  | 'empty'
  | 'too-long'
  | 'control-character'
  | 'invalid-unicode'
  | 'absolute'
  | 'drive-letter'
  | 'unc'
  | 'url'
  | 'traversal'
  | 'protected-folder'
  | 'forbidden-character'
  | 'reserved-name'
  | 'trailing-dot-or-space';

/** The path policy refused a path: it names the path and the rule it broke. */
export class PathRefusedError extends RecursaError {
  static readonly code = 'PathRefused';
  readonly code = 'PathRefused';

  constructor(path: string, rule: PathRule, explanation: string) {
    super(`Path ${JSON.stringify(path)} refused (${rule}): ${explanation}`, { path, rule });
  }
}
