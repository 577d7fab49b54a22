import type { AgentService } from '../agent/AgentService';
import { createAgentService, type AgentSettings } from '../agent/createAgentService';
import { GitService, type GitServiceOptions } from '../git/GitService';
import { GraphIndex } from '../graph/GraphIndex';
import { createMem, MEM_METHOD_NAMES, type Mem, type MemInstance, type RunScopedMem } from '../mem/createMem';
import type { MemContext, MemSession } from '../mem/MemContext';
import { resolveMemOptions, type MemOptions } from '../mem/options';
import { WriteSet } from '../mem/WriteSet';
import { walkFiles, type HttpTransport, type VaultPort, type VaultRegistry } from '../ports';
import { Sandbox, type SandboxOptions } from '../sandbox/Sandbox';
import type { SandboxWorkerFactory } from '../sandbox/protocol';
import { sleep } from '../util/sleep';

/** The graph index's options that an entry point chooses (the rest the stack sets). */
export type StackGraphOptions = Omit<NonNullable<ConstructorParameters<typeof GraphIndex>[1]>, 'skipFolder' | 'giveWay'>;

/** How the agent reaches its model and where it keeps its files: what differs between Obsidian and Node. */
export interface StackAgentHost {
  /** Obsidian's `requestUrl` or Node's `http`; asked for when an agent is made. */
  transport: () => HttpTransport;
  /** The vault's name, for the prompt's runtime context. */
  vaultName: string;
  /** Recursa's folder for conversations, the action log and the index cache. Default `<configDir>/plugins/recursa`. */
  dataDir?: string;
  /** The number of notes, for the prompt's runtime context. Default: the Markdown files outside hidden folders. */
  noteCount?: () => number | Promise<number>;
}

export interface VaultStackOptions {
  /** `mem`'s options (the config folder, protected folders, memory notes…); the rest are defaults. */
  mem?: Partial<MemOptions>;
  /** The vault's history: options for git, or `false` to open the files alone. */
  git?: false | Partial<Omit<GitServiceOptions, 'configDir'>>;
  /**
   * Told when the history cannot be opened; the vault then opens without it (the agent works, its
   * changes cannot be committed or undone). Without it the error is thrown.
   */
  onGitError?: (error: unknown) => void;
  /** The graph and full-text index, built in the background; `false` for none. */
  graph?: false | StackGraphOptions;
  /** Told when the index cannot be built (the graph and search methods then fail with the same error). */
  onIndexError?: (error: unknown) => void;
  /** How long git must have had nothing to do before a built index is saved (with a `cacheFile`). Default 5 s. */
  saveIndexAfterQuietMs?: number;
  /** Whose run `mem` calls belong to. */
  session: MemSession;
  /** The vaults Recursa has opened on this device; this one is registered in it. */
  vaultRegistry?: VaultRegistry | null;
  /** Where the agent's code runs; without it the stack has no sandbox and no agent. */
  sandbox?: { createWorker: SandboxWorkerFactory } & SandboxOptions;
  /** What the agent needs from the platform; without it the stack has no agent. */
  agent?: StackAgentHost;
}

/** Recursa's own folder inside the config folder, as the plugin has it: `.obsidian/plugins/recursa`. */
export function recursaDataDir(configDir: string): string {
  return `${configDir}/plugins/recursa`;
}

/**
 * Everything Recursa runs over one vault — the write-set, git, the index, `mem`, the sandbox and
 * the agent — put together in one place from a vault port and options. The plugin, the library,
 * the command line and the MCP server all open their vault through `VaultStack.open`; they differ
 * only in the port and the options they pass.
 */
export class VaultStack {
  private instance: MemInstance;
  private index: GraphIndex | null;
  /** Set by `close`: the close under way or done. */
  private closed: Promise<void> | null = null;
  /** Aborted on close: ends the wait for a quiet moment to save the index in. */
  private readonly closing = new AbortController();
  /** The sandbox runs each request against the `mem` of the moment, which `setMemOptions` may replace. */
  private readonly currentMem: RunScopedMem = { forRun: (scope) => (this.closed ? CLOSED_MEM : this.instance.forRun(scope)) };
  readonly sandbox: Sandbox | null;

  private constructor(
    readonly port: VaultPort,
    readonly writeSet: WriteSet,
    readonly git: GitService | null,
    private readonly options: VaultStackOptions,
    memOptions: MemOptions,
  ) {
    this.index = this.newIndex(memOptions);
    this.instance = this.newMem(memOptions);
    const sandbox = options.sandbox;
    this.sandbox = sandbox === undefined ? null : new Sandbox(sandbox.createWorker, this.currentMem, { hostPaths: [port.root], ...sandbox });
  }

  /** Opens the stack over `port`: the history first (the first snapshot starts), then the index in the background. */
  static async open(port: VaultPort, options: VaultStackOptions): Promise<VaultStack> {
    const memOptions = await resolveMemOptions(port, options.mem);
    const writeSet = new WriteSet(port);
    const git = await openGit(port, writeSet, memOptions.configDir, options);
    const stack = new VaultStack(port, writeSet, git, options, memOptions);
    stack.buildIndex();
    // The registry is a convenience for recall across vaults; failing to update it must not stop the vault opening.
    await options.vaultRegistry?.register({ root: port.root, name: options.agent?.vaultName ?? port.root, memoryFolder: memOptions.memoryFolder }).catch(() => undefined);
    return stack;
  }

  /** The agent's API over the vault, with the options of the moment. */
  get mem(): Mem {
    return this.instance.mem;
  }

  /** What `mem` works with (its options, the write-set, the indexes). */
  get context(): MemContext {
    return this.instance.context;
  }

  /** `mem` that binds each run to the `mem` of the moment (what the sandbox uses). */
  get runScopedMem(): RunScopedMem {
    return this.currentMem;
  }

