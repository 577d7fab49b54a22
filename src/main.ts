import { Notice, Plugin, type ViewCreator, type WorkspaceLeaf } from 'obsidian';
import type { AgentService } from './core/agent/AgentService';
import { ConversationStore } from './core/agent/ConversationStore';
import { isRecursaError } from './core/errors';
import { GitService } from './core/git/GitService';
import { GraphIndex } from './core/graph/GraphIndex';
import { createMem, resolveMemOptions, WriteSet, type MemInstance, type MemOptions } from './core/mem';
import type { MemSession } from './core/mem/MemContext';
import { Sandbox } from './core/sandbox/Sandbox';
import { createBrowserSandboxWorker } from './obsidian/browserSandboxWorker';
import { CHAT_VIEW_TYPE, ChatView, type ChatHost } from './obsidian/chat/ChatView';
import { confirmAction } from './obsidian/chat/ConfirmModal';
import { createAgent, type AgentSettings } from './obsidian/createAgent';
import { ObsidianVaultPort } from './obsidian/ObsidianVaultPort';
import { agentSettingsOf, readSettings, type RecursaSettings } from './obsidian/pluginSettings';

/** The agent history view's type; the view itself is registered by the history module. */
export const HISTORY_VIEW_TYPE = 'recursa-history';

const INDEX_SAVE_INTERVAL_MS = 5 * 60_000;

/**
 * Wires the Obsidian adapters into core and registers the UI. `onload` only registers things;
 * the vault's history, the search index and the sandbox start once the layout is ready.
 */
export default class RecursaPlugin extends Plugin {
  override settings: RecursaSettings = readSettings(null);
  private memInstance: MemInstance | null = null;
  private git: GitService | null = null;
  private sandboxInstance: Sandbox | null = null;
  private graph: GraphIndex | null = null;
  private port: ObsidianVaultPort | null = null;
  private agentParts: Omit<Parameters<typeof createAgent>[0], 'sandbox'> | null = null;
  private readonly viewTypes = new Set<string>();
  private unloaded = false;

  override async onload(): Promise<void> {
    this.settings = readSettings(await this.loadData());
    const host: ChatHost = {
      agent: () => this.agent(agentSettingsOf(this.settings, (id) => this.app.secretStorage.getSecret(id))),
      git: () => this.git,
      conversations: () => (this.port === null ? null : new ConversationStore(this.port, `${this.pluginDir()}/conversations`)),
    };
    this.registerView(CHAT_VIEW_TYPE, (leaf) => new ChatView(leaf, host));
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
    await this.saveData(this.settings);
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
    return createAgent({ ...this.agentParts, sandbox: this.sandboxInstance }, settings);
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
    if (!this.viewTypes.has(HISTORY_VIEW_TYPE)) {
      new Notice('Recursa: the agent history is not available yet.');
      return;
    }
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
    if (!(await confirmAction(this.app, 'Undo the last agent change?', `This reverts "${subject}" in a new commit.`, 'Undo'))) return;
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
    const options = await resolveMemOptions(port, { configDir: this.app.vault.configDir });
    if (await port.exists(cacheFile)) await port.remove(cacheFile);
    const parts = this.agentParts;
    if (this.unloaded || parts === null) return;
    this.graph?.close();
    this.sandboxInstance?.dispose();
    this.startIndex(port, options, parts.writeSet, parts.session);
    new Notice('Recursa: rebuilding the search index…');
    await this.graph?.build();
    await this.graph?.save();
    if (!this.unloaded) new Notice('Recursa: the search index is rebuilt.');
  }

  private async startCore(): Promise<void> {
    const port = new ObsidianVaultPort(this.app);
    const options = await resolveMemOptions(port, { configDir: this.app.vault.configDir });
    const writeSet = new WriteSet(port);
    let git: GitService | null = null;
    try {
      git = await GitService.open(port, writeSet, { configDir: this.app.vault.configDir });
    } catch (error) {
      // Without history the agent still works; its changes simply cannot be committed or undone.
      if (!this.unloaded) this.reportGitError(error);
    }
    if (this.unloaded) {
      git?.close();
      return;
    }
    this.git = git;
    git?.whenSnapshotDone().catch((error: unknown) => this.reportGitError(error));
    const session: MemSession = { runId: 'plugin' };
    this.port = port;
    this.agentParts = { app: this.app, port, git, writeSet, session, pluginDir: this.pluginDir() };
    this.startIndex(port, options, writeSet, session);
    void this.graph
      ?.build()
      .then(() => this.graph?.save())
      .catch((error: unknown) => {
        if (!this.unloaded) new Notice(`Recursa: the search index could not be built. ${errorText(error)}`);
      });
    this.registerInterval(window.setInterval(() => void this.graph?.save().catch(() => false), INDEX_SAVE_INTERVAL_MS));
  }

  /** A new index over the vault, and the `mem` and sandbox that use it. */
  private startIndex(port: ObsidianVaultPort, options: MemOptions, writeSet: WriteSet, session: MemSession): void {
    const hidden = new Set(['.git', '.trash', this.app.vault.configDir]);
    const graph = new GraphIndex(port, { skipFolder: (folder) => hidden.has(folder), cacheFile: `${this.pluginDir()}/graph-index.json` });
    this.graph = graph;
    this.memInstance = createMem(port, options, { writeSet, git: this.git, graph, session });
    this.sandboxInstance = new Sandbox(createBrowserSandboxWorker, this.memInstance.mem);
  }

  private stopCore(): void {
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
