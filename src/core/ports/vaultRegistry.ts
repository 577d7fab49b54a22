/** A vault Recursa has opened on this device. */
export interface RegisteredVault {
  /** The vault's absolute folder: its identity in the registry. */
  root: string;
  name: string;
  /** Its memory folder when it was last opened (vault-relative). */
  memoryFolder: string;
  /** ISO 8601. */
  lastOpened: string;
}

/** One memory note of another vault, read from disk. */
export interface ForeignMemoryFile {
  /** Path relative to that vault's root, with `/` separators. */
  path: string;
  text: string;
  mtime: number;
}

/**
 * The vaults Recursa has opened on this device, kept in a small file in the user's home folder, so
 * `mem.recall({ scope: 'all' })` can read their memory notes. Only desktop and the command line
 * have one; on mobile there is none (the port is `null`) and recall says it searched this vault alone.
 *
 * Edge rules: every method is `async`; a missing or unreadable registry file is an empty registry,
 * never an error; a registered vault that has disappeared gives no memory files.
 */
export interface VaultRegistry {
  /** Adds the vault, or refreshes its name, memory folder and `lastOpened`. */
  register(vault: { root: string; name: string; memoryFolder: string }): Promise<void>;
  /** Every registered vault, most recently opened first. */
  list(): Promise<RegisteredVault[]>;
  /** The `.md` files under the vault's memory folder. */
  readMemoryFiles(vault: RegisteredVault): Promise<ForeignMemoryFile[]>;
}

/** The few file operations a file-backed registry needs, over absolute paths. */
export interface RegistryFileSystem {
  /** Where the registry lives, e.g. `~/.recursa/vaults.json`. */
  readonly registryFile: string;
  /** The file's text, or null when it does not exist. */
  readText(path: string): Promise<string | null>;
  /** Writes the file whole, creating its folder. */
  writeText(path: string, text: string): Promise<void>;
  /** `.md` files under `folder` of the vault at `root` (at most `maxFiles`, each at most `maxBytes`); none when the folder is missing. */
  listMarkdown(root: string, folder: string, limits: { maxFiles: number; maxBytes: number }): Promise<ForeignMemoryFile[]>;
}
