import type { Setting, TextComponent } from 'obsidian';

/** One row of the settings tab: its name and description, and what it puts on the `Setting` it is given. */
export interface SettingRow {
  name: string;
  desc: string;
  /** Adds the row's control; what it returns is ignored. */
  render: (setting: Setting) => unknown;
}

export interface SettingSection {
  heading: string;
  rows: SettingRow[];
}

/** Marks a text field invalid with `message` in the description, or clears the mark (`null`). */
export function markInvalid(setting: Setting, text: TextComponent, message: string | null): void {
  text.inputEl.toggleClass('recursa-setting-invalid', message !== null);
  text.inputEl.setAttr('aria-invalid', message !== null);
  setting.descEl.toggleClass('recursa-setting-error', message !== null);
  if (message !== null) setting.setDesc(message);
}
