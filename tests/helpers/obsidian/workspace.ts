import type * as Obsidian from 'obsidian';
import type { App } from './app';
import { Events, type EventRef } from './events';
import { TFile } from './files';
import { MarkdownView } from './markdownView';
import type { View } from './view';

/** Creates the view for a leaf; what `Plugin.registerView` registers. */
export type ViewCreator = (leaf: WorkspaceLeaf) => View;

/**
 * Obsidian's `WorkspaceLeaf`: one pane. `containerEl` is the `.workspace-leaf`; `setViewState`
 * closes the view it shows and opens a new one of the registered type; `detach` closes it and
 * takes the leaf out of the workspace.
 */
export class WorkspaceLeaf extends Events implements Pick<Obsidian.WorkspaceLeaf, 'getViewState' | 'getDisplayText' | 'setPinned' | 'setGroup'> {
  view: View | null = null;
  readonly containerEl: HTMLElement;
  private viewType = 'empty';

  constructor(
    readonly app: App,
    readonly side: 'left' | 'right' | 'root',
  ) {
    super();
    this.containerEl = createDiv('workspace-leaf');
  }

  async setViewState(viewState: Obsidian.ViewState): Promise<void> {
    await this.closeView();
    this.viewType = viewState.type;
    const creator = this.app.workspace.viewCreator(viewState.type);
    if (creator === null) return;
    const view = creator(this);
    this.view = view;
    this.containerEl.appendChild(view.containerEl);
    await view.open();
    if (viewState.active === true) this.app.workspace.setActiveLeaf(this);
  }

  getViewState(): Obsidian.ViewState {
    return { type: this.viewType };
  }

  getDisplayText(): string {
    return this.view?.getDisplayText() ?? '';
  }

  setPinned(_pinned: boolean): void {
    // Pinning changes nothing here.
  }

  setGroup(_group: string): void {
    // Groups are not modelled.
  }

  detach(): void {
    void this.closeView();
    this.containerEl.detach();
    this.app.workspace.forgetLeaf(this);
  }

  /** Test-module internal: closes the view, leaving an empty leaf. */
  async closeView(): Promise<void> {
    const view = this.view;
    if (view === null) return;
    this.view = null;
    this.viewType = 'empty';
    view.containerEl.detach();
    await view.close();
  }
}

/**
 * Obsidian's `Workspace`, with the desktop layout's elements: the left ribbon, the root split
 * (the note being read), the right split (sidebar leaves, one shown at a time) and the status bar.
 * The layout is ready once the harness calls `setLayoutReady()`; `onLayoutReady` callbacks wait
 * until then (or run at once after). `openLinkText` opens a note: it becomes the active file, its
 * text is shown in the root split, and `file-open` fires.
 */
