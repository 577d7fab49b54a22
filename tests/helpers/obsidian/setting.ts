import type * as Obsidian from 'obsidian';
import type { App } from './app';
import { setIcon, setTooltip } from './icons';

/** Obsidian's `BaseComponent`. */
export abstract class BaseComponent implements Obsidian.BaseComponent {
  disabled = false;

  then(cb: (component: this) => unknown): this {
    cb(this);
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
}

/** Obsidian's `ValueComponent`. */
export abstract class ValueComponent<T> extends BaseComponent implements Obsidian.ValueComponent<T> {
  registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
    listeners[key] = (value?: T) => {
      if (value !== undefined && value !== this.getValue()) this.setValue(value);
      return this.getValue();
    };
    return this;
  }

  abstract getValue(): T;
  abstract setValue(value: T): this;
}

/** Obsidian's `ButtonComponent`: a `<button>`; `setCta` marks the main action (`mod-cta`). */
export class ButtonComponent extends BaseComponent implements Obsidian.ButtonComponent {
  buttonEl: HTMLButtonElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.buttonEl.disabled = disabled;
    return this;
  }

  setCta(): this {
    this.buttonEl.addClass('mod-cta');
    return this;
  }

  removeCta(): this {
    this.buttonEl.removeClass('mod-cta');
    return this;
  }

  setWarning(): this {
    this.buttonEl.addClass('mod-warning');
    return this;
  }

  setDestructive(): this {
    this.buttonEl.addClass('mod-destructive');
    return this;
  }

  removeDestructive(): this {
    this.buttonEl.removeClass('mod-destructive');
    return this;
  }

  setTooltip(tooltip: string): this {
    setTooltip(this.buttonEl, tooltip);
    return this;
  }

  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }

  setIcon(icon: string): this {
    this.buttonEl.empty();
    setIcon(this.buttonEl, icon);
    return this;
  }

  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }

  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener('click', (evt) => void callback(evt));
    return this;
  }
}

/** Obsidian's `ExtraButtonComponent`: a small icon button (`clickable-icon`). */
export class ExtraButtonComponent extends BaseComponent implements Obsidian.ExtraButtonComponent {
  extraSettingsEl: HTMLElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.extraSettingsEl = containerEl.createDiv({ cls: 'clickable-icon extra-setting-button', attr: { role: 'button', tabindex: 0 } });
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.extraSettingsEl.toggleClass('is-disabled', disabled);
    return this;
  }

  setTooltip(tooltip: string): this {
    setTooltip(this.extraSettingsEl, tooltip);
    return this;
  }

  setIcon(icon: string): this {
    setIcon(this.extraSettingsEl, icon);
    return this;
  }

  onClick(callback: () => unknown): this {
    this.extraSettingsEl.addEventListener('click', () => {
      if (!this.disabled) void callback();
    });
    return this;
  }
}

/** Obsidian's `ToggleComponent`: a `.checkbox-container` holding a checkbox. */
export class ToggleComponent extends ValueComponent<boolean> implements Obsidian.ToggleComponent {
  toggleEl: HTMLElement;
  private readonly inputEl: HTMLInputElement;
  private changed: ((value: boolean) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv('checkbox-container');
    this.inputEl = this.toggleEl.createEl('input', { type: 'checkbox', attr: { tabindex: 0 } });
    this.inputEl.addEventListener('change', () => this.onClick());
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.inputEl.disabled = disabled;
    return this;
  }

  getValue(): boolean {
    return this.inputEl.checked;
  }

  setValue(on: boolean): this {
    this.inputEl.checked = on;
    this.toggleEl.toggleClass('is-enabled', on);
    return this;
  }

  setTooltip(tooltip: string): this {
    setTooltip(this.toggleEl, tooltip);
    return this;
  }

  onClick(): void {
    this.setValue(this.inputEl.checked);
    void this.changed?.(this.getValue());
  }

