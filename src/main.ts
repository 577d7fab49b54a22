import { Plugin } from 'obsidian';
import { createMem, resolveMemOptions, type MemInstance } from './core/mem';
import { ObsidianVaultPort } from './obsidian/ObsidianVaultPort';

/** Wires the Obsidian adapters into core. The UI arrives in its own modules. */
export default class RecursaPlugin extends Plugin {
  private memInstance: MemInstance | null = null;

  override async onload(): Promise<void> {
    // Vault events fire for every file while Obsidian starts; wait until the layout is ready.
    this.app.workspace.onLayoutReady(() => {
      void this.startCore();
    });
  }

  /** The agent's `mem`, once the vault is ready; `null` before that. */
  get mem(): MemInstance['mem'] | null {
    return this.memInstance?.mem ?? null;
  }

  private async startCore(): Promise<void> {
    const port = new ObsidianVaultPort(this.app);
    const options = await resolveMemOptions(port, { configDir: this.app.vault.configDir });
    this.memInstance = createMem(port, options);
  }
}
