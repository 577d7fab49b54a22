import type * as Obsidian from 'obsidian';
import type { TrashOption, Vault } from './vault';

/**
 * Obsidian's `FileManager`, for the members the plugin uses. `trashFile` follows the "Deleted
 * files" setting, `trashOption`: `local` (the default here, "Move to Obsidian trash": the file
 * goes to `.trash/` in the vault), `system` (falls back to `.trash/`, as tests have no system
 * trash) or `none` (deleted for good). `renameFile` moves the file but, unlike Obsidian, does not
 * rewrite links to it (there is no metadata cache here).
 */
export class FileManager implements Pick<Obsidian.FileManager, 'trashFile' | 'renameFile'> {
  trashOption: TrashOption = 'local';

  constructor(private readonly vault: Vault) {}

  async trashFile(file: Obsidian.TAbstractFile): Promise<void> {
    await this.vault.remove(file, this.trashOption);
  }

  async renameFile(file: Obsidian.TAbstractFile, newPath: string): Promise<void> {
    await this.vault.rename(file, newPath);
  }
}
