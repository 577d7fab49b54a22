import fs from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { createFileVaultRegistry } from '../core/memory/fileVaultRegistry';
import { fsRegistryFileSystem } from '../core/memory/fsRegistryFileSystem';
import type { VaultRegistry } from '../core/ports';

/** The registry file under a home folder: `<home>/.recursa/vaults.json`. */
export function registryFileIn(home: string): string {
  return path.join(home, '.recursa', 'vaults.json');
}

/**
 * The registry of vaults over Node's fs, in the user's home folder (`options.home`, default
 * `os.homedir()`).
 */
export function createNodeVaultRegistry(options: { home?: string } = {}): VaultRegistry {
  return createFileVaultRegistry(fsRegistryFileSystem(fs, path, registryFileIn(options.home ?? homedir())));
}
