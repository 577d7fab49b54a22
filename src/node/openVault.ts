import { basename } from 'node:path';
import type { AgentService } from '../core/agent/AgentService';
import type { AgentSettings } from '../core/agent/createAgentService';
import type { GitService, GitServiceOptions } from '../core/git/GitService';
import { MAX_INDEXED_NOTE_BYTES, type GraphIndex } from '../core/graph/GraphIndex';
import type { Mem, MemContext, MemOptions, MemSession, WriteSet } from '../core/mem';
import type { VaultRegistry } from '../core/ports';
import type { RunLimits } from '../core/sandbox/protocol';
import type { Sandbox } from '../core/sandbox/Sandbox';
import { VaultStack } from '../core/stack/VaultStack';
import { createNodeHttpTransport } from './nodeHttpTransport';
import { nodeDeflate } from './nodeDeflate';
import { createNodeSandboxWorker } from './nodeSandboxWorker';
import { NodeVaultPort } from './NodeVaultPort';

export interface OpenVaultOptions extends Partial<MemOptions> {
  /** Notice changes other programs make to the folder (recursive `fs.watch`). Default `true`. */
  watch?: boolean;
  /**
   * Keep the vault's history in git (default): the folder becomes a repository if it is not one,
   * and the agent's changes are committed. `false` opens the files alone.
   */
  git?: boolean | Partial<Omit<GitServiceOptions, 'configDir'>>;
  /** Index links, tags, properties and full text for the graph and search methods. Default `true`. */
  graph?: boolean;
  /**
   * The registry of vaults on this device (`createNodeVaultRegistry()`): the vault is registered
   * in it, and `mem.recall({ scope: 'all' })` reads the others. Default: none.
   */
  vaultRegistry?: VaultRegistry | null;
  /**
   * Told about a note larger than `MAX_INDEXED_NOTE_BYTES` (16 MiB), which the index holds the
   * beginning of only. Default: a line on stderr.
   */
  onPartialNote?: (path: string, size: number) => void;
  /**
   * Told when the index cannot be built in the background (the graph and search methods then fail
   * with the same error). Default: a line on stderr.
   */
  onIndexError?: (error: unknown) => void;
  /** Defaults for every sandbox run (time, memory, output, mem calls). */
  sandboxLimits?: Partial<RunLimits>;
}

export interface OpenedVault {
  /** The agent's API over the folder. */
  mem: Mem;
  /** What `mem` works with (its options, the write-set, the indexes), for the agent's memory. */
  context: MemContext;
  /** The vault's history, or null when opened with `git: false`. */
  git: GitService | null;
  /** The graph and full-text index (built in the background), or null when opened with `graph: false`. */
  graph: GraphIndex | null;
  /** The folder through the vault port `mem` uses. */
  port: NodeVaultPort;
  /** The agent's write-set (what `commitChanges` commits). */
  writeSet: WriteSet;
  /** Whose run `mem` calls belong to (names the run in commit trailers). */
  session: MemSession;
  /** Where agent code runs against `mem`: a Worker with SES, started on first use. */
  sandbox: Sandbox;
  /** The agent over this vault with `settings` (the provider, instructions, budgets). */
  agent: (settings: AgentSettings) => AgentService;
  /** Stops the sandbox and watching the folder. `mem` must not be used afterwards. */
  close: () => Promise<void>;
}

/**
 * Opens a folder as a vault, headless: the same `mem`, sandbox and agent the plugin has, over Node's fs.
 *
 * @example
 * const { mem, close } = await openVault('/path/to/vault');
 * console.log(await mem.listFiles());
 * await close();
 */
export async function openVault(dir: string, options: OpenVaultOptions = {}): Promise<OpenedVault> {
  const { watch, git, graph, vaultRegistry, onPartialNote, onIndexError, sandboxLimits, ...memOptions } = options;
  const port = await NodeVaultPort.open(dir, { watch: watch ?? true });
  let stack: VaultStack;
  try {
    stack = await VaultStack.open(port, {
      mem: memOptions,
      git: git === false ? false : { deflate: nodeDeflate, ...(git === true ? {} : git) },
      graph: graph === false ? false : { onPartialNote: onPartialNote ?? reportPartialNote },
      onIndexError: onIndexError ?? reportIndexError,
      session: { runId: 'headless' },
      vaultRegistry: vaultRegistry ?? null,
      sandbox: { createWorker: () => createNodeSandboxWorker(), ...(sandboxLimits === undefined ? {} : { limits: sandboxLimits }) },
      agent: { transport: createNodeHttpTransport, vaultName: basename(port.root) },
    });
  } catch (error) {
    port.close();
    throw error;
  }
  const sandbox = stack.sandbox as Sandbox;
  return {
    get mem() {
      return stack.mem;
    },
    get context() {
      return stack.context;
    },
    git: stack.git,
    get graph() {
      return stack.graph;
    },
    port,
    writeSet: stack.writeSet,
    session: stack.session,
    sandbox,
    agent: (settings) => stack.agent(settings) as AgentService,
    close: async () => {
      await stack.close();
      port.close();
    },
  };
}

function reportPartialNote(path: string, size: number): void {
  process.stderr.write(`recursa: "${path}" is ${formatMiB(size)}; search and the graph use its first ${formatMiB(MAX_INDEXED_NOTE_BYTES)} only.\n`);
}

function reportIndexError(error: unknown): void {
  process.stderr.write(`recursa: the search index could not be built (${error instanceof Error ? error.message : String(error)}); search and graph queries will fail until the vault is opened again.\n`);
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}
