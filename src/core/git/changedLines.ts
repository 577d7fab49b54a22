import { readAgentTrailer } from './commitObjects';
import type { GitRepository } from './repository';
import { formatGitDiff } from './unifiedDiff';

/** Lines `from` to `to` (1-based, inclusive) of a file. */
export interface LineRange {
  from: number;
  to: number;
  /** `added`: new lines; `modified`: lines that replaced others; `deleted`: lines were removed just above line `from` (then `to === from`). */
  kind: 'added' | 'modified' | 'deleted';
}

/** The agent's most recent commit to a file and the lines it changed there. */
export interface AgentLineChanges {
  hash: string;
  /** The commit message without the run trailer. */
  message: string;
  run: string;
  /** Authored, in milliseconds since the epoch. */
  time: number;
  /** In the current content (lines the user changed since are left out), sorted, not overlapping. */
  ranges: LineRange[];
}

/** One `@@ -oldStart,oldCount +newStart,newCount @@` of a diff. */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

export interface AgentLineChangesOptions {
  /** Most commits looked at, along first parents from HEAD. Default 2000. */
  maxScanned?: number;
}

/**
 * Finds the agent's most recent commit that changed `path` (following first parents from HEAD)
 * and the lines it added or changed, from its diff against its parent. With `current` (the text
 * as it is now, in the editor), the lines are moved to where they are in it, and lines changed
 * since are dropped. Null when no agent commit changed the file within `maxScanned` commits, or
 * it was deleted there.
 */
export async function agentLineChanges(
  repo: GitRepository,
  path: string,
  current: string | null,
  options: AgentLineChangesOptions = {},
): Promise<AgentLineChanges | null> {
  const maxScanned = options.maxScanned ?? 2_000;
  let oid = (await repo.head()).oid;
  for (let scanned = 0; oid !== null && scanned < maxScanned; scanned++) {
    const commit = await repo.readCommit(oid);
    const parent = commit.parents[0] ?? null;
    const { message, run } = readAgentTrailer(commit.message);
    if (run !== null) {
      const after = await repo.trees.lookup(commit.tree, path);
      const before = await repo.trees.lookup(await repo.treeOf(parent), path);
      if (after?.oid !== before?.oid) {
        if (after === null) return null;
        const newBytes = await repo.store.readBlob(after.oid);
        const oldBytes = before === null ? null : await repo.store.readBlob(before.oid);
        let ranges = changedRanges(oldBytes, newBytes, path);
        if (current !== null) ranges = moveRanges(ranges, newBytes, new TextEncoder().encode(current), path);
        return { hash: oid, message, run, time: commit.author.timestamp * 1000, ranges };
      }
    }
    oid = parent;
  }
  return null;
}

/** The ranges of `after` that differ from `before` (null: the file is new, every line is added). */
export function changedRanges(before: Uint8Array | null, after: Uint8Array, path = 'file'): LineRange[] {
  const lineCount = countLines(after);
  const ranges: LineRange[] = [];
  for (const hunk of lineHunks(before, after, path)) {
    if (hunk.newCount > 0) {
      ranges.push({ from: hunk.newStart, to: hunk.newStart + hunk.newCount - 1, kind: hunk.oldCount === 0 ? 'added' : 'modified' });
    } else if (lineCount > 0) {
      // Removed lines sit between `newStart` and the next line; mark that next line (the last at the end).
      const line = Math.min(hunk.newStart + 1, lineCount);
      ranges.push({ from: line, to: line, kind: 'deleted' });
    }
  }
  return ranges;
}

/** The hunks of `git diff -U0` between two versions of a file; none for binary content. */
export function lineHunks(before: Uint8Array | null, after: Uint8Array | null, path = 'file'): Hunk[] {
  // The ids only tell the formatter which sides exist and that they differ; it compares the bytes.
  const text = formatGitDiff(
    { path, oid: before === null ? null : '0'.repeat(40), mode: '100644', content: before },
    { path, oid: after === null ? null : 'f'.repeat(40), mode: '100644', content: after },
    { context: 0 },
  );
  return parseHunks(text);
}

/** Reads the `@@` lines of a unified diff. */
export function parseHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const line of diff.split('\n')) {
    const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (match === null) continue;
    hunks.push({
      oldStart: Number(match[1]),
      oldCount: match[2] === undefined ? 1 : Number(match[2]),
      newStart: Number(match[3]),
      newCount: match[4] === undefined ? 1 : Number(match[4]),
    });
  }
  return hunks;
}

/**
 * Where line `line` of the old text is in the new one, given the `-U0` hunks between them; null
 * when it was changed or removed.
 */
export function mapLine(hunks: readonly Hunk[], line: number): number | null {
  let offset = 0;
  for (const hunk of hunks) {
    if (hunk.oldCount > 0 && line >= hunk.oldStart && line < hunk.oldStart + hunk.oldCount) return null;
    const before = hunk.oldCount > 0 ? hunk.oldStart + hunk.oldCount - 1 < line : hunk.oldStart < line;
    if (!before) break;
    offset += hunk.newCount - hunk.oldCount;
  }
  return line + offset;
}

/** `ranges` of the text `committed`, moved to where those lines are in `current`. */
function moveRanges(ranges: readonly LineRange[], committed: Uint8Array, current: Uint8Array, path: string): LineRange[] {
  if (bytesEqual(committed, current)) return [...ranges];
  const hunks = lineHunks(committed, current, path);
  const moved: LineRange[] = [];
  for (const range of ranges) {
    let open: LineRange | null = null;
    for (let line = range.from; line <= range.to; line++) {
      const target = mapLine(hunks, line);
      if (target !== null && open !== null && target === open.to + 1) {
        open.to = target;
      } else if (target !== null) {
        open = { from: target, to: target, kind: range.kind };
        moved.push(open);
      } else {
        open = null;
      }
    }
  }
  return moved;
}

function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = 0;
  for (const byte of bytes) if (byte === 0x0a) lines++;
  return bytes[bytes.length - 1] === 0x0a ? lines : lines + 1;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
