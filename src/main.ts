import { editorInfoField, Notice, Plugin, type ViewCreator, type WorkspaceLeaf } from 'obsidian';
import type { AgentService } from './core/agent/AgentService';
import { ConversationStore } from './core/agent/ConversationStore';
import { isRecursaError } from './core/errors';
import { GitService, type GitEvent } from './core/git/GitService';
import { GraphIndex, MAX_INDEXED_NOTE_BYTES } from './core/graph/GraphIndex';
import { createMem, resolveMemOptions, WriteSet, type MemInstance, type MemOptions } from './core/mem';
import { MEM_METHOD_NAMES, type Mem, type RunScopedMem } from './core/mem/createMem';
import type { MemSession } from './core/mem/MemContext';
import type { VaultRegistry } from './core/ports';
import { Sandbox } from './core/sandbox/Sandbox';
import { createBrowserSandboxWorker } from './obsidian/browserSandboxWorker';
import { CHAT_VIEW_TYPE, ChatView, type ChatHost } from './obsidian/chat/ChatView';
import { confirmAction } from './obsidian/ConfirmModal';
import { createAgent, type AgentSettings } from './obsidian/createAgent';
import { createDesktopVaultRegistry } from './obsidian/desktopVaultRegistry';
import { agentChangeMarkers, changeMarkersSlot, type ChangeMarkersSlot } from './obsidian/editor/agentChangeMarkers';
import { loadAgentChanges } from './obsidian/editor/loadAgentChanges';
import { loadHistory } from './obsidian/history/historyModel';
import { HISTORY_VIEW_TYPE, HistoryView } from './obsidian/history/HistoryView';
import { ObsidianVaultPort } from './obsidian/ObsidianVaultPort';
import { RecursaSettingTab } from './obsidian/settings/RecursaSettingTab';
import { defaultSettings, readApiKey, settingsFromData, settingsToSave, toAgentSettings, toMemOptions, type RecursaSettings } from './obsidian/settings/pluginSettings';
import { RecursaStatusBar } from './obsidian/statusBar';
import { loadDesktopDeflate } from './obsidian/desktopDeflate';

const INDEX_SAVE_INTERVAL_MS = 5 * 60_000;
/** "N agent commits today" is counted again this often, so it rolls over at midnight. */
const STATUS_REFRESH_MS = 10 * 60_000;

/**
 * Wires the Obsidian adapters into core and registers the UI. `onload` only registers things;
 * the vault's history, the search index and the sandbox start once the layout is ready.
 */
export default class RecursaPlugin extends Plugin {
  override settings: RecursaSettings = defaultSettings();
  private memInstance: MemInstance | null = null;
  private git: GitService | null = null;
  private sandboxInstance: Sandbox | null = null;
  private graph: GraphIndex | null = null;
  private port: ObsidianVaultPort | null = null;
  private agentParts: Omit<Parameters<typeof createAgent>[0], 'sandbox'> | null = null;
  private readonly viewTypes = new Set<string>();
  private unloaded = false;
  private statusBar: RecursaStatusBar | null = null;
  private markers: ChangeMarkersSlot | null = null;
  /** Editors showing notes: told the paths of every agent commit, to mark the changed lines. */
  private readonly commitListeners = new Set<(paths: readonly string[]) => void>();
  private stopGitEvents: (() => void) | null = null;
  /** The vaults Recursa has opened on this device, for `recall({ scope: 'all' })`; null on mobile. */
  private vaultRegistry: VaultRegistry | null = null;

  override async onload(): Promise<void> {
    const { settings, needsSave } = settingsFromData(await this.loadData(), this.app.secretStorage);
    this.settings = settings;
    if (needsSave) await this.saveSettings();
    const host: ChatHost = {
      agent: () => this.agent(this.agentSettings()),
      git: () => this.git,
      conversations: () => (this.port === null ? null : new ConversationStore(this.port, `${this.pluginDir()}/conversations`)),
    };
    this.registerView(CHAT_VIEW_TYPE, (leaf) => new ChatView(leaf, host));
    this.registerView(
      HISTORY_VIEW_TYPE,
      (leaf) =>
        new HistoryView(leaf, {
          git: () => this.git,
          newRunId: () => `revert-${Date.now().toString(36)}`,
          onReverted: () => void this.refreshStatus(),
        }),
    );
    this.addSettingTab(new RecursaSettingTab(this.app, this, { settings: () => this.settings, save: (next) => this.applySettings(next) }));
    this.markers = changeMarkersSlot(
      () =>
        agentChangeMarkers({
          pathOf: (state) => state.field(editorInfoField, false)?.file?.path ?? null,
          load: (path, text) => loadAgentChanges(this.git, path, text),
          onAgentCommit: (listener) => {
            this.commitListeners.add(listener);
            return () => this.commitListeners.delete(listener);
          },
        }),
      this.settings.changeMarkers,
    );
    this.registerEditorExtension(this.markers.extension);
    this.statusBar = new RecursaStatusBar(this.addStatusBarItem(), () => void this.showHistory());
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
    await this.saveData(settingsToSave(this.settings));
  }

