import { RecursaError } from '../errors';

/**
 * A call that writes, refused while the vault's writes are paused: in the plugin, while a chat
 * run's changes wait for the user to keep or undo them (review mode). Committing now would sweep
 * those changes into this call's commit.
 */
export class WritesPausedError extends RecursaError {
  static readonly code = 'WritesPaused';
  readonly code = 'WritesPaused';

  constructor(reason: string) {
    super(`${reason} Read-only tools (recall, search, read) still work; try the call again once that is done.`, { reason });
  }
}
