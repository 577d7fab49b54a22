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

/** A number field for `addNumberField`: its range, and what to say when a value is outside it. */
export interface NumberField {
  min: number;
  max: number;
  value: number;
  /** Only whole numbers are valid (otherwise any finite number). */
  integer?: boolean;
  /** The description's text while the value is invalid. */
  invalid: string;
  /** Called with each valid value typed. */
  onValid: (value: number) => Promise<void>;
}

/** A number input on `setting` that marks values outside `min`–`max` invalid and passes the rest on. */
export function addNumberField(setting: Setting, field: NumberField): void {
  setting.addText((text) => {
    text.inputEl.type = 'number';
    text.inputEl.min = String(field.min);
    text.inputEl.max = String(field.max);
    text.setValue(String(field.value)).onChange(async (typed) => {
      const value = Number(typed);
      const whole = field.integer === true ? Number.isInteger(value) : Number.isFinite(value);
      const valid = typed.trim() !== '' && whole && value >= field.min && value <= field.max;
      markInvalid(setting, text, valid ? null : field.invalid);
      if (valid) await field.onValid(value);
    });
  });
}