export class Workspace
  extends Events
  implements Pick<Obsidian.Workspace, 'layoutReady' | 'onLayoutReady' | 'getActiveFile' | 'openLinkText' | 'getLeavesOfType' | 'detachLeavesOfType' | 'revealLeaf' | 'updateOptions' | 'getMostRecentLeaf'>
{
  layoutReady = false;
  activeLeaf: WorkspaceLeaf | null = null;
  readonly containerEl: HTMLElement;
  readonly ribbonEl: HTMLElement;
  readonly leftSplitEl: HTMLElement;
  readonly rootEl: HTMLElement;
  readonly rightSplitEl: HTMLElement;
  readonly statusBarEl: HTMLElement;
  /** Test-only: the editor extensions plugins registered. */
  readonly editorExtensions: unknown[] = [];
  private readonly noteTitleEl: HTMLElement;
  private readonly noteBodyEl: HTMLElement;
  private readonly leaves: WorkspaceLeaf[] = [];
  private readonly views = new Map<string, ViewCreator>();
  private readyCallbacks: (() => unknown)[] = [];
  private activeFile: TFile | null = null;
  /** The leaf of the note open in the root split (its view a `MarkdownView`); not in the leaf list. */
  private noteLeaf: WorkspaceLeaf | null = null;

  constructor(private readonly app: App) {
    super();
    this.containerEl = createDiv('workspace');
    this.ribbonEl = this.containerEl.createDiv({ cls: 'workspace-ribbon side-dock-ribbon mod-left', attr: { role: 'toolbar', 'aria-label': 'Ribbon' } });
    this.leftSplitEl = this.containerEl.createDiv('workspace-split mod-horizontal mod-sidedock mod-left-split');
    this.rootEl = this.containerEl.createDiv('workspace-split mod-vertical mod-root');
    const note = this.rootEl.createDiv('workspace-leaf mod-active').createDiv('workspace-leaf-content');
    note.setAttr('data-type', 'markdown');
    this.noteTitleEl = note.createDiv('view-header').createDiv('view-header-title');
    this.noteBodyEl = note.createDiv('view-content').createDiv('markdown-reading-view');
    this.rightSplitEl = this.containerEl.createDiv('workspace-split mod-horizontal mod-sidedock mod-right-split');
    this.statusBarEl = createDiv('status-bar');
  }

  /** Test-only: shows the active note again after it changed on disk (Obsidian's editor follows the file). */
  async refreshActiveFile(): Promise<void> {
    if (this.activeFile !== null) this.noteBodyEl.setText(await this.app.vault.cachedRead(this.activeFile));
  }

  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.readyCallbacks.push(callback);
  }

  /** Test-only: the layout is ready; runs the waiting `onLayoutReady` callbacks. */
  setLayoutReady(): void {
    this.layoutReady = true;
    const callbacks = this.readyCallbacks;
    this.readyCallbacks = [];
    for (const callback of callbacks) callback();
  }

  getRightLeaf(_split: boolean): WorkspaceLeaf {
    return this.addLeaf('right');
  }

  getLeftLeaf(_split: boolean): WorkspaceLeaf {
    return this.addLeaf('left');
  }

  getLeaf(_newLeaf?: boolean | Obsidian.PaneType): WorkspaceLeaf {
    return this.addLeaf('root');
  }

  /** Shows the leaf (the only one shown in its sidebar) and makes it active. */
  async revealLeaf(leaf: Obsidian.WorkspaceLeaf): Promise<void> {
    const ours = this.leaves.find((candidate) => (candidate as unknown) === leaf);
    if (ours === undefined) return;
    for (const other of this.leaves) if (other.side === ours.side) other.containerEl.toggle(other === ours);
    this.setActiveLeaf(ours);
    await Promise.resolve();
  }

  setActiveLeaf(leaf: WorkspaceLeaf): void {
    this.activeLeaf = leaf;
    this.trigger('active-leaf-change', leaf);
  }

  getLeavesOfType(viewType: string): Obsidian.WorkspaceLeaf[] {
    return this.leaves.filter((leaf) => leaf.getViewState().type === viewType) as unknown as Obsidian.WorkspaceLeaf[];
  }

  detachLeavesOfType(viewType: string): void {
    for (const leaf of this.leaves.filter((candidate) => candidate.getViewState().type === viewType)) leaf.detach();
  }

  /** Times `updateOptions` was called: open editors reconfigure with the registered extensions. */
  optionUpdates = 0;

  updateOptions(): void {
    this.optionUpdates += 1;
  }

  getActiveFile(): TFile | null {
    return this.activeFile;
  }

  /**
   * Opens the note the link text names: a path (with or without `.md`), or a note's name anywhere
   * in the vault, as Obsidian resolves `[[Name]]`. Unknown names open nothing.
   */
  async openLinkText(linktext: string, _sourcePath: string, _newLeaf?: boolean | Obsidian.PaneType): Promise<void> {
    const target = linktext.split('#', 1)[0]?.split('|', 1)[0]?.trim() ?? '';
    const files = this.app.vault.getMarkdownFiles();
    const file =
      files.find((candidate) => candidate.path === target || candidate.path === `${target}.md`) ??
      files.find((candidate) => candidate.basename.toLowerCase() === target.toLowerCase()) ??
      null;
    if (file !== null) await this.openFile(file);
  }

  /** Test-only: shows the note in the root split, makes it the active file and fires `file-open`. */
  async openFile(file: TFile): Promise<void> {
    this.activeFile = file;
    this.noteTitleEl.setText(file.basename);
    const text = await this.app.vault.cachedRead(file);
    this.noteBodyEl.setText(text);
    const leaf = new WorkspaceLeaf(this.app, 'root');
    leaf.view = new MarkdownView(leaf, file, text);
    this.noteLeaf = leaf;
    this.trigger('file-open', file);
  }

  /**
   * The most recently active leaf of the root split: the note's, once one was opened (a sidebar
   * leaf such as the chat may be active meanwhile).
   */
  getMostRecentLeaf(_root?: Obsidian.WorkspaceParent): Obsidian.WorkspaceLeaf | null {
    return this.noteLeaf as unknown as Obsidian.WorkspaceLeaf | null;
  }

  override on(name: 'file-open', callback: (file: TFile | null) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: unknown[]) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    return this.subscribe(name, callback, ctx);
  }

  /** Test-module internal: `Plugin.registerView`. */
  registerView(type: string, creator: ViewCreator): void {
    if (this.views.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
    this.views.set(type, creator);
  }

  /** Test-module internal: a plugin unloads; its views close and their leaves go. */
  unregisterView(type: string): void {
    this.views.delete(type);
    this.detachLeavesOfType(type);
  }

  viewCreator(type: string): ViewCreator | null {
    return this.views.get(type) ?? null;
  }

  /** Test-only: every leaf in the workspace. */
  allLeaves(): WorkspaceLeaf[] {
    return [...this.leaves];
  }

  forgetLeaf(leaf: WorkspaceLeaf): void {
    const at = this.leaves.indexOf(leaf);
    if (at >= 0) this.leaves.splice(at, 1);
    if (this.activeLeaf === leaf) this.activeLeaf = null;
  }

  private addLeaf(side: WorkspaceLeaf['side']): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, side);
    this.leaves.push(leaf);
    (side === 'right' ? this.rightSplitEl : side === 'left' ? this.leftSplitEl : this.rootEl).appendChild(leaf.containerEl);
    return leaf;
  }
}
