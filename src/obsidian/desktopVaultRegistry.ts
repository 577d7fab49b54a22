import { Platform } from 'obsidian';
import { createFileVaultRegistry } from '../core/memory/fileVaultRegistry';
import { fsRegistryFileSystem, type FsPromises, type PathModule } from '../core/memory/fsRegistryFileSystem';
import type { VaultRegistry } from '../core/ports';
import { desktopRequire } from './desktopRequire';

/**
 * The registry of vaults in the user's home folder (`~/.recursa/vaults.json`, the file the
 * command line uses too), over Electron's `fs`, `os` and `path`. Null on mobile, or wherever they
 * cannot be loaded: `recall({ scope: 'all' })` then searches this vault alone and says so.
 */
export function createDesktopVaultRegistry(): VaultRegistry | null {
  if (!Platform.isDesktopApp) return null;
  const load = desktopRequire();
  if (load === null) return null;
  try {
    const fs = (load('fs') as { promises?: FsPromises }).promises;
    const os = load('os') as { homedir?: () => string };
    const path = load('path') as PathModule;
    if (fs === undefined || typeof os.homedir !== 'function' || typeof path.join !== 'function') return null;
    return createFileVaultRegistry(fsRegistryFileSystem(fs, path, path.join(os.homedir(), '.recursa', 'vaults.json')));
  } catch {
    return null;
  }
}