  /** Saves new settings and applies them: editor marks at once, `mem`'s options (folders, memory) for the next request. */
  private async applySettings(next: RecursaSettings): Promise<void> {
    const memBefore = JSON.stringify(toMemOptions(this.settings));
    this.settings = next;
    await this.saveSettings();
    if (this.markers?.setEnabled(next.changeMarkers) === true) this.app.workspace.updateOptions();
    if (JSON.stringify(toMemOptions(next)) !== memBefore) await this.restartMem();
  }

  /** The agent's settings from the plugin's, with the key read from secret storage at the moment of use. */
  private agentSettings(): AgentSettings {
    return toAgentSettings(this.settings, readApiKey(this.settings, this.app.secretStorage));
  }

  /** The agent's `mem`, once the vault is ready; `null` before that. */
  get mem(): MemInstance['mem'] | null {
    return this.memInstance?.mem ?? null;
  }

  /** Where the agent's code runs (a Web Worker, started on first use); `null` before the vault is ready. */
  get sandbox(): Sandbox | null {
    return this.sandboxInstance;
  }

  /** The agent for these settings, over this vault; `null` before the vault is ready. */
  agent(settings: AgentSettings): AgentService | null {
    if (this.agentParts === null || this.sandboxInstance === null) return null;
    return createAgent({ ...this.agentParts, sandbox: this.sandboxInstance, ...(this.memInstance === null ? {} : { mem: this.memInstance }) }, settings);
  }

  /** Opens (or shows) the chat in the right sidebar; with a note, the next request is about it. */
  async openChat(notePath?: string): Promise<ChatView | null> {
    const leaf = await this.revealView(CHAT_VIEW_TYPE);
    const view = leaf?.view;
    if (!(view instanceof ChatView)) return null;
    if (notePath !== undefined) view.setContextNote(notePath);
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
    await this.revealView(HISTORY_VIEW_TYPE);
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
    if (!(await confirmAction(this.app, { title: 'Undo the last agent change?', message: `This reverts "${subject}" in a new commit.`, confirmText: 'Undo', warning: true }))) return;
    try {
      await git.revertCommit(last.hash, `undo-${Date.now().toString(36)}`);
      new Notice(`Recursa: undid "${subject}".`);
    } catch (error) {
      new Notice(`Recursa: could not undo "${subject}". ${errorText(error)}`, 10_000);
    }
  }

  /** Forgets the saved index and builds it again from the notes. */
  private async rebuildIndex(): Promise<void> {
    const port = this.port;
    if (port === null || this.agentParts === null) {
      new Notice('Recursa is still opening this vault.');
      return;
    }
    const cacheFile = `${this.pluginDir()}/graph-index.json`;
    const options = await this.memOptions(port);
    if (await port.exists(cacheFile)) await port.remove(cacheFile);
    const parts = this.agentParts;
    if (this.unloaded || parts === null) return;
    this.graph?.close();
    this.sandboxInstance?.dispose();
    this.sandboxInstance = null;
    this.startIndex(port, options, parts.writeSet, parts.session);
    new Notice('Recursa: rebuilding the search index…');
    await this.graph?.build();
    await this.graph?.save();
    if (!this.unloaded) new Notice('Recursa: the search index is rebuilt.');
  }

  private memOptions(port: ObsidianVaultPort): Promise<MemOptions> {
    return resolveMemOptions(port, { configDir: this.app.vault.configDir, ...toMemOptions(this.settings) });
  }

  /**
   * A new `mem` over the same index after its options changed (a folder made protected, another
   * memory folder). The sandbox reaches `mem` through `currentMem`, so the next call already obeys
   * the new options, and a run under way is not cut short.
   */
  private async restartMem(): Promise<void> {
    const port = this.port;
    const parts = this.agentParts;
    const graph = this.graph;
    if (port === null || parts === null || graph === null) return;
    const options = await this.memOptions(port);
    if (this.unloaded || this.port !== port || this.graph !== graph) return;
    this.startMem(port, options, parts.writeSet, parts.session, graph);
  }

