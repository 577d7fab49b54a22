import { resolveLinks } from '../paths/resolveLinks';
import { decodeText } from '../text/decodeText';
import { sortByCodePoints } from '../util/compareCodePoints';
import type { GitRepository } from './repository';
import { mergeLines } from './threeWayMerge';

/**
 * Undoing a change without overwriting others: for each file, the change from `base` (what the
 * undone change left) to `target` (what was there before it) is applied to `current` (what is
 * there now) — whole when the file is still as the change left it, line by line (3-way) when it
 * was edited since, and not at all (a conflict) when the edits touch the same lines or the file is
 * binary (as `decodeText` judges it; a byte-order mark is kept), or is now reached through a
 * symbolic link (a restore never writes through one, wherever it leads). `revertCommit`,
 * `discardChanges` and checkpoints share it.
 */

/** A planned write: the new bytes of a file, or null to remove it. */
export interface PlannedWrite {
  path: string;
  content: Uint8Array | null;
}

/** The three versions of one file, as blob ids (null: no file). */
export interface RestoreSides {
  base: string | null;
  target: string | null;
  current: string | null;
}

/** Stands for an unknown earlier content: never equal to a blob id, and never merged. */
export const UNKNOWN_BASE = 'unknown';

/** What to write for each path, or the paths that cannot be restored without overwriting someone's edit. */
export async function planRestore(
  repo: GitRepository,
  paths: readonly string[],
  sides: (path: string) => Promise<RestoreSides>,
): Promise<{ writes: PlannedWrite[]; conflicts: string[] }> {
  const writes: PlannedWrite[] = [];
  const conflicts: string[] = [];
  for (const path of paths) {
    const resolution = await resolveLinks(repo.vault, path, { followLast: true });
    if (resolution.kind !== 'inside' || resolution.path !== path) {
      conflicts.push(path);
      continue;
    }
    const { base, target, current } = await sides(path);
    if (current === target) continue;
    if (current === base) {
      writes.push({ path, content: target === null ? null : await repo.store.readBlob(target) });
      continue;
    }
    const known = base !== null && base !== UNKNOWN_BASE && target !== null && current !== null;
    const merged = known ? await mergeBlobs(repo, base, current, target) : null;
    if (merged === null) conflicts.push(path);
    else writes.push({ path, content: merged });
  }
  return { writes, conflicts: sortByCodePoints(conflicts) };
}

/** Writes the planned contents; a removal removes the file only, and then the folders it leaves empty. */
export async function applyRestore(repo: GitRepository, writes: readonly PlannedWrite[]): Promise<void> {
  const vault = repo.vault;
  for (const { path, content } of writes) {
    if (content !== null) {
      await vault.writeBinary(path, content);
      continue;
    }
    if ((await vault.stat(path))?.kind === 'file') await vault.remove(path);
    for (let folder = parentOf(path); folder !== ''; folder = parentOf(folder)) {
      const listing = await vault.list(folder).catch(() => null);
      if (listing === null || listing.files.length + listing.folders.length + listing.links.length > 0) break;
      await vault.remove(folder);
    }
  }
}

async function mergeBlobs(repo: GitRepository, base: string, current: string, target: string): Promise<Uint8Array | null> {
  const texts = await Promise.all([base, current, target].map(async (oid) => decodeText(await repo.store.readBlob(oid))));
  if (texts.some((text) => text === null)) return null;
  const merged = mergeLines(texts[0] as string, texts[1] as string, texts[2] as string);
  return merged === null ? null : new TextEncoder().encode(merged);
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}
