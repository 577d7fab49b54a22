import { fromPlatformError, isMissingPathError, platformErrorCode } from '../errors';
import { sortByCodePoints } from '../util/compareCodePoints';
import type { VaultListing } from './vault';

/** A directory entry as `fs.readdir(folder, { withFileTypes: true })` gives it (Node, Electron). */
export interface DirectoryEntry {
  name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/**
 * The port's listing of `folder` from its directory entries: links apart and never followed (nor
 * their targets looked at: `ln -s . loop` would make every walk endless), each list sorted.
 */
export function listingOf(folder: string, entries: readonly DirectoryEntry[]): VaultListing {
  const listing: VaultListing = { files: [], folders: [], links: [] };
  for (const entry of entries) {
    const child = folder === '' ? entry.name : `${folder}/${entry.name}`;
    (entry.isSymbolicLink() ? listing.links : entry.isDirectory() ? listing.folders : listing.files).push(child);
  }
  sortByCodePoints(listing.files);
  sortByCodePoints(listing.folders);
  sortByCodePoints(listing.links);
  return listing;
}

/** A link's text from `read` (`fs.readlink`), or null when `path` is not a link (EINVAL) or nothing is there. */
export async function readLinkOrNull(path: string, read: () => Promise<string>): Promise<string | null> {
  try {
    return await read();
  } catch (error) {
    if (platformErrorCode(error) === 'EINVAL' || isMissingPathError(error)) return null;
    throw fromPlatformError('readLink', path, error);
  }
}
