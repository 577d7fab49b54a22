import { RecursaError } from './RecursaError';

/** Why a call to an LLM provider failed, in the categories a user can act on. */
export type ProviderErrorKind =
  | 'auth'
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'unreachable'
  | 'model-not-found'
  | 'bad-request'
  | 'bad-response'
  | 'cancelled';

/** Facts about a provider failure beyond its kind; all optional, all plain. */
export type ProviderErrorDetails = {
  /** The HTTP status, when the server answered. */
  status?: number;
  /** The base URL the request went to. */
  url?: string;
  model?: string;
  /** `openai`, `anthropic`. */
  provider?: string;
  /** What the server said, shortened. */
  serverMessage?: string;
  /** How long the server asked us to wait (`retry-after`), in milliseconds. */
  retryAfterMs?: number;
  /** False when trying again cannot help (e.g. an exhausted quota reported as 429). */
  retryable?: boolean;
  /** How the transport failed (`unreachable`, `broken`, `timeout`), when it did. */
  transport?: string;
};

/**
 * A call to an LLM provider failed: the key was refused, the model is unknown, the server is down
 * or busy, the request timed out or was cancelled. `data.kind` says which; the message says what
 * to change (usually in Recursa's settings) or whether to simply try again.
 */
export class ProviderError extends RecursaError {
  static readonly code = 'Provider';
  readonly code = 'Provider';
  declare readonly data: ProviderErrorDetails & { kind: ProviderErrorKind; caller?: string };

  constructor(kind: ProviderErrorKind, message: string, details: ProviderErrorDetails = {}) {
    const data: Record<string, unknown> = { kind };
    for (const [key, value] of Object.entries(details)) if (value !== undefined) data[key] = value;
    super(message, data);
  }

  get kind(): ProviderErrorKind {
    return this.data.kind;
  }
}
