import { createMem, resolveMemOptions, type Mem, type MemOptions } from '../core/mem';
import { NodeVaultPort } from './NodeVaultPort';

export interface OpenVaultOptions extends Partial<MemOptions> {
  /** Notice changes other programs make to the folder (recursive `fs.watch`). Default `true`. */
  watch?: boolean;
}

export interface OpenedVault {
  /** The agent's API over the folder. */
  mem: Mem;
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
  const { watch, ...memOptions } = options;
  const port = await NodeVaultPort.open(dir, { watch: watch ?? true });
  const resolved = await resolveMemOptions(port, memOptions);
  const { mem } = createMem(port, resolved);
  return {
    mem,
    close: async () => port.close(),
  };
}