  get graph(): GraphIndex | null {
    return this.index;
  }

  get session(): MemSession {
    return this.options.session;
  }

  get dataDir(): string {
    return this.options.agent?.dataDir ?? recursaDataDir(this.context.options.configDir);
  }

  /** The agent over this vault with `settings` (provider, instructions, budgets); null without a sandbox or agent host. */
  agent(settings: AgentSettings): AgentService | null {
    const host = this.options.agent;
    if (host === undefined || this.sandbox === null || this.closed) return null;
    return createAgentService(
      {
        port: this.port,
        sandbox: this.sandbox,
        git: this.git,
        writeSet: this.writeSet,
        session: this.session,
        mem: this.instance,
        dataDir: this.dataDir,
        transport: host.transport(),
        vaultName: host.vaultName,
        noteCount: host.noteCount ?? (() => countNotes(this.port)),
      },
      settings,
    );
  }

  /**
   * A new `mem` over the same index after its options changed (a folder made protected, another
   * memory folder). A run under way keeps the `mem` it started with; the next one obeys the new options.
   */
  async setMemOptions(options: Partial<MemOptions>): Promise<void> {
    const resolved = await resolveMemOptions(this.port, options);
    if (!this.closed) this.instance = this.newMem(resolved);
  }

  /** Forgets the saved index and builds it again from the notes. */
  async rebuildIndex(): Promise<void> {
    if (this.options.graph === false || this.closed) return;
    const cacheFile = this.options.graph?.cacheFile;
    if (cacheFile !== undefined && (await this.port.exists(cacheFile))) await this.port.remove(cacheFile);
    this.index?.close();
    this.index = this.newIndex(this.context.options);
    this.instance = this.newMem(this.context.options);
    await this.index?.build();
    await this.saveIndex();
  }

  /** Saves the index to its cache file, when it has one; false when there was nothing to save. */
  async saveIndex(): Promise<boolean> {
    if (this.index === null || this.options.graph === false || this.options.graph?.cacheFile === undefined) return false;
    return this.index.save();
  }

  /**
   * Stops the sandbox, the index and the history. With `finishWork` (the default) it first waits for
   * the first snapshot and the index build; without, it stops at once (an app shutting down), and
   * the next start picks up where this one left off. `mem` must not be used afterwards. A second
   * call waits for the first to end.
   */
  close({ finishWork = true }: { finishWork?: boolean } = {}): Promise<void> {
    return (this.closed ??= this.closeNow(finishWork));
  }

  private async closeNow(finishWork: boolean): Promise<void> {
    this.closing.abort();
    this.sandbox?.dispose();
    if (finishWork) {
      await this.git?.whenSnapshotDone().catch(() => null);
      await this.index?.build().catch(() => undefined);
    }
    // Best effort: the next start loads what was saved and re-reads only the notes changed since.
    await this.saveIndex().catch(() => false);
    this.index?.close();
    this.git?.close();
  }

  private newIndex(memOptions: MemOptions): GraphIndex | null {
    const graphOptions = this.options.graph;
    if (graphOptions === false) return null;
    const hidden = new Set(['.git', '.trash', memOptions.configDir]);
    return new GraphIndex(this.port, {
      ...graphOptions,
      skipFolder: (folder) => hidden.has(folder),
      // The index pauses while git works, so commits (and the first snapshot) run at full speed meanwhile.
      giveWay: () => this.git?.whenIdle() ?? Promise.resolve(),
    });
  }

  private newMem(memOptions: MemOptions): MemInstance {
    return createMem(this.port, memOptions, { writeSet: this.writeSet, git: this.git, graph: this.index, session: this.session, vaultRegistry: this.options.vaultRegistry ?? null });
  }

  /** Saves the index once git has been idle for `QUIET_BEFORE_SAVE_MS` (at once without git); not after a close. */
  private async saveWhenQuiet(index: GraphIndex): Promise<void> {
    const git = this.git;
    for (let seen = -1; git !== null && !this.closed && seen !== git.operationsStarted; ) {
      await git.whenIdle();
      seen = git.operationsStarted;
      await sleep(this.options.saveIndexAfterQuietMs ?? QUIET_BEFORE_SAVE_MS, this.closing.signal);
    }
    if (this.closed || this.index !== index) return;
    await this.saveIndex();
  }

  private buildIndex(): void {
    const index = this.index;
    if (index === null) return;
    index
      .build()
      .then(() => this.saveWhenQuiet(index))
      .catch((error: unknown) => {
        if (!this.closed && this.index === index) this.options.onIndexError?.(error);
      });
  }
}

/**
 * After a build the index is saved once git has had nothing to do for this long. Saving a large
 * index is seconds of work in slices; started at once, it competed with the first commits of a
 * user (or agent) already at work, each of which could wait out a slice.
 */
const QUIET_BEFORE_SAVE_MS = 5_000;

async function openGit(port: VaultPort, writeSet: WriteSet, configDir: string, options: VaultStackOptions): Promise<GitService | null> {
  if (options.git === false) return null;
  try {
    return await GitService.open(port, writeSet, { ...options.git, configDir });
  } catch (error) {
    if (options.onGitError === undefined) throw error;
    options.onGitError(error);
    return null;
  }
}

async function countNotes(port: VaultPort): Promise<number> {
  return (await walkFiles(port, '', (folder) => !folder.startsWith('.'))).filter((path) => path.endsWith('.md')).length;
}

/** The `mem` of a vault Recursa has closed: every call says so. */
const CLOSED_MEM = Object.fromEntries(
  MEM_METHOD_NAMES.map((name) => [name, (): Promise<never> => Promise.reject(new Error('Recursa has closed this vault.'))]),
) as unknown as Mem;
