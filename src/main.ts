import { Notice, Plugin } from 'obsidian';
import { GitService } from './core/git/GitService';
import { GraphIndex } from './core/graph/GraphIndex';
import { isRecursaError } from './core/errors';
import { createMem, resolveMemOptions, WriteSet, type MemInstance } from './core/mem';
import { Sandbox } from './core/sandbox/Sandbox';
import type { AgentService } from './core/agent/AgentService';
import type { MemSession } from './core/mem/MemContext';
import { createBrowserSandboxWorker } from './obsidian/browserSandboxWorker';
import { createAgent, type AgentSettings } from './obsidian/createAgent';
import { ObsidianVaultPort } from './obsidian/ObsidianVaultPort';

/** Wires the Obsidian adapters into core. The UI arrives in its own modules. */
export default class RecursaPlugin extends Plugin {
  private memInstance: MemInstance | null = null;
  private git: GitService | null = null;
  private sandboxInstance: Sandbox | null = null;
  private graph: GraphIndex | null = null;
  private agentParts: Omit<Parameters<typeof createAgent>[0], 'sandbox'> | null = null;

  override async onload(): Promise<void> {
    // Vault events fire for every file while Obsidian starts; wait until the layout is ready.
    this.app.workspace.onLayoutReady(() => {
      void this.startCore();
    });
  }

  override onunload(): void {
    this.sandboxInstance?.dispose();
    // Best effort: the next start loads what was saved and re-reads only the notes changed since.
    void this.graph?.save().catch(() => false);
    this.graph?.close();
    this.git?.close();
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

  private async startCore(): Promise<void> {
    const port = new ObsidianVaultPort(this.app);
    const options = await resolveMemOptions(port, { configDir: this.app.vault.configDir });
    const writeSet = new WriteSet(port);
    try {
      this.git = await GitService.open(port, writeSet, { configDir: this.app.vault.configDir });
      this.git.whenSnapshotDone().catch((error: unknown) => this.reportGitError(error));
    } catch (error) {
      // Without history the agent still works; its changes simply cannot be committed or undone.
      this.reportGitError(error);
    }
    const session: MemSession = { runId: 'plugin' };
    const pluginDir = this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
    const hidden = new Set(['.git', '.trash', this.app.vault.configDir]);
    this.graph = new GraphIndex(port, { skipFolder: (folder) => hidden.has(folder), cacheFile: `${pluginDir}/graph-index.json` });
    void this.graph
      .build()
      .then(() => this.graph?.save())
      .catch((error: unknown) => new Notice(`Recursa: the search index could not be built. ${error instanceof Error ? error.message : String(error)}`));
    this.registerInterval(window.setInterval(() => void this.graph?.save().catch(() => false), 5 * 60_000));
    this.memInstance = createMem(port, options, { writeSet, git: this.git, graph: this.graph, session });
    this.sandboxInstance = new Sandbox(createBrowserSandboxWorker, this.memInstance.mem);
    this.agentParts = { app: this.app, port, git: this.git, writeSet, session, pluginDir };
  }

  private reportGitError(error: unknown): void {
    const message = isRecursaError(error) || error instanceof Error ? error.message : String(error);
    new Notice(`Recursa: version history is off. ${message}`, 10_000);
  }
}
