import type { Slicer } from '../util/Slicer';
import type { VaultPort } from './vault';

/**
 * Every file under `folder` (`''` for the whole vault), depth first, as full vault-relative
 * paths. `enter` decides whether to descend into a subfolder (e.g. to skip `.git`). Symbolic
 * links are neither listed nor entered, so a link loop cannot make the walk endless. With a
 * `slicer`, the walk gives the app its turn between folders (see `walkEntries`).
 */
export async function walkFiles(vault: VaultPort, folder: string, enter: (folder: string) => boolean = () => true, slicer?: Slicer): Promise<string[]> {
  return (await walkEntries(vault, folder, enter, slicer)).files;
}

/**
 * Every file and every symbolic link under `folder` (`''` for the whole vault), depth first, as
 * full vault-relative paths: what git records (a link is a blob holding its target). Links are
 * never entered. `enter` decides whether to descend into a subfolder. With a `slicer`, the walk
 * gives the app its turn between folders: a port whose listings resolve at once would otherwise
 * walk a large vault in one task.
 */
export async function walkEntries(
  vault: VaultPort,
  folder: string,
  enter: (folder: string) => boolean = () => true,
  slicer?: Slicer,
): Promise<{ files: string[]; links: string[] }> {
  const files: string[] = [];
  const links: string[] = [];
  const visit = async (path: string): Promise<void> => {
    const listing = await vault.list(path);
    files.push(...listing.files);
    links.push(...listing.links);
    for (const child of listing.folders) {
      await slicer?.maybeYield();
      if (enter(child)) await visit(child);
    }
  };
  await visit(folder);
  return { files, links };
}
