import type * as Obsidian from 'obsidian';
import type { App } from './app';
import { Component } from './component';
import { setIcon } from './icons';
import type { Scope } from './modal';
import type { WorkspaceLeaf } from './workspace';

/**
 * Obsidian's `View`: a `Component` shown in a leaf. `containerEl` is the leaf's
 * `.workspace-leaf-content` (`data-type` = the view type); the leaf loads the view and calls
 * `onOpen` when it shows it, and `onClose` then unloads it when it closes.
 */
export abstract class View extends Component implements Pick<Obsidian.View, 'icon' | 'navigation' | 'containerEl' | 'getViewType' | 'getDisplayText' | 'getIcon' | 'getState' | 'getEphemeralState'> {
  app: App;
  icon = 'file-text';
  navigation = false;
  leaf: WorkspaceLeaf;
  containerEl: HTMLElement;
  scope: Scope | null = null;

  constructor(leaf: WorkspaceLeaf) {
    super();
    this.leaf = leaf;
    this.app = leaf.app;
    this.containerEl = createDiv('workspace-leaf-content');
  }

  protected async onOpen(): Promise<void> {
    // Subclasses override.
  }

  protected async onClose(): Promise<void> {
    // Subclasses override.
  }

  abstract getViewType(): string;
  abstract getDisplayText(): string;

  getIcon(): string {
    return this.icon;
  }

  getState(): Record<string, unknown> {
    return {};
  }

  async setState(_state: unknown, _result: Obsidian.ViewStateResult): Promise<void> {
    // No state here.
  }

  getEphemeralState(): Record<string, unknown> {
    return {};
  }

  setEphemeralState(_state: unknown): void {
    // No state here.
  }

  /** Test-module internal, called by the leaf: load, then `onOpen`. */
  async open(): Promise<void> {
    this.containerEl.setAttr('data-type', this.getViewType());
    this.load();
    await this.onOpen();
  }

  /** Test-module internal, called by the leaf: `onClose`, then unload. */
  async close(): Promise<void> {
    await this.onClose();
    this.unload();
  }
}

/**
 * Obsidian's `ItemView`: a `.view-header` (icon, title, actions) and `contentEl`, the
 * `.view-content` (also `containerEl.children[1]`).
 */
export abstract class ItemView extends View implements Pick<Obsidian.ItemView, 'contentEl' | 'addAction'> {
  contentEl: HTMLElement;
  private readonly actionsEl: HTMLElement;
  private readonly titleEl: HTMLElement;

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    const header = this.containerEl.createDiv('view-header');
    this.titleEl = header.createDiv('view-header-title-container').createDiv('view-header-title');
    this.actionsEl = header.createDiv('view-actions');
    this.contentEl = this.containerEl.createDiv('view-content');
  }

  override async open(): Promise<void> {
    this.titleEl.setText(this.getDisplayText());
    await super.open();
  }

  addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const action = this.actionsEl.createEl('a', { cls: 'clickable-icon view-action', attr: { 'aria-label': title, role: 'button', tabindex: 0 } });
    setIcon(action, icon);
    action.addEventListener('click', (evt) => void callback(evt));
    return action;
  }
}
