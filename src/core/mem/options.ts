import type { PathPolicy } from '../paths/pathPolicy';
import { DEFAULT_PATH_POLICY } from '../paths/pathPolicy';
import type { VaultPort } from '../ports';

/** Settings of the `mem` API. Every field has a default in `DEFAULT_MEM_OPTIONS`. */
export interface MemOptions {
  /** Obsidian's config folder (`vault.configDir`); `mem` never reads or writes inside it. */
  configDir: string;
  /** Vault folders the agent may not touch (a user setting). */
  protectedFolders: readonly string[];
  /**
   * Let agent code write, move and delete the files that steer git and the agent
   * (`.gitignore`, `.gitattributes`, `.gitmodules`, the vault's `AGENTS.md`). A user setting;
   * default false.
   */
  editProtectedFiles: boolean;
  /**
   * Validate `.md` content against Logseq's block rules before writing. When not given, on if
   * the vault has `logseq/config.edn`.
   */
  logseq: boolean;
  /** Largest file `readFile` and the token counters read whole, in bytes. Default 4 MiB. */
  maxReadBytes: number;
  /** Largest content one `writeFile`/`updateFile`/`replaceInFile` may write, in bytes. Default 4 MiB. */
  maxWriteBytes: number;
  /** Most paths `getTokenCountForPaths` takes in one call. Default 1000. */
  maxPathsPerCall: number;
  /** Where `remember` writes memory notes and `recall` reads them (a user setting). Default `Memories/`. */
  memoryFolder: string;
  /** The note that holds the working memory (a user setting). Default `Memories/Working memory.md`. */
  workingMemoryNote: string;
  /** Most characters of the working memory, counted as compact JSON. Default 2048. */
  workingMemoryCharLimit: number;
  /** Most direct children of any working-memory node. Default 8. */
  workingMemoryChildLimit: number;
}

export const DEFAULT_MEM_OPTIONS: MemOptions = {
  configDir: DEFAULT_PATH_POLICY.configDir,
  protectedFolders: DEFAULT_PATH_POLICY.protectedFolders,
  editProtectedFiles: false,
  logseq: false,
  maxReadBytes: 4 * 1024 * 1024,
  maxWriteBytes: 4 * 1024 * 1024,
  maxPathsPerCall: 1000,
  memoryFolder: 'Memories/',
  workingMemoryNote: 'Memories/Working memory.md',
  workingMemoryCharLimit: 2048,
  workingMemoryChildLimit: 8,
};

/** The file that marks a Logseq graph. */
export const LOGSEQ_CONFIG_PATH = 'logseq/config.edn';

/** Merges `options` over the defaults; Logseq mode, when not given, follows the vault. */
export async function resolveMemOptions(vault: VaultPort, options: Partial<MemOptions> = {}): Promise<MemOptions> {
  const logseq = options.logseq ?? (await vault.exists(LOGSEQ_CONFIG_PATH));
  return { ...DEFAULT_MEM_OPTIONS, ...stripUndefined(options), logseq };
}

export function pathPolicyOf(options: MemOptions): PathPolicy {
  return { configDir: options.configDir, protectedFolders: options.protectedFolders };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
