import { GitService, type GitServiceOptions } from '../core/git/GitService';
import { GraphIndex, MAX_INDEXED_NOTE_BYTES } from '../core/graph/GraphIndex';
import { createMem, resolveMemOptions, WriteSet, type Mem, type MemContext, type MemOptions, type MemSession } from '../core/mem';
import type { VaultRegistry } from '../core/ports';
import { basename } from 'node:path';
import { nodeDeflate } from './nodeDeflate';
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
  /** Stops watching the folder. `mem` must not be used afterwards. */
  close: () => Promise<void>;
}

/**
 * Opens a folder as a vault, headless: the same `mem` the plugin gives the agent, over Node's fs.
 *
 * @example
 * const { mem, close } = await openVault('/path/to/vault');
 * console.log(await mem.listFiles());
 * await close();
 */
export async function openVault(dir: string, options: OpenVaultOptions = {}): Promise<OpenedVault> {
  const { watch, git: gitOption, graph: graphOption, vaultRegistry, onPartialNote, onIndexError, ...memOptions } = options;
  const port = await NodeVaultPort.open(dir, { watch: watch ?? true });
  const resolved = await resolveMemOptions(port, memOptions);
  const writeSet = new WriteSet(port);
  let git: GitService | null = null;
  try {
    if (gitOption !== false) {
      git = await GitService.open(port, writeSet, { deflate: nodeDeflate, ...(gitOption === true ? {} : gitOption), configDir: resolved.configDir });
    }
  } catch (error) {
    port.close();
    throw error;
  }
  const session: MemSession = { runId: 'headless' };
  const hidden = new Set(['.git', '.trash', resolved.configDir]);
  // The index is built in the background and pauses while git works, so commits (and the first
  // snapshot) run at full speed meanwhile.
  const giveWay = (): Promise<void> => git?.whenIdle() ?? Promise.resolve();
  const graph = graphOption === false ? null : new GraphIndex(port, { skipFolder: (folder) => hidden.has(folder), giveWay, onPartialNote: onPartialNote ?? reportPartialNote });
  void graph?.build().catch(onIndexError ?? reportIndexError);
  const { mem, context } = createMem(port, resolved, { writeSet, git, graph, session, vaultRegistry: vaultRegistry ?? null });
  // The registry is a convenience for recall across vaults; failing to update it must not stop the vault opening.
  await vaultRegistry?.register({ root: port.root, name: basename(port.root), memoryFolder: resolved.memoryFolder }).catch(() => undefined);
  return {
    mem,
    context,
    git,
    graph,
    port,
    writeSet,
    session,
    close: async () => {
      await git?.whenSnapshotDone().catch(() => null);
      await graph?.build().catch(() => undefined);
      graph?.close();
      git?.close();
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
