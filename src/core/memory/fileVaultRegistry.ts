import type { ForeignMemoryFile, RegisteredVault, RegistryFileSystem, VaultRegistry } from '../ports';

const FORMAT_VERSION = 1;
/** Oldest vaults are dropped beyond this many. */
const MAX_VAULTS = 100;
const MAX_FILES_PER_VAULT = 5000;
const MAX_NOTE_BYTES = 256 * 1024;

/**
 * The registry over a JSON file (`{version, vaults: [...]}`), for any platform that can reach the
 * user's home folder: Node for the command line, Electron's `fs` in desktop Obsidian.
 */
export function createFileVaultRegistry(fs: RegistryFileSystem, now: () => Date = () => new Date()): VaultRegistry {
  const read = async (): Promise<RegisteredVault[]> => {
    let data: unknown;
    try {
      const text = await fs.readText(fs.registryFile);
      if (text === null) return [];
      data = JSON.parse(text);
    } catch {
      return [];
    }
    const vaults = (data as { vaults?: unknown } | null)?.vaults;
    if (!Array.isArray(vaults)) return [];
    return vaults.filter(isRegisteredVault).slice(0, MAX_VAULTS);
  };
  return {
    async register(vault) {
      const others = (await read()).filter((entry) => entry.root !== vault.root);
      const entry: RegisteredVault = { root: vault.root, name: vault.name, memoryFolder: vault.memoryFolder, lastOpened: now().toISOString() };
      await fs.writeText(fs.registryFile, `${JSON.stringify({ version: FORMAT_VERSION, vaults: [entry, ...others].slice(0, MAX_VAULTS) }, null, 2)}\n`);
    },
    async list() {
      return (await read()).sort((a, b) => (a.lastOpened < b.lastOpened ? 1 : a.lastOpened > b.lastOpened ? -1 : 0));
    },
    async readMemoryFiles(vault): Promise<ForeignMemoryFile[]> {
      // The folder comes from a file anyone could edit: never let it climb out of the vault.
      const folder = vault.memoryFolder.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
      if (folder.split('/').some((part) => part === '..' || part === '.') || /^[a-z]:/i.test(folder)) return [];
      try {
        return await fs.listMarkdown(vault.root, folder, { maxFiles: MAX_FILES_PER_VAULT, maxBytes: MAX_NOTE_BYTES });
      } catch {
        return [];
      }
    },
  };
}

function isRegisteredVault(value: unknown): value is RegisteredVault {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.root === 'string' && entry.root !== '' && typeof entry.name === 'string' && typeof entry.memoryFolder === 'string' && typeof entry.lastOpened === 'string';
}
