import { RecursaError } from '../errors';

/** `ask` on a server that has no model configured. */
export class AgentUnavailableError extends RecursaError {
  static readonly code = 'AgentUnavailable';
  readonly code = 'AgentUnavailable';

  constructor(message: string) {
    super(message, {});
  }
}
