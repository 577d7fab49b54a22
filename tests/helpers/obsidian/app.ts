import type * as Obsidian from 'obsidian';
import { FileManager } from './fileManager';
import type { PluginSettingTab } from './setting';
import { SecretStorage } from './setting';
import { Vault, type VaultLoadOptions } from './vault';
import { Workspace } from './workspace';

/** Test-only: the app's command registry (Obsidian keeps one; the public API only adds to it). */
export class Commands {
  readonly commands: Record<string, Obsidian.Command> = {};

  add(command: Obsidian.Command): void {
    this.commands[command.id] = command;
  }

  remove(id: string): void {
    delete this.commands[id];
  }

  /** Runs the command as the palette does: `checkCallback(false)` or `callback`; false when there is none or it is unavailable. */
  executeCommandById(id: string): boolean {
    const command = this.commands[id];
    if (command === undefined) return false;
    if (command.checkCallback !== undefined) return command.checkCallback(false) !== false;
    if (command.callback === undefined) return false;
    void command.callback();
    return true;
  }
}

/**
 * Test-only: Obsidian's settings window, as far as a plugin reaches into it (`open`, `openTabById`,
 * which every Obsidian has but its typings do not). It records what was opened instead of drawing.
 */
export class SettingWindow {
  readonly pluginTabs: PluginSettingTab[] = [];
  /** The tab `openTabById` was last given while the window was open; null while it is closed. */
  openedTab: string | null = null;
  private isOpen = false;

  open(): void {
    this.isOpen = true;
  }

  openTabById(id: string): void {
    if (this.isOpen) this.openedTab = id;
  }

  close(): void {
    this.isOpen = false;
    this.openedTab = null;
  }
}

/**
 * Obsidian's `App`, with the parts the plugin uses. The workspace (which needs a DOM) is made on
 * first use, so vault-only tests run in Node.
 */
export class App implements Pick<Obsidian.App, 'vault' | 'isDarkMode'> {
  readonly fileManager: FileManager;
  readonly secretStorage = new SecretStorage();
  /** Test-only: Obsidian's command registry. */
  readonly commands = new Commands();
  /** Test-only: the settings window (its plugin tabs, and which tab was last opened). */
  readonly setting = new SettingWindow();
  private workspaceInstance: Workspace | null = null;

  constructor(readonly vault: Vault) {
    this.fileManager = new FileManager(vault);
  }

  get workspace(): Workspace {
    return (this.workspaceInstance ??= new Workspace(this));
  }

  isDarkMode(): boolean {
    return document.body.classList.contains('theme-dark');
  }
}

/** An `App` over the existing folder `dir`, its vault indexed (see `Vault.load`). */
export async function createTestApp(dir: string, options?: VaultLoadOptions): Promise<App> {
  return new App(await Vault.load(dir, options));
}
