import type * as Obsidian from 'obsidian';
import type { App } from './app';
import { Component } from './component';
import { setIcon } from './icons';
import type { PluginSettingTab } from './setting';
import type { ViewCreator } from './workspace';

/**
 * Obsidian's `Plugin`. Everything it adds — ribbon icons, status bar items, commands (ids
 * prefixed with the plugin's id), setting tabs, views, editor extensions — is taken away again
 * when it unloads. `loadData`/`saveData` read and write `data.json` in the plugin's folder
 * (`manifest.dir`) through the vault adapter, as JSON with two-space indentation.
 */
export abstract class Plugin
  extends Component
  implements Pick<Obsidian.Plugin, 'manifest' | 'addStatusBarItem' | 'removeCommand' | 'loadData' | 'registerEditorExtension'>
{
  app: App;
  manifest: Obsidian.PluginManifest;

  constructor(app: App, manifest: Obsidian.PluginManifest) {
    super();
    this.app = app;
    this.manifest = manifest;
  }

  /** As in Obsidian, a plugin's `onload` may return a promise, which is awaited. */
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the signature obsidian.d.ts gives Plugin.onload
  override onload(): Promise<void> | void {
    // Nothing by default.
  }

  /** Test-only: waits for what `onload` returned (Obsidian awaits a plugin's `onload`). */
  async whenLoaded(): Promise<void> {
    await this.onloadResult;
  }

  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.app.workspace.ribbonEl.createDiv({ cls: 'side-dock-ribbon-action clickable-icon', attr: { 'aria-label': title, role: 'button', tabindex: 0 } });
    setIcon(el, icon);
    el.addEventListener('click', (evt) => void callback(evt));
    this.register(() => el.detach());
    return el;
  }

  addStatusBarItem(): HTMLElement {
    const el = this.app.workspace.statusBarEl.createDiv(`status-bar-item plugin-${this.manifest.id}`);
    this.register(() => el.detach());
    return el;
  }

  addCommand(command: Obsidian.Command): Obsidian.Command {
    const added = { ...command, id: `${this.manifest.id}:${command.id}` };
    this.app.commands.add(added);
    this.register(() => this.app.commands.remove(added.id));
    return added;
  }

  removeCommand(commandId: string): void {
    this.app.commands.remove(`${this.manifest.id}:${commandId}`);
  }

  addSettingTab(settingTab: PluginSettingTab): void {
    this.app.setting.pluginTabs.push(settingTab);
    this.register(() => {
      const at = this.app.setting.pluginTabs.indexOf(settingTab);
      if (at >= 0) this.app.setting.pluginTabs.splice(at, 1);
    });
  }

  registerView(type: string, viewCreator: ViewCreator): void {
    this.app.workspace.registerView(type, viewCreator);
    this.register(() => this.app.workspace.unregisterView(type));
  }

  registerEditorExtension(extension: unknown): void {
    const list = this.app.workspace.editorExtensions;
    list.push(extension);
    this.register(() => {
      const at = list.indexOf(extension);
      if (at >= 0) list.splice(at, 1);
    });
  }

  async loadData(): Promise<unknown> {
    const path = `${this.pluginDir()}/data.json`;
    if (!(await this.app.vault.adapter.exists(path))) return null;
    return JSON.parse(await this.app.vault.adapter.read(path)) as unknown;
  }

  async saveData(data: unknown): Promise<void> {
    await this.app.vault.adapter.mkdir(this.pluginDir());
    await this.app.vault.adapter.write(`${this.pluginDir()}/data.json`, JSON.stringify(data, null, 2));
  }

  private pluginDir(): string {
    return this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
  }
}