  onChange(callback: (value: boolean) => unknown): this {
    this.changed = callback;
    return this;
  }
}

/** Obsidian's `AbstractTextComponent`. */
export abstract class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> implements Obsidian.AbstractTextComponent<T> {
  inputEl: T;
  private changed: ((value: string) => unknown) | null = null;

  constructor(inputEl: T) {
    super();
    this.inputEl = inputEl;
    this.inputEl.addEventListener('input', () => this.onChanged());
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.inputEl.disabled = disabled;
    return this;
  }

  getValue(): string {
    return this.inputEl.value;
  }

  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }

  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }

  onChanged(): void {
    void this.changed?.(this.getValue());
  }

  onChange(callback: (value: string) => unknown): this {
    this.changed = callback;
    return this;
  }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> implements Obsidian.TextComponent {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text', attr: { spellcheck: 'false' } }));
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> implements Obsidian.TextAreaComponent {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea'));
  }
}

/** Obsidian's `DropdownComponent`: a `<select class="dropdown">`. */
export class DropdownComponent extends ValueComponent<string> implements Obsidian.DropdownComponent {
  selectEl: HTMLSelectElement;
  private changed: ((value: string) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl('select', 'dropdown');
    this.selectEl.addEventListener('change', () => void this.changed?.(this.getValue()));
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.selectEl.disabled = disabled;
    return this;
  }

  addOption(value: string, display: string): this {
    this.selectEl.createEl('option', { value, text: display });
    return this;
  }

  addOptions(options: Record<string, string>): this {
    for (const [value, display] of Object.entries(options)) this.addOption(value, display);
    return this;
  }

  getValue(): string {
    return this.selectEl.value;
  }

  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }

  onChange(callback: (value: string) => unknown): this {
    this.changed = callback;
    return this;
  }
}

/** Obsidian's `SliderComponent`: an `<input type="range" class="slider">`. */
export class SliderComponent extends ValueComponent<number> implements Obsidian.SliderComponent {
  sliderEl: HTMLInputElement;
  private changed: ((value: number) => unknown) | null = null;

  constructor(containerEl: HTMLElement) {
    super();
    this.sliderEl = containerEl.createEl('input', { type: 'range', cls: 'slider' });
    this.sliderEl.addEventListener('input', () => void this.changed?.(this.getValue()));
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.sliderEl.disabled = disabled;
    return this;
  }

  setDisplayFormat(): this {
    return this;
  }

  setInstant(): this {
    return this;
  }

  setLimits(min: number | null, max: number | null, step: number | 'any'): this {
    if (min !== null) this.sliderEl.min = String(min);
    if (max !== null) this.sliderEl.max = String(max);
    this.sliderEl.step = String(step);
    return this;
  }

  getValuePretty(): string {
    return String(this.getValue());
  }

  setDynamicTooltip(): this {
    return this;
  }

  showTooltip(): void {
    // The tooltip is the `aria-label`.
  }

  getValue(): number {
    return Number(this.sliderEl.value);
  }

  setValue(value: number): this {
    this.sliderEl.value = String(value);
    return this;
  }

  onChange(callback: (value: number) => unknown): this {
    this.changed = callback;
    return this;
  }
}

/**
 * Obsidian's `SecretComponent`: picks a secret of `app.secretStorage` by its id (the value is the
 * id, never the secret); typing a new id and a secret stores it there. Here: a select of the stored
 * ids, plus a text field for a new secret stored under the chosen id.
 */
export class SecretComponent extends BaseComponent {
  private readonly selectEl: HTMLSelectElement;
  private changed: ((value: string) => unknown) | null = null;

  constructor(
    private readonly app: App,
    containerEl: HTMLElement,
  ) {
    super();
    this.selectEl = containerEl.createEl('select', { cls: 'dropdown', attr: { 'aria-label': 'Secret' } });
    this.selectEl.createEl('option', { value: '', text: 'None' });
    for (const id of app.secretStorage.listSecrets()) this.selectEl.createEl('option', { value: id, text: id });
    this.selectEl.addEventListener('change', () => void this.changed?.(this.selectEl.value));
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.selectEl.disabled = disabled;
    return this;
  }