  private async startCore(): Promise<void> {
    const port = new ObsidianVaultPort(this.app);
    const options = await this.memOptions(port);
    const writeSet = new WriteSet(port);
    let git: GitService | null = null;
    try {
      git = await GitService.open(port, writeSet, { configDir: this.app.vault.configDir, author: this.settings.gitAuthor, deflate: loadDesktopDeflate() ?? undefined });
    } catch (error) {
      // Without history the agent still works; its changes simply cannot be committed or undone.
      if (!this.unloaded) this.reportGitError(error);
    }
    if (this.unloaded) {
      git?.close();
      return;
    }
    this.git = git;
    this.stopGitEvents = git?.onEvent((event) => this.onGitEvent(event)) ?? null;
    for (const event of git?.startupEvents ?? []) this.onGitEvent(event);
    git?.whenSnapshotDone().catch((error: unknown) => this.reportGitError(error));
    const session: MemSession = { runId: 'plugin', activeNote: () => this.app.workspace.getActiveFile()?.path ?? null };
    this.port = port;
    this.vaultRegistry = createDesktopVaultRegistry();
    void this.vaultRegistry?.register({ root: port.root, name: this.app.vault.getName(), memoryFolder: options.memoryFolder }).catch(() => undefined);
    this.agentParts = { app: this.app, port, git, writeSet, session, pluginDir: this.pluginDir() };
    this.startIndex(port, options, writeSet, session);
    void this.graph
      ?.build()
      .then(() => this.graph?.save())
      .catch((error: unknown) => {
        if (!this.unloaded) new Notice(`Recursa: the search index could not be built. ${errorText(error)}`);
      });
    this.registerInterval(window.setInterval(() => void this.graph?.save().catch(() => false), INDEX_SAVE_INTERVAL_MS));
    void this.refreshStatus();
    this.registerInterval(window.setInterval(() => void this.refreshStatus(), STATUS_REFRESH_MS));
    for (const leaf of this.app.workspace.getLeavesOfType(HISTORY_VIEW_TYPE)) if (leaf.view instanceof HistoryView) void leaf.view.refresh();
  }

  private onGitEvent(event: GitEvent): void {
    if (event.type === 'commit') {
      for (const listener of this.commitListeners) listener(event.paths);
      void this.refreshStatus();
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
      this.statusBar?.setAgentCommitsToday(this.port === null ? null : 'off');
      return;
    }
    try {
      const history = await loadHistory(git, { max: 0 });
      if (this.git === git) this.statusBar?.setAgentCommitsToday(history.today);
    } catch {
      this.statusBar?.setAgentCommitsToday(null);
    }
  }

  /** A new index over the vault, and the `mem` and sandbox that use it. */
  private startIndex(port: ObsidianVaultPort, options: MemOptions, writeSet: WriteSet, session: MemSession): void {
    const hidden = new Set(['.git', '.trash', this.app.vault.configDir]);
    const graph = new GraphIndex(port, {
      skipFolder: (folder) => hidden.has(folder),
      cacheFile: `${this.pluginDir()}/graph-index.json`,
      onProgress: (progress) => this.statusBar?.setIndexProgress(progress.done < progress.total ? progress : null),
      // Pauses while git works, so the agent's commits and the first snapshot are not slowed by it.
      giveWay: () => this.git?.whenIdle() ?? Promise.resolve(),
      onPartialNote: (path, size) => {
        if (!this.unloaded) new Notice(`Recursa: "${path}" is ${Math.round(size / 1024 / 1024)} MiB; search and the graph use its first ${MAX_INDEXED_NOTE_BYTES / 1024 / 1024} MiB only.`, 10_000);
      },
    });
    this.graph = graph;
    this.startMem(port, options, writeSet, session, graph);
  }

  private startMem(port: ObsidianVaultPort, options: MemOptions, writeSet: WriteSet, session: MemSession, graph: GraphIndex): void {
    this.memInstance = createMem(port, options, { writeSet, git: this.git, graph, session, vaultRegistry: this.vaultRegistry });
    this.sandboxInstance ??= new Sandbox(createBrowserSandboxWorker, this.currentMem, { hostPaths: [port.root] });
  }

  /** `mem` as the sandbox sees it: each run is bound to the `mem` of the moment (settings may restart it). */
  private readonly currentMem: RunScopedMem = { forRun: (scope) => this.memInstance?.forRun(scope) ?? CLOSED_MEM };

  private stopCore(): void {
    this.stopGitEvents?.();
    this.stopGitEvents = null;
    this.commitListeners.clear();
    this.sandboxInstance?.dispose();
    this.sandboxInstance = null;
    // Best effort: the next start loads what was saved and re-reads only the notes changed since.
    void this.graph?.save().catch(() => false);
    this.graph?.close();
    this.graph = null;
    this.git?.close();
    this.git = null;
    this.port = null;
    this.memInstance = null;
    this.agentParts = null;
  }

  private pluginDir(): string {
    return this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
  }

  private reportGitError(error: unknown): void {
    new Notice(`Recursa: version history is off. ${errorText(error)}`, 10_000);
  }
}

function errorText(error: unknown): string {
  return isRecursaError(error) || error instanceof Error ? error.message : String(error);
}

/** The `mem` of a vault Recursa has closed: every call says so. */
const CLOSED_MEM = Object.fromEntries(
  MEM_METHOD_NAMES.map((name) => [name, (): Promise<never> => Promise.reject(new Error('Recursa has closed this vault.'))]),
) as unknown as Mem;
