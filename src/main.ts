import { editorInfoField, Notice, Plugin, type ViewCreator, type WorkspaceLeaf } from 'obsidian';
import type { AgentService } from './core/agent/AgentService';
import type { AgentSettings } from './core/agent/createAgentService';
import type { GitEvent, GitService } from './core/git/GitService';
import type { MemOptions } from './core/mem';
import type { Mem } from './core/mem/createMem';
import type { Sandbox } from './core/sandbox/Sandbox';
import type { VaultStack } from './core/stack/VaultStack';
import type { ChatHost, ChatView } from './obsidian/chat/ChatView';
import type { ReadRecorder } from './obsidian/chat/readRecorder';
import type { ChangeMarkersSlot } from './obsidian/editor/agentChangeMarkers';
import type { PluginMcpServer } from './obsidian/mcp/PluginMcpServer';
import type * as PluginParts from './obsidian/pluginParts';
import type { RecursaSettings } from './obsidian/settings/pluginSettings';
import type { RecursaStatusBar } from './obsidian/statusBar';
import type { SyncController } from './obsidian/sync/SyncController';

const INDEX_SAVE_INTERVAL_MS = 5 * 60_000;
/** "N agent commits today" is counted again this often, so it rolls over at midnight. */
const STATUS_REFRESH_MS = 10 * 60_000;

/**
 * Wires the Obsidian adapters into core and registers the UI. `onload` only registers things;
 * the vault's history, the search index and the sandbox start once the layout is ready.
 *
 * This module imports only types and Obsidian: Obsidian evaluates it, and what it imports, in one
 * task; everything else comes with `pluginParts`, which `onload` loads (scripts/chunked-plugin.mjs).
 */
export default class RecursaPlugin extends Plugin {
  /** Set by `onload` from the saved data, before anything reads them. */
  declare settings: RecursaSettings;
  /** Everything Recursa runs over this vault; null until the layout is ready. */
  private stack: VaultStack | null = null;
  private readonly viewTypes = new Set<string>();
  private unloaded = false;
  private statusBar: RecursaStatusBar | null = null;
  private markers: ChangeMarkersSlot | null = null;
  /** Editors showing notes: told the paths of every agent commit, to mark the changed lines. */
  private readonly commitListeners = new Set<(paths: readonly string[]) => void>();
  private stopGitEvents: (() => void) | null = null;
  private sync: SyncController | null = null;
  /** The MCP server inside Obsidian (desktop only; its code loads when it is turned on). */
  private mcp: PluginMcpServer | null = null;
  private reads: ReadRecorder | null = null;
  /** The rest of the plugin's code, which `onload` loads (see src/obsidian/pluginParts.ts). */
  private parts: typeof PluginParts | null = null;

