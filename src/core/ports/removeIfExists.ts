import { isRecursaError } from '../errors';
import type { VaultPort } from './vault';

/** Removes the path if something is there; someone removing it first (another process) is fine. */
export async function removeIfExists(vault: VaultPort, path: string): Promise<void> {
  await vault.remove(path).catch((error: unknown) => {
    if (!(isRecursaError(error) && error.code === 'NotFound')) throw error;
  });
}