  setValue(value: string): this {
    if (value !== '' && !Array.from(this.selectEl.options).some((option) => option.value === value)) this.selectEl.createEl('option', { value, text: value });
    this.selectEl.value = value;
    return this;
  }

  onChange(cb: (value: string) => unknown): this {
    this.changed = cb;
    return this;
  }
}

/**
 * Obsidian's `Setting`: one `.setting-item` row with its name, description and controls. (Not
 * `implements`: the official methods return the official `Setting`; each signature matches it.)
 */
export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  components: Obsidian.BaseComponent[] = [];

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv('setting-item');
    this.infoEl = this.settingEl.createDiv('setting-item-info');
    this.nameEl = this.infoEl.createDiv('setting-item-name');
    this.descEl = this.infoEl.createDiv('setting-item-description');
    this.controlEl = this.settingEl.createDiv('setting-item-control');
  }

  setName(name: string | DocumentFragment): this {
    this.nameEl.setText(name);
    return this;
  }

  setDesc(desc: string | DocumentFragment): this {
    this.descEl.setText(desc);
    return this;
  }

  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }

  setTooltip(tooltip: string): this {
    setTooltip(this.nameEl, tooltip);
    return this;
  }

  setHeading(): this {
    this.settingEl.addClass('setting-item-heading');
    this.nameEl.setAttr('role', 'heading');
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass('is-disabled', disabled);
    for (const component of this.components) component.setDisabled(disabled);
    return this;
  }

  addButton(cb: (component: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }

  addExtraButton(cb: (component: ExtraButtonComponent) => unknown): this {
    return this.add(new ExtraButtonComponent(this.controlEl), cb);
  }

  addToggle(cb: (component: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }

  addText(cb: (component: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }

  addTextArea(cb: (component: TextAreaComponent) => unknown): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }

  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }

  addSlider(cb: (component: SliderComponent) => unknown): this {
    return this.add(new SliderComponent(this.controlEl), cb);
  }

  addComponent<T extends Obsidian.BaseComponent>(cb: (el: HTMLElement) => T): this {
    this.components.push(cb(this.controlEl));
    return this;
  }

  then(cb: (setting: this) => unknown): this {
    cb(this);
    return this;
  }

  clear(): this {
    this.controlEl.empty();
    this.components = [];
    return this;
  }

  private add<T extends Obsidian.BaseComponent>(component: T, cb: (component: T) => unknown): this {
    this.components.push(component);
    cb(component);
    return this;
  }
}

/** Obsidian's `PluginSettingTab`: `display` fills `containerEl` when the tab is shown, `hide` when left. */
export abstract class PluginSettingTab {
  icon = 'sliders-horizontal';
  containerEl: HTMLElement;

  constructor(
    readonly app: App,
    readonly plugin: { manifest: Obsidian.PluginManifest },
  ) {
    this.containerEl = createDiv('vertical-tab-content');
  }

  abstract display(): void;

  hide(): void {
    this.containerEl.empty();
  }
}

/**
 * Obsidian's `SecretStorage` (`app.secretStorage`): secrets by id, outside `data.json` and the vault.
 * Ids are lower-case letters, digits and dashes, as Obsidian requires.
 */
export class SecretStorage implements Pick<Obsidian.SecretStorage, 'setSecret' | 'getSecret' | 'listSecrets'> {
  private readonly secrets = new Map<string, string>();

  setSecret(id: string, secret: string): void {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new Error(`Invalid secret ID: ${id}`);
    this.secrets.set(id, secret);
  }

  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }

  listSecrets(): string[] {
    return [...this.secrets.keys()].sort();
  }
}