  override async onload(): Promise<void> {
    const [data, ui] = await Promise.all([this.loadData() as Promise<unknown>, import('./obsidian/pluginParts')]);
    this.parts = ui;
    const { settings, needsSave } = ui.settingsFromData(data, this.app.secretStorage);
    this.settings = settings;
    if (needsSave) await this.saveSettings();
    // Each step below runs code for the first time, which costs most on a phone: a task apiece.
    await ui.nextTask();
    if (this.unloaded) return;
    this.mcp = ui.PluginMcpServer.available()
      ? new ui.PluginMcpServer({
          stack: () => this.stack,
          agent: () => this.agent(this.agentSettings()),
          writesPaused: async () => ((await this.stack?.port.exists(this.reviewFile())) === true ? 'A chat run\'s changes are waiting for review in Obsidian: keep or undo them there first.' : null),
          secrets: this.app.secretStorage,
          version: this.manifest.version,
          redact: (text) => ui.redactSecrets(text, [ui.readApiKey(this.settings, this.app.secretStorage)]),
          onError: (error) => console.error('Recursa MCP server:', errorText(error)),
        })
      : null;
    // Shows "starts once the vault is open" until then; nothing is loaded before the vault is ready.
    void this.mcp?.apply(this.settings.mcp);
    const host: ChatHost = {
      // The chat's runs and the MCP server's writes take turns, so commits never mix.
      agent: () => this.mcp?.guardAgent(this.agent(this.agentSettings())) ?? this.agent(this.agentSettings()),
      git: () => this.git,
      conversations: () => (this.stack === null ? null : new ui.ConversationStore(this.stack.port, `${this.pluginDir()}/conversations`)),
      modelLabel: () => ui.modelLabel(this.settings),
      openSettings: () => {
        if (!ui.openPluginSettings(this.app, this.manifest.id)) new Notice('Change the model in the settings of this plugin.');
      },
      recordReads: () => this.reads?.begin() ?? null,
      reviewMode: () => this.settings.reviewChanges,
      setReviewMode: (on) => this.applySettings({ ...this.settings, reviewChanges: on }),
      review: () => (this.stack === null || this.git === null ? null : { git: this.git, writeSet: this.stack.writeSet, port: this.stack.port, file: this.reviewFile() }),
    };
    this.registerView(ui.CHAT_VIEW_TYPE, (leaf) => new ui.ChatView(leaf, host));
    this.registerView(
      ui.HISTORY_VIEW_TYPE,
      (leaf) =>
        new ui.HistoryView(leaf, {
          git: () => this.git,
          newRunId: () => `revert-${Date.now().toString(36)}`,
          onReverted: () => void this.refreshStatus(),
        }),
    );
    this.addSettingTab(new ui.RecursaSettingTab(this.app, this, { settings: () => this.settings, save: (next) => this.applySettings(next), syncNow: () => void this.sync?.syncNow('manual'), ...(this.mcp === null ? {} : { mcp: this.mcp }) }));
    await ui.nextTask();
    if (this.unloaded) return;
    this.markers = ui.changeMarkersSlot(
      () =>
        ui.agentChangeMarkers({
          pathOf: (state) => state.field(editorInfoField, false)?.file?.path ?? null,
          load: (path, text) => ui.loadAgentChanges(this.git, path, text),
          onAgentCommit: (listener) => {
            this.commitListeners.add(listener);
            return () => this.commitListeners.delete(listener);
          },
        }),
      this.settings.changeMarkers,
    );
    this.registerEditorExtension(this.markers.extension);
    this.statusBar = new ui.RecursaStatusBar(this.addStatusBarItem(), () => void this.showHistory());
    this.addRibbonIcon('bot', 'Open agent chat', () => void this.openChat());
    this.addCommand({ id: 'open-chat', name: 'Open chat', callback: () => void this.openChat() });
    this.addCommand({
      id: 'ask-about-current-note',
      name: 'Ask about the current note',
      checkCallback: (checking) => {
        const file = this.app.workspace.getActiveFile();
        if (file === null) return false;
        if (!checking) void this.openChat(file.path);
        return true;
      },
    });
    this.addCommand({ id: 'undo-last-agent-change', name: 'Undo the last agent change', callback: () => void this.undoLastChange() });
    this.addCommand({ id: 'show-agent-history', name: 'Show agent history', callback: () => void this.showHistory() });
    this.addCommand({ id: 'rebuild-search-index', name: 'Rebuild the search index', callback: () => void this.rebuildIndex() });
    await ui.nextTask();
    if (this.unloaded) return;
    this.sync = ui.installSync({
      app: this.app,
      plugin: this,
      git: () => this.git,
      settings: () => this.settings.sync,
      token: () => ui.readSecret(this.app.secretStorage, this.settings.sync.tokenSecret),
      openSettings: () => ui.openPluginSettings(this.app, this.manifest.id),
    });
    // Vault events fire for every file while Obsidian starts; wait until the layout is ready.
    this.app.workspace.onLayoutReady(() => void this.startCore());
  }

  override onunload(): void {
    this.unloaded = true;
    this.stopCore();
  }

