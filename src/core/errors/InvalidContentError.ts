import { RecursaError } from './RecursaError';

/** Why markdown content was refused; stable, for callers and tests to branch on. */
export type ContentRule =
  | 'frontmatter-unclosed'
  | 'frontmatter-yaml'
  | 'frontmatter-not-mapping'
  | 'logseq-outside-block'
  | 'logseq-indentation'
  | 'logseq-property-position';

/** Content for a `.md` file breaks a format rule; nothing was written. */
export class InvalidContentError extends RecursaError {
  static readonly code = 'InvalidContent';
  readonly code = 'InvalidContent';

  constructor(path: string, line: number, rule: ContentRule, explanation: string) {
    super(`Content for "${path}" refused, line ${line} (${rule}): ${explanation} Nothing was written.`, {
      path,
      line,
      rule,
    });
  }
}
