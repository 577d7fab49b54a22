import type { App } from 'obsidian';

/** The part of Obsidian's settings window that opens a plugin's tab (present in every Obsidian, not in its typings). */
interface SettingsWindow {
  open(): void;
  openTabById(id: string): unknown;
}

/** Opens Obsidian's settings at the plugin's tab; false when this Obsidian cannot. */
export function openPluginSettings(app: App, pluginId: string): boolean {
  const setting = (app as unknown as { setting?: Partial<SettingsWindow> }).setting;
  if (typeof setting?.open !== 'function' || typeof setting.openTabById !== 'function') return false;
  setting.open();
  setting.openTabById(pluginId);
  return true;
}
