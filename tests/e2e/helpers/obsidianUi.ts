// The slice of the `obsidian` module the plugin's settings tab and history view use, for a page
// in headless Chromium (esbuild aliases `obsidian` to this file). Each class draws the DOM
// Obsidian draws (its class names, buttons, inputs), so the plugin's code runs unchanged and the
// test drives it as a person would: clicking, typing, choosing.
import './obsidianDomHelpers';

export interface TestApp {
  secretStorage: { getSecret(id: string): string | null; setSecret(id: string, secret: string): void; listSecrets(): string[] };
  workspace: { openLinkText(link: string, source: string, newLeaf?: boolean): Promise<void>; opened: string[] };
}

/** The notices shown, newest last (tests read them). */
export const notices: string[] = [];

export class Notice {
  noticeEl: HTMLElement;
  constructor(message: string | DocumentFragment, _duration?: number) {
    const text = typeof message === 'string' ? message : (message.textContent ?? '');
    notices.push(text);
    this.noticeEl = createDiv({ cls: 'notice', text });
    (document.querySelector('.notice-container') ?? document.body.createDiv({ cls: 'notice-container' })).appendChild(this.noticeEl);
  }
  hide(): void {
    this.noticeEl.remove();
  }
}

export abstract class BaseComponent {
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

export class ButtonComponent extends BaseComponent {
  buttonEl: HTMLButtonElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
  }
  override setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    this.buttonEl.disabled = disabled;
    return this;
  }
  setCta(): this {
    this.buttonEl.addClass('mod-cta');
    return this;
  }
  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }
  setIcon(icon: string): this {
    this.buttonEl.setAttr('data-icon', icon);
    return this;
  }
  setTooltip(tooltip: string): this {
    this.buttonEl.setAttr('aria-label', tooltip);
    return this;
  }
  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener('click', (evt) => void callback(evt));
    return this;
  }
}

export class ExtraButtonComponent extends BaseComponent {
  extraSettingsEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.extraSettingsEl = containerEl.createDiv({ cls: 'clickable-icon extra-setting-button', attr: { tabindex: 0, role: 'button' } });
  }
  setIcon(icon: string): this {
    this.extraSettingsEl.setAttr('data-icon', icon);
    return this;
  }
  setTooltip(tooltip: string): this {
    this.extraSettingsEl.setAttr('aria-label', tooltip);
    return this;
  }
  onClick(callback: () => unknown): this {
    this.extraSettingsEl.addEventListener('click', () => void callback());
    return this;
  }
}

abstract class ValueComponent<T> extends BaseComponent {
  abstract getValue(): T;
  abstract setValue(value: T): this;
}

class AbstractTextComponent<E extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  constructor(readonly inputEl: E) {
    super();
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
  onChange(callback: (value: string) => unknown): this {
    this.inputEl.addEventListener('input', () => void callback(this.inputEl.value));
    return this;
  }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text' }));
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea'));
  }
}

export class DropdownComponent extends ValueComponent<string> {
  selectEl: HTMLSelectElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl('select', { cls: 'dropdown' });
  }
  addOption(value: string, display: string): this {
    this.selectEl.createEl('option', { value, text: display });
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
    this.selectEl.addEventListener('change', () => void callback(this.selectEl.value));
    return this;
  }
}

export class ToggleComponent extends ValueComponent<boolean> {
  toggleEl: HTMLInputElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createEl('input', { type: 'checkbox', cls: 'checkbox-container' });
  }
  getValue(): boolean {
    return this.toggleEl.checked;
  }
  setValue(on: boolean): this {
    this.toggleEl.checked = on;
    return this;
  }
  onChange(callback: (value: boolean) => unknown): this {
    this.toggleEl.addEventListener('change', () => void callback(this.toggleEl.checked));
    return this;
  }
}

/** Obsidian's keychain picker: a dropdown of secret ids plus a way to store a new secret. */
export class SecretComponent extends BaseComponent {
  private readonly selectEl: HTMLSelectElement;
  private readonly listeners: ((value: string) => unknown)[] = [];
  constructor(
    private readonly app: TestApp,
    containerEl: HTMLElement,
  ) {
    super();
    const wrap = containerEl.createDiv({ cls: 'secret-component' });
    this.selectEl = wrap.createEl('select', { cls: 'dropdown', attr: { 'aria-label': 'Secret' } });
    const idEl = wrap.createEl('input', { type: 'text', cls: 'secret-new-id', attr: { 'aria-label': 'New secret name' } });
    const valueEl = wrap.createEl('input', { type: 'password', cls: 'secret-new-value', attr: { 'aria-label': 'New secret value' } });
    const save = wrap.createEl('button', { cls: 'secret-save', text: 'Save secret' });
    save.addEventListener('click', () => {
      this.app.secretStorage.setSecret(idEl.value, valueEl.value);
      valueEl.value = '';
      this.fill(idEl.value);
      for (const listener of this.listeners) void listener(idEl.value);
    });
    this.selectEl.addEventListener('change', () => {
      for (const listener of this.listeners) void listener(this.selectEl.value);
    });
    this.fill('');
  }
  private fill(value: string): void {
    this.selectEl.empty();
    this.selectEl.createEl('option', { value: '', text: 'None' });
    for (const id of this.app.secretStorage.listSecrets()) this.selectEl.createEl('option', { value: id, text: id });
    this.selectEl.value = value;
  }
  setValue(value: string): this {
    this.fill(value);
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.listeners.push(callback);
    return this;
  }
}

