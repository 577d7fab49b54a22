/**
 * Which lines of a file changed between two versions: a shortest line diff from jsdiff (Myers'
 * algorithm), with each inserted or deleted run then moved to the most readable of the places it
 * could equally be shown (see {@link lineChanges}).
 */
import { diffArrays } from 'diff';

/** One version of a file, as {@link lineChanges} needs it. */
export interface SideLines {
  /** One number per line; two lines are equal exactly when their numbers are. */
  ids: readonly number[];
  /** The width of a line's leading whitespace; `Infinity` for a blank line. Only asked for a few lines. */
  indent: (line: number) => number;
}

/** A run of changes: old lines `oldStart` to `oldEnd` (exclusive) became new lines `newStart` to `newEnd`. */
export interface ChangeBlock {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/**
 * jsdiff's Myers diff slows with the square of the edit length (the number of lines to insert or
 * delete), and with the file's length when it repeats lines. It searches for at most this many
 * edits: enough for a note rewritten from end to end; past it the differing middle becomes one block
 * (still correct, just not the shortest).
 */
const MAX_EDIT_LENGTH = 2_000;
/** Lines × edit length searched, at most: long files get fewer edits, down to {@link MIN_EDIT_LENGTH}. */
const DIFF_WORK_BUDGET = 10_000_000;
/** The fewest edits searched for, however long the file. */
const MIN_EDIT_LENGTH = 200;

/**
 * The changed runs between two versions of a file, in order, as a shortest diff.
 *
 * Lines shared at both ends are set aside and the middle is diffed by jsdiff. A run of inserted
 * (or deleted) lines can often sit in several places with the same result — inserting `b` after
 * `a b` is also inserting it between them — so each run is then moved to the place that, in this
 * order of importance, (1) is beside a change on the other side, so that both read as one
 * replacement, (2) starts with the least indented line, blank lines counting as the most indented,
 * (3) is lowest in the file. These rules are ours; they agree with git's choice in most but not
 * all cases. When jsdiff gives up (see MAX_EDIT_LENGTH), the whole middle is one block.
 *
 * @param before the old version's lines.
 * @param after the new version's lines.
 * @returns the changed runs, top to bottom, separated by at least one unchanged line.
 */
export function lineChanges(before: SideLines, after: SideLines): ChangeBlock[] {
  const oldIds = before.ids;
  const newIds = after.ids;
  let head = 0;
  while (head < oldIds.length && head < newIds.length && oldIds[head] === newIds[head]) head++;
  let tail = 0;
  while (
    tail < oldIds.length - head &&
    tail < newIds.length - head &&
    oldIds[oldIds.length - 1 - tail] === newIds[newIds.length - 1 - tail]
  ) {
    tail++;
  }
  const oldMiddle = oldIds.slice(head, oldIds.length - tail);
  const newMiddle = newIds.slice(head, newIds.length - tail);
  if (oldMiddle.length === 0 && newMiddle.length === 0) return [];

  const size = oldMiddle.length + newMiddle.length;
  const maxEditLength = Math.min(MAX_EDIT_LENGTH, Math.max(MIN_EDIT_LENGTH, Math.floor(DIFF_WORK_BUDGET / size)));
  const changes = fewestEdits(oldMiddle, newMiddle) > maxEditLength ? undefined : diffArrays(oldMiddle, newMiddle, { maxEditLength });
  if (changes === undefined) return [{ oldStart: head, oldEnd: head + oldMiddle.length, newStart: head, newEnd: head + newMiddle.length }];

  const oldChanged = new Uint8Array(oldIds.length);
  const newChanged = new Uint8Array(newIds.length);
  let oldAt = head;
  let newAt = head;
  for (const change of changes) {
    if (change.removed) oldChanged.fill(1, oldAt, (oldAt += change.count));
    else if (change.added) newChanged.fill(1, newAt, (newAt += change.count));
    else {
      oldAt += change.count;
      newAt += change.count;
    }
  }
  placeRuns(before, oldChanged, runPositions(newChanged));
  placeRuns(after, newChanged, runPositions(oldChanged));
  return blocksOf(oldChanged, newChanged);
}

/**
 * A lower bound on the edit length, to skip a search that cannot succeed: every insertion or
 * deletion changes how often one line occurs by one.
 */
function fewestEdits(oldIds: readonly number[], newIds: readonly number[]): number {
  const balance = new Map<number, number>();
  for (const id of oldIds) balance.set(id, (balance.get(id) ?? 0) + 1);
  for (const id of newIds) balance.set(id, (balance.get(id) ?? 0) - 1);
  let edits = 0;
  for (const count of balance.values()) edits += Math.abs(count);
  return edits;
}

/**
 * Where the changed runs of one side are, each counted as the number of unchanged lines above it.
 * Unchanged lines pair up in order, so a run on one side and a run on the other with the same
 * count sit at the same place and print as one block.
 */
function runPositions(changed: Uint8Array): Set<number> {
  const positions = new Set<number>();
  let unchanged = 0;
  for (let line = 0; line < changed.length; line++) {
    if (changed[line] === 0) unchanged++;
    else if (line === 0 || changed[line - 1] === 0) positions.add(unchanged);
  }
  return positions;
}

/**
 * Moves each changed run of one side to its best place (see {@link lineChanges}). A run `s..e`
 * can move down one line when line `s` equals line `e`: `s` becomes unchanged and `e` changed,
 * and the unchanged lines, read in order, stay the same, so they still pair with the other side's.
 * Moving up is the mirror image. A run that meets another merges with it.
 */
function placeRuns(side: SideLines, changed: Uint8Array, otherRuns: ReadonlySet<number>): void {
  const { ids } = side;
  let line = 0;
  /** Unchanged lines above `line`. */
  let unchanged = 0;
  while (line < ids.length) {
    if (changed[line] === 0) {
      line++;
      unchanged++;
      continue;
    }
    let start = line;
    let end = line;
    while (end < ids.length && changed[end] === 1) end++;

    // To the top first.
    while (start > 0 && changed[start - 1] === 0 && ids[start - 1] === ids[end - 1]) {
      start--;
      end--;
      changed[start] = 1;
      changed[end] = 0;
      unchanged--;
      while (start > 0 && changed[start - 1] === 1) start--;
    }

    // Then down one line at a time, noting each place and the two lines each move flipped.
    const places = [{ start, end }];
    const flips: [number, number][] = [];
    let best = 0;
    let bestRank = rank(side, start, otherRuns.has(unchanged));
    while (end < ids.length && changed[end] === 0 && ids[start] === ids[end]) {
      changed[start] = 0;
      changed[end] = 1;
      flips.push([start, end]);
      start++;
      end++;
      while (end < ids.length && changed[end] === 1) end++;
      places.push({ start, end });
      const placeRank = rank(side, start, otherRuns.has(unchanged + flips.length));
      if (placeRank[0] < bestRank[0] || (placeRank[0] === bestRank[0] && placeRank[1] <= bestRank[1])) {
        best = flips.length;
        bestRank = placeRank;
      }
    }
    // Back up to the best place.
    for (let step = flips.length - 1; step >= best; step--) {
      const [madeUnchanged, madeChanged] = flips[step] as [number, number];
      changed[madeUnchanged] = 1;
      changed[madeChanged] = 0;
    }
    const chosen = places[best] as { start: number; end: number };
    unchanged += best;
    line = chosen.end;
  }
}

/** How good a place for a run starting at `start` is: lower is better, compared in order. */
function rank(side: SideLines, start: number, besideOtherRun: boolean): [number, number] {
  return [besideOtherRun ? 0 : 1, side.indent(start)];
}

/** The change blocks read off both sides' changed-line marks. */
function blocksOf(oldChanged: Uint8Array, newChanged: Uint8Array): ChangeBlock[] {
  const blocks: ChangeBlock[] = [];
  let oldAt = 0;
  let newAt = 0;
  while (oldAt < oldChanged.length || newAt < newChanged.length) {
    if (oldChanged[oldAt] !== 1 && newChanged[newAt] !== 1) {
      oldAt++;
      newAt++;
      continue;
    }
    const block = { oldStart: oldAt, oldEnd: oldAt, newStart: newAt, newEnd: newAt };
    while (oldChanged[oldAt] === 1) oldAt++;
    while (newChanged[newAt] === 1) newAt++;
    block.oldEnd = oldAt;
    block.newEnd = newAt;
    blocks.push(block);
  }
  return blocks;
}
