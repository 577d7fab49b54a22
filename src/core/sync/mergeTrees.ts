import type { BlobRef } from '../git/treeEdit';
import { mergeLines } from '../git/threeWayMerge';
import { FILE_MODE } from '../git/treeObjects';
import { sortByCodePoints } from '../util/compareCodePoints';

/** A tree flattened to its files: path → blob and mode. */
export type FileMap = ReadonlyMap<string, BlobRef>;

export interface TreeMergeInput {
  /**
   * The files of each merge base: one normally, several after criss-cross merges, none for
   * histories with no common commit (every file then counts as added on its side).
   */
  bases: readonly FileMap[];
  ours: FileMap;
  theirs: FileMap;
  /** A blob's text, or null when it is binary. */
  readText(oid: string): Promise<string | null>;
  /** Stores a merged text; resolves to its blob id. */
  writeText(text: string): Promise<string>;
}

export interface TreeMergeResult {
  /** Every path whose merged entry differs from ours: its new blob, or null to remove it. Sorted. */
  changes: Map<string, BlobRef | null>;
  /**
   * Files both sides changed in ways that do not combine (overlapping lines, binary content, a
   * link, a file added on both sides differently): ours stays, theirs is to be kept beside it.
   */
  conflicts: { path: string; theirs: BlobRef }[];
}

/**
 * The 3-way merge of two trees, file by file (git's rules, without rename detection):
 *
 * - a file only one side changed takes that side's version (a deletion included);
 * - both changed it the same way: that version;
 * - one deleted it, the other modified it: the modified version stays (nothing is lost);
 * - both modified a text file: line-wise merge (`mergeLines`) against the base; if the edits
 *   overlap, or the file is binary, it is a conflict: ours stays and theirs is reported, for the
 *   caller to keep as a conflict copy.
 *
 * With several merge bases a version "unchanged" means equal to the file in any one of them, and
 * a line-wise merge needs the bases to agree on the file; otherwise it is a conflict. That never
 * drops a side's new content: each outcome is either one side's version, a line merge of both, or
 * a conflict that keeps both. (git's recursive strategy builds a virtual base by merging the bases
 * first; with conflict copies as the fallback, the simpler rule gives up only cases git would also
 * mark as conflicts or resolve from history alone.)
 */
export async function mergeTrees(input: TreeMergeInput): Promise<TreeMergeResult> {
  const { bases, ours, theirs } = input;
  const changes = new Map<string, BlobRef | null>();
  const conflicts: { path: string; theirs: BlobRef }[] = [];
  const paths = new Set<string>([...ours.keys(), ...theirs.keys()]);
  for (const base of bases) for (const path of base.keys()) paths.add(path);
  for (const path of sortByCodePoints([...paths])) {
    const mine = ours.get(path) ?? null;
    const other = theirs.get(path) ?? null;
    if (same(mine, other)) continue;
    const versions = bases.length === 0 ? [null] : bases.map((base) => base.get(path) ?? null);
    const unchanged = (entry: BlobRef | null): boolean => versions.some((version) => same(version, entry));
    if (unchanged(other) && unchanged(mine)) {
      // Only with several bases: each side kept a different base's version. Keep both.
      if (other !== null && mine !== null) conflicts.push({ path, theirs: other });
      else if (mine === null) changes.set(path, other);
      continue;
    }
    if (unchanged(other)) continue;
    if (unchanged(mine)) {
      changes.set(path, other);
      continue;
    }
    // Both changed it, differently.
    if (mine === null) {
      changes.set(path, other);
      continue;
    }
    if (other === null) continue;
    const merged = await mergeText(input, versions, mine, other);
    if (merged !== null) {
      if (!same(merged, mine)) changes.set(path, merged);
      continue;
    }
    conflicts.push({ path, theirs: other });
  }
  return { changes, conflicts };
}

async function mergeText(input: TreeMergeInput, versions: readonly (BlobRef | null)[], mine: BlobRef, other: BlobRef): Promise<BlobRef | null> {
  if (!isPlainFile(mine) || !isPlainFile(other)) return null;
  const first = versions[0] ?? null;
  // The bases must agree on the file, and it must have been there.
  if (first === null || !versions.every((version) => same(version, first)) || !isPlainFile(first)) return null;
  const [base, ours, theirs] = await Promise.all([first.oid, mine.oid, other.oid].map((oid) => input.readText(oid)));
  if (base === null || ours === null || theirs === null) return null;
  const text = mergeLines(base as string, ours as string, theirs as string);
  if (text === null) return null;
  // A mode both did not change stays; otherwise ours.
  return { oid: await input.writeText(text), mode: mine.mode === first.mode ? other.mode : mine.mode };
}

function isPlainFile(entry: BlobRef): boolean {
  return entry.mode === FILE_MODE || entry.mode === '100755';
}

function same(a: BlobRef | null | undefined, b: BlobRef | null | undefined): boolean {
  if (a === null || a === undefined) return b === null || b === undefined;
  return b !== null && b !== undefined && a.oid === b.oid && a.mode === b.mode;
}