export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv({ cls: 'setting-item' });
    this.infoEl = this.settingEl.createDiv({ cls: 'setting-item-info' });
    this.nameEl = this.infoEl.createDiv({ cls: 'setting-item-name' });
    this.descEl = this.infoEl.createDiv({ cls: 'setting-item-description' });
    this.controlEl = this.settingEl.createDiv({ cls: 'setting-item-control' });
  }
  setName(name: string): this {
    this.nameEl.setText(name);
    return this;
  }
  setDesc(desc: string): this {
    this.descEl.setText(desc);
    return this;
  }
  setHeading(): this {
    this.settingEl.addClass('setting-item-heading');
    this.nameEl.setAttr('role', 'heading');
    return this;
  }
  addButton(cb: (component: ButtonComponent) => unknown): this {
    cb(new ButtonComponent(this.controlEl));
    return this;
  }
  addExtraButton(cb: (component: ExtraButtonComponent) => unknown): this {
    cb(new ExtraButtonComponent(this.controlEl));
    return this;
  }
  addText(cb: (component: TextComponent) => unknown): this {
    cb(new TextComponent(this.controlEl));
    return this;
  }
  addTextArea(cb: (component: TextAreaComponent) => unknown): this {
    cb(new TextAreaComponent(this.controlEl));
    return this;
  }
  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    cb(new DropdownComponent(this.controlEl));
    return this;
  }
  addToggle(cb: (component: ToggleComponent) => unknown): this {
    cb(new ToggleComponent(this.controlEl));
    return this;
  }
  addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this {
    cb(this.controlEl);
    return this;
  }
}

export abstract class PluginSettingTab {
  containerEl: HTMLElement;
  constructor(
    readonly app: TestApp,
    readonly plugin: unknown,
  ) {
    this.containerEl = createDiv({ cls: 'vertical-tab-content' });
  }
  abstract display(): void;
}

export class Modal {
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  private containerEl: HTMLElement;
  constructor(readonly app: TestApp) {
    this.containerEl = createDiv({ cls: 'modal-container' });
    this.modalEl = this.containerEl.createDiv({ cls: 'modal', attr: { role: 'dialog' } });
    this.titleEl = this.modalEl.createDiv({ cls: 'modal-title' });
    this.contentEl = this.modalEl.createDiv({ cls: 'modal-content' });
  }
  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }
  open(): void {
    document.body.appendChild(this.containerEl);
    this.onOpen();
  }
  close(): void {
    this.containerEl.remove();
    this.onClose();
  }
  onOpen(): void {}
  onClose(): void {}
}

/** Obsidian's `setIcon`, as far as this page needs it: an `svg.svg-icon.lucide-NAME` (a circle) as the element's icon. */
export function setIcon(parent: HTMLElement, icon: string): void {
  parent.querySelector(':scope > svg.svg-icon')?.remove();
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  for (const [name, value] of Object.entries({ class: `svg-icon lucide-${icon}`, width: '16', height: '16', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', 'stroke-width': '2' })) svg.setAttribute(name, value);
  const circle = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  for (const [name, value] of Object.entries({ cx: '12', cy: '12', r: '9' })) circle.setAttribute(name, value);
  svg.appendChild(circle);
  parent.prepend(svg);
}

/** A leaf's view: a header with the view's actions, and `contentEl`, as Obsidian lays it out. */
export abstract class ItemView {
  containerEl: HTMLElement;
  contentEl: HTMLElement;
  app: TestApp;
  private readonly actionsEl: HTMLElement;
  constructor(readonly leaf: { app: TestApp; containerEl: HTMLElement }) {
    this.app = leaf.app;
    this.containerEl = leaf.containerEl.createDiv({ cls: 'workspace-leaf-content' });
    this.actionsEl = this.containerEl.createDiv({ cls: 'view-header' }).createDiv({ cls: 'view-actions' });
    this.contentEl = this.containerEl.createDiv({ cls: 'view-content' });
  }
  addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const action = this.actionsEl.createEl('a', { cls: 'clickable-icon view-action', attr: { 'aria-label': title, role: 'button', tabindex: 0 } });
    setIcon(action, icon);
    action.addEventListener('click', (evt) => void callback(evt));
    return action;
  }
  registerDomEvent<K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, callback: (evt: HTMLElementEventMap[K]) => unknown): void {
    el.addEventListener(type, callback);
  }
  abstract getViewType(): string;
  abstract getDisplayText(): string;
  getIcon(): string {
    return '';
  }
  async onOpen(): Promise<void> {}
  async onClose(): Promise<void> {}
}

/** A phone-like platform, so the plugin's HTTP picks `requestUrl` (which tests replace with their own transport). */
export const Platform = { isDesktopApp: false, isMobile: true, isMobileApp: true, isDesktop: false };

export function requestUrl(): never {
  throw new Error('requestUrl is not available in the test page; give the code a transport');
}
