import type * as Obsidian from 'obsidian';
import type { App } from './app';

/** Obsidian's `Scope`: keyboard handlers of one part of the UI (a modal, a view). */
export class Scope implements Obsidian.Scope {
  private readonly handlers: { handler: Obsidian.KeymapEventHandler; func: Obsidian.KeymapEventListener }[] = [];

  constructor(readonly parent?: Obsidian.Scope) {}

  register(modifiers: Obsidian.Modifier[] | null, key: string | null, func: Obsidian.KeymapEventListener): Obsidian.KeymapEventHandler {
    const handler: Obsidian.KeymapEventHandler = { scope: this, modifiers: modifiers?.join(',') ?? null, key };
    this.handlers.push({ handler, func });
    return handler;
  }

  unregister(handler: Obsidian.KeymapEventHandler): void {
    const at = this.handlers.findIndex((entry) => entry.handler === handler);
    if (at >= 0) this.handlers.splice(at, 1);
  }

  /** Test-module internal: runs the handler for this key; false when one returned false (handled). */
  handle(evt: KeyboardEvent): boolean {
    const mods = [evt.ctrlKey || evt.metaKey ? 'Mod' : null, evt.shiftKey ? 'Shift' : null, evt.altKey ? 'Alt' : null].filter((m) => m !== null).join(',');
    for (const { handler, func } of this.handlers) {
      if (handler.key !== null && handler.key !== evt.key) continue;
      if (handler.modifiers !== null && handler.modifiers !== mods) continue;
      if (func(evt, { modifiers: mods, key: evt.key, vkey: evt.key }) === false) return false;
    }
    return true;
  }
}

/** The open modals, the top one last: as in Obsidian's keymap, only the top one gets keys. */
const openModals: Modal[] = [];
/** Keys a modal already took (closing it makes the one below the top while the key still travels). */
const takenKeys = new WeakSet<KeyboardEvent>();

/**
 * Obsidian's `Modal`: `open` puts `.modal-container` (a dimmed backdrop and the `.modal` with a
 * close button, `titleEl` and `contentEl`) on the body and calls `onOpen`; Escape, the close button
 * or a click on the backdrop close it; `close` removes it and calls `onClose`, then the close callback.
 */
export class Modal implements Pick<Obsidian.Modal, 'scope' | 'containerEl' | 'modalEl' | 'titleEl' | 'contentEl' | 'shouldRestoreSelection' | 'open' | 'close' | 'onOpen' | 'onClose'> {
  app: App;
  scope: Scope;
  containerEl: HTMLElement;
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  shouldRestoreSelection = false;
  private closeCallback: (() => unknown) | null = null;
  private opened = false;
  private readonly onKey = (evt: KeyboardEvent): void => {
    if (openModals.at(-1) !== this || takenKeys.has(evt)) return;
    takenKeys.add(evt);
    if (evt.key === 'Escape') {
      evt.preventDefault();
      this.close();
      return;
    }
    if (!this.scope.handle(evt)) evt.preventDefault();
  };

  constructor(app: App) {
    this.app = app;
    this.scope = new Scope();
    this.containerEl = createDiv('modal-container mod-dim');
    const backdrop = this.containerEl.createDiv('modal-bg');
    backdrop.addEventListener('click', () => this.close());
    this.modalEl = this.containerEl.createDiv({ cls: 'modal', attr: { role: 'dialog', 'aria-modal': 'true' } });
    const close = this.modalEl.createDiv({ cls: 'modal-close-button', attr: { role: 'button', tabindex: 0, 'aria-label': 'Close' } });
    close.addEventListener('click', () => this.close());
    const header = this.modalEl.createDiv('modal-header');
    this.titleEl = header.createDiv('modal-title');
    this.contentEl = this.modalEl.createDiv('modal-content');
  }

  open(): void {
    if (this.opened) return;
    this.opened = true;
    openModals.push(this);
    document.body.appendChild(this.containerEl);
    document.addEventListener('keydown', this.onKey, true);
    void this.onOpen();
    if (!this.modalEl.contains(document.activeElement)) {
      this.modalEl.setAttr('tabindex', -1);
      this.modalEl.focus();
    }
  }

  close(): void {
    if (!this.opened) return;
    this.opened = false;
    openModals.splice(openModals.indexOf(this), 1);
    document.removeEventListener('keydown', this.onKey, true);
    this.containerEl.detach();
    this.onClose();
    this.closeCallback?.();
  }

  onOpen(): Promise<void> | void {
    // Subclasses override.
  }

  onClose(): void {
    // Subclasses override.
  }

  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }

  setContent(content: string | DocumentFragment): this {
    this.contentEl.setText(content);
    return this;
  }

  setCloseCallback(callback: () => unknown): this {
    this.closeCallback = callback;
    return this;
  }
}
