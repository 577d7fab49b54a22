/** Structured facts about an error, kept plain so they survive `structuredClone` and JSON. */
export type ErrorData = Record<string, unknown> & { caller?: string };

/** What a `RecursaError` looks like after `toJSON()`, e.g. on the far side of a Worker. */
export interface SerializedRecursaError {
  name: string;
  code: string;
  message: string;
  data: ErrorData;
}

/**
 * Base of every error Recursa raises on purpose. `code` is stable and what callers and tests
 * branch on; `message` says what happened and what to do, for a person or a model to read.
 */
export abstract class RecursaError extends Error {
  abstract readonly code: string;
  readonly data: ErrorData;

  protected constructor(message: string, data: ErrorData) {
    super(message);
    this.name = new.target.name;
    this.data = data;
  }

  /** The `mem.<name>` (or other entry point) that raised the error, once it is known. */
  get caller(): string | undefined {
    return this.data.caller;
  }

  toJSON(): SerializedRecursaError {
    return { name: this.name, code: this.code, message: this.message, data: { ...this.data } };
  }
}

export function isRecursaError(value: unknown): value is RecursaError {
  return value instanceof RecursaError;
}
