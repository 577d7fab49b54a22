import { isRecursaError } from '../errors';
import type { VaultPort } from './vault';

/** The file's text, or null when nothing (or a folder) is at the path. */
export async function readTextIfExists(vault: VaultPort, path: string): Promise<string | null> {
  try {
    return await vault.readText(path);
  } catch (error) {
    if (isRecursaError(error) && (error.code === 'NotFound' || error.code === 'WrongKind')) return null;
    throw error;
  }
}
