import { RecursaError } from './RecursaError';

/** Another git program holds a lock in `.git`; Recursa waited, then gave up without touching it. */
export class GitBusyError extends RecursaError {
  static readonly code = 'GitBusy';
  readonly code = 'GitBusy';

  constructor(lock: string, waitedMs: number) {
    super(
      `Another git program is using the repository: "${lock}" exists (waited ${waitedMs} ms). Try again when it is done; if no git program is running, delete that file.`,
      { lock, waitedMs },
    );
  }
}
