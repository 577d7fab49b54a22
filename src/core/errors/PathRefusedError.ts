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
  | 'trailing-dot-or-space'
  | 'unlinkable-character'
  | 'protected-file'
  | 'link-outside'
  | 'link-loop';

const MAX_SHOWN = 200;

/** The path policy refused a path: it names the path and the rule it broke. */
export class PathRefusedError extends RecursaError {
  static readonly code = 'PathRefused';
  readonly code = 'PathRefused';

  constructor(path: string, rule: PathRule, explanation: string) {
    // A refused path may be hostile and huge: the error quotes only its start.
    const shown = path.length > MAX_SHOWN ? `${path.slice(0, MAX_SHOWN)}…` : path;
    super(`Path ${JSON.stringify(shown)} refused (${rule}): ${explanation}`, { path, rule });
  }
}
