import { RecursaError } from './RecursaError';

/** An argument has the wrong type, shape or size. */
export class InvalidArgumentError extends RecursaError {
  static readonly code = 'InvalidArgument';
  readonly code = 'InvalidArgument';

  constructor(argument: string, expected: string, received: string) {
    super(`Argument "${argument}" must be ${expected}; got ${received}.`, { argument, expected, received });
  }
}
