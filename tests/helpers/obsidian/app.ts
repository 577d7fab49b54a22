import type * as Obsidian from 'obsidian';
import { FileManager } from './fileManager';
import { Vault, type VaultLoadOptions } from './vault';

/** Obsidian's `App`, with the parts the plugin's vault code uses. */
export class App implements Pick<Obsidian.App, 'vault'> {
  readonly fileManager: FileManager;

  constructor(readonly vault: Vault) {
    this.fileManager = new FileManager(vault);
  }
}

/** An `App` over the existing folder `dir`, its vault indexed (see `Vault.load`). */
export async function createTestApp(dir: string, options?: VaultLoadOptions): Promise<App> {
  return new App(await Vault.load(dir, options));
}
