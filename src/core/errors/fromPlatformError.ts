import { AlreadyExistsError } from './AlreadyExistsError';
import { IoError } from './IoError';
import { NotFoundError } from './NotFoundError';
import { isRecursaError } from './RecursaError';
import { WrongKindError } from './WrongKindError';

/** The `code` of a platform error (`ENOENT`, …) when it has one; Obsidian's desktop adapter passes fs errors through. */
export function platformErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Whether a platform error means the path (or one of its parents) does not exist. */
export function isMissingPathError(error: unknown): boolean {
  const code = platformErrorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Turns an error from a port's platform (Node's fs, Obsidian's adapter) into the `RecursaError`
 * core expects, so both ports fail the same way: missing → NotFound, wrong kind → WrongKind,
 * taken → AlreadyExists, anything else → Io.
 */
export function fromPlatformError(operation: string, path: string, error: unknown): Error {
  if (isRecursaError(error)) return error;
  const code = platformErrorCode(error);
  // Listing a file, or making a folder where a file stands, is a kind mismatch, not a missing path.
  if ((operation === 'list' || operation === 'mkdir') && (code === 'ENOTDIR' || code === 'EEXIST')) {
    return new WrongKindError(path, 'folder');
  }
  if (isMissingPathError(error)) return new NotFoundError(path);
  if (code === 'EISDIR') return new WrongKindError(path, 'file');
  if (code === 'EEXIST') return new AlreadyExistsError(path);
  return new IoError(operation, error instanceof Error ? error.message : String(error), path);
}