  override registerView(type: string, viewCreator: ViewCreator): void {
    super.registerView(type, viewCreator);
    this.viewTypes.add(type);
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.ui.settingsToSave(this.settings));
  }

  /** Saves new settings and applies them: editor marks at once, `mem`'s options (folders, memory) for the next request. */
  private async applySettings(next: RecursaSettings): Promise<void> {
    const memBefore = JSON.stringify(this.ui.toMemOptions(this.settings));
    this.settings = next;
    await this.saveSettings();
    if (this.markers?.setEnabled(next.changeMarkers) === true) this.app.workspace.updateOptions();
    if (JSON.stringify(this.ui.toMemOptions(next)) !== memBefore) await this.restartMem();
    void this.mcp?.apply(next.mcp);
  }

  /** The agent's settings from the plugin's, with the key read from secret storage at the moment of use. */
  private agentSettings(): AgentSettings {
    return this.ui.toAgentSettings(this.settings, this.ui.readApiKey(this.settings, this.app.secretStorage));
  }

  /** The agent's `mem`, once the vault is ready; `null` before that. */
  get mem(): Mem | null {
    return this.stack?.mem ?? null;
  }

  /** Where the agent's code runs (a Web Worker, started on first use); `null` before the vault is ready. */
  get sandbox(): Sandbox | null {
    return this.stack?.sandbox ?? null;
  }

  /** The vault's history; `null` before the vault is ready or when history is off. */
  private get git(): GitService | null {
    return this.stack?.git ?? null;
  }

  /** The agent for these settings, over this vault; `null` before the vault is ready. */
  agent(settings: AgentSettings): AgentService | null {
    return this.stack?.agent(settings) ?? null;
  }

  /** Opens (or shows) the chat in the right sidebar; with a note, the next request is about it. */
  async openChat(notePath?: string): Promise<ChatView | null> {
    const ui = this.ui;
    const leaf = await this.revealView(ui.CHAT_VIEW_TYPE);
    const view = leaf?.view;
    if (!(view instanceof ui.ChatView)) return null;
    if (notePath !== undefined) view.attachNote(notePath);
    view.focusInput();
    return view;
  }

  private async revealView(type: string): Promise<WorkspaceLeaf | null> {
    const { workspace } = this.app;
    let leaf = workspace.getLeavesOfType(type)[0] ?? null;
    if (leaf === null) {
      leaf = workspace.getRightLeaf(false);
      if (leaf === null) return null;
      await leaf.setViewState({ type, active: true });
    }
    await workspace.revealLeaf(leaf);
    return leaf;
  }

  private async showHistory(): Promise<void> {
    await this.revealView(this.ui.HISTORY_VIEW_TYPE);
  }

  /** Reverts the agent's most recent commit, after the user confirms. */
  private async undoLastChange(): Promise<void> {
    const git = this.git;
    if (git === null) {
      new Notice('Recursa: version history is off, so there is nothing to undo.');
      return;
    }
    const last = (await git.log('', 50)).find((entry) => entry.run !== null);
    if (last === undefined) {
      new Notice('Recursa has made no changes to undo.');
      return;
    }
    const subject = last.message.split('\n', 1)[0] ?? '';
    if (!(await this.ui.confirmAction(this.app, { title: 'Undo the last agent change?', message: `This reverts "${subject}" in a new commit.`, confirmText: 'Undo', warning: true }))) return;
    try {
      await git.revertCommit(last.hash, `undo-${Date.now().toString(36)}`);
      new Notice(`Recursa: undid "${subject}".`);
    } catch (error) {
      new Notice(`Recursa: could not undo "${subject}". ${errorText(error)}`, 10_000);
    }
  }

  /** Forgets the saved index and builds it again from the notes. */
  private async rebuildIndex(): Promise<void> {
    const stack = this.stack;
    if (stack === null) {
      new Notice('Recursa is still opening this vault.');
      return;
    }
    new Notice('Recursa: rebuilding the search index…');
    try {
      await stack.rebuildIndex();
      if (!this.unloaded) new Notice('Recursa: the search index is rebuilt.');
    } catch (error) {
      if (!this.unloaded) new Notice(`Recursa: the search index could not be rebuilt. ${errorText(error)}`);
    }
  }

  private memOptions(): Partial<MemOptions> {
    return { configDir: this.app.vault.configDir, ...this.ui.toMemOptions(this.settings) };
  }

  /**
   * A new `mem` over the same index after its options changed (a folder made protected, another
   * memory folder): the next run already obeys them, and a run under way is not cut short.
   */
  private async restartMem(): Promise<void> {
    await this.stack?.setMemOptions(this.memOptions());
  }

  private async startCore(): Promise<void> {
    const ui = this.ui;
    // The port records the notes a run reads, for the sources under its reply.
    const port = new ui.ReadRecorder(new ui.ObsidianVaultPort(this.app), this.app.vault.configDir);
    this.reads = port;
    const vaultRegistry = ui.createDesktopVaultRegistry();
    // The core (git, the index, the sandbox, the agent) and the sandbox worker's source are chunks
    // of their own, loaded now rather than while Obsidian evaluates the plugin (see
    // scripts/chunked-plugin.mjs).
    const [{ VaultStack }, { createBrowserSandboxWorker }] = await Promise.all([import('./core/stack/VaultStack'), import('./obsidian/browserSandboxWorker')]);
    if (this.unloaded) return;
    const stack = await VaultStack.open(port, {
      mem: this.memOptions(),
      git: { author: this.settings.gitAuthor, deflate: ui.loadDesktopDeflate() ?? undefined },
      // Without history the agent still works; its changes simply cannot be committed or undone.
      onGitError: (error) => {
        if (!this.unloaded) this.reportGitError(error);
      },
      graph: {
        cacheFile: `${this.pluginDir()}/graph-index.json`,
        onProgress: (progress) => this.statusBar?.setIndexProgress(progress.done < progress.total ? progress : null),
        onPartialNote: (path, size) => {
          if (!this.unloaded) new Notice(`Recursa: "${path}" is ${Math.round(size / 1024 / 1024)} MiB; search and the graph use its first ${ui.MAX_INDEXED_NOTE_BYTES / 1024 / 1024} MiB only.`, 10_000);
        },
      },
      onIndexError: (error) => {
        if (!this.unloaded) new Notice(`Recursa: the search index could not be built. ${errorText(error)}`);
      },
      session: { runId: 'plugin', activeNote: () => this.app.workspace.getActiveFile()?.path ?? null },
      vaultRegistry,
      sandbox: { createWorker: createBrowserSandboxWorker },
      agent: {
        transport: ui.createObsidianHttpTransport,
        vaultName: this.app.vault.getName(),
        dataDir: this.pluginDir(),
        noteCount: () => this.app.vault.getMarkdownFiles().length,
      },
    });
    if (this.unloaded) {
      await stack.close({ finishWork: false });
      return;
    }
    this.stack = stack;
    const git = stack.git;
    this.stopGitEvents = git?.onEvent((event) => this.onGitEvent(event)) ?? null;
    for (const event of git?.startupEvents ?? []) this.onGitEvent(event);
    git?.whenSnapshotDone().catch((error: unknown) => this.reportGitError(error));
    this.registerInterval(window.setInterval(() => void this.stack?.saveIndex().catch(() => false), INDEX_SAVE_INTERVAL_MS));
    void this.refreshStatus();
    this.registerInterval(window.setInterval(() => void this.refreshStatus(), STATUS_REFRESH_MS));
    for (const leaf of this.app.workspace.getLeavesOfType(ui.HISTORY_VIEW_TYPE)) if (leaf.view instanceof ui.HistoryView) void leaf.view.refresh();
    for (const leaf of this.app.workspace.getLeavesOfType(ui.CHAT_VIEW_TYPE)) if (leaf.view instanceof ui.ChatView) void leaf.view.restoreReview();
    if (this.sync !== null) ui.startSync(this.sync, this.settings.sync);
    void this.mcp?.apply(this.settings.mcp);
  }

  private onGitEvent(event: GitEvent): void {
    if (event.type === 'commit') {
      for (const listener of this.commitListeners) listener(event.paths);
      void this.refreshStatus();
      void this.sync?.refreshStatus();
    } else if (event.type === 'stale-lock-removed') {
      new Notice(`Recursa removed ${event.lock}: it was ${Math.round(event.ageMs / 60_000)} minutes old, left by a git program that stopped.`);
    } else if (event.type === 'recovered') {
      new Notice(`Recursa ${event.detail}.`);
    } else if (event.type === 'snapshot-progress') {
      this.statusBar?.setSnapshotProgress(event.progress);
    } else {
      this.statusBar?.setSnapshotProgress(null);
    }
  }

  /** The status bar's count of today's agent commits (or "History off"). */
  private async refreshStatus(): Promise<void> {
    const git = this.git;
    if (git === null) {
      this.statusBar?.setAgentCommitsToday(this.stack === null ? null : 'off');
      return;
    }
    try {
      const history = await this.ui.loadHistory(git, { max: 0 });
      if (this.git === git) this.statusBar?.setAgentCommitsToday(history.today);
    } catch {
      this.statusBar?.setAgentCommitsToday(null);
    }
  }

  private stopCore(): void {
    void this.mcp?.stop();
    this.stopGitEvents?.();
    this.stopGitEvents = null;
    this.commitListeners.clear();
    void this.stack?.close({ finishWork: false });
    this.stack = null;
  }

  /** The plugin's code beyond this class; `onload` loads it before anything that uses it. */
  private get ui(): typeof PluginParts {
    if (this.parts === null) throw new Error('Recursa is still loading.');
    return this.parts;
  }

  private pluginDir(): string {
    return this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
  }

  /** Where an open review of a chat run's changes is kept; it exists exactly while one is open. */
  private reviewFile(): string {
    return `${this.pluginDir()}/review.json`;
  }

  private reportGitError(error: unknown): void {
    new Notice(`Recursa: version history is off. ${errorText(error)}`, 10_000);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
