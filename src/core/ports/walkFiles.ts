import type { VaultPort } from './vault';

/**
 * Every file under `folder` (`''` for the whole vault), depth first, as full vault-relative
 * paths. `enter` decides whether to descend into a subfolder (e.g. to skip `.git`).
 */
export async function walkFiles(vault: VaultPort, folder: string, enter: (folder: string) => boolean = () => true): Promise<string[]> {
  const files: string[] = [];
  const visit = async (path: string): Promise<void> => {
    const listing = await vault.list(path);
    files.push(...listing.files);
    for (const child of listing.folders) if (enter(child)) await visit(child);
  };
  await visit(folder);
  return files;
}
