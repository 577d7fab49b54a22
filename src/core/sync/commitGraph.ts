import type { GitRepository } from '../git/repository';

/**
 * Walks of the commit graph, newest commit first (by committer time), as git's own merge-base and
 * rev-list do: a walk stops as soon as every commit left to visit is known to be on both sides
 * (merge bases) or excluded (counting), so the cost follows the commits that differ, not the
 * whole history.
 */

/**
 * How far a commit's date may lie about its place in history (seconds): devices' clocks disagree,
 * so a parent can carry a later date than its child. Walks go on this far past the point where
 * dates alone say they could stop, which makes them exact for clocks that disagree by less.
 */
const CLOCK_SKEW_SECONDS = 24 * 60 * 60;

const OURS = 1;
const THEIRS = 2;
const STALE = 4;
const RESULT = 8;

/** Commits waiting to be visited, newest first. */
class CommitQueue {
  private readonly items: { oid: string; time: number }[] = [];

  constructor(private readonly repo: GitRepository) {}

  get size(): number {
    return this.items.length;
  }

  async push(oid: string): Promise<void> {
    const time = (await this.repo.readCommit(oid)).committer.timestamp;
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.items[mid] as { time: number }).time >= time) low = mid + 1;
      else high = mid;
    }
    this.items.splice(low, 0, { oid, time });
  }

  pop(): { oid: string; time: number } {
    return this.items.shift() as { oid: string; time: number };
  }

  /** The newest date waiting (the queue is not empty). */
  get newest(): number {
    return (this.items[0] as { time: number }).time;
  }

  every(test: (oid: string) => boolean): boolean {
    return this.items.every((item) => test(item.oid));
  }
}

/**
 * The best common ancestors of `a` and `b` (`git merge-base --all`): none for unrelated
 * histories, several after criss-cross merges.
 */
export async function mergeBases(repo: GitRepository, a: string, b: string): Promise<string[]> {
  if (a === b) return [a];
  const flags = new Map<string, number>([[a, OURS], [b, THEIRS]]);
  const queue = new CommitQueue(repo);
  await queue.push(a);
  await queue.push(b);
  const found: string[] = [];
  let oldestFound = Infinity;
  while (queue.size > 0) {
    // Every commit left is below a base already: done, once dates can no longer hide a shortcut.
    if (queue.every((oid) => ((flags.get(oid) ?? 0) & STALE) !== 0) && queue.newest < oldestFound - CLOCK_SKEW_SECONDS) break;
    const { oid, time } = queue.pop();
    let mark = (flags.get(oid) ?? 0) & (OURS | THEIRS | STALE);
    if (mark === (OURS | THEIRS)) {
      if (((flags.get(oid) ?? 0) & RESULT) === 0) {
        found.push(oid);
        oldestFound = Math.min(oldestFound, time);
      }
      flags.set(oid, (flags.get(oid) ?? 0) | RESULT);
      mark |= STALE;
    }
    for (const parent of (await repo.readCommit(oid)).parents) {
      const had = flags.get(parent) ?? 0;
      if ((had & mark) === mark) continue;
      flags.set(parent, had | mark);
      await queue.push(parent);
    }
  }
  // A result reached again from a younger result is an ancestor of it: not a best base.
  const candidates = found.filter((oid) => ((flags.get(oid) ?? 0) & STALE) === 0);
  // A candidate that is an ancestor of another is not a best base.
  const best: string[] = [];
  for (const oid of candidates) {
    let ancestor = false;
    for (const other of candidates) {
      if (other !== oid && (await isAncestor(repo, oid, other))) {
        ancestor = true;
        break;
      }
    }
    if (!ancestor) best.push(oid);
  }
  return best;
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(repo: GitRepository, ancestor: string, descendant: string): Promise<boolean> {
  if (ancestor === descendant) return true;
  return !(await commitsBetween(repo, [ancestor], [descendant])).includes(ancestor);
}

/**
 * The commits reachable from `include` and from none of `exclude` (`git rev-list include ^exclude`),
 * newest first.
 */
export async function commitsBetween(repo: GitRepository, include: readonly (string | null)[], exclude: readonly (string | null)[]): Promise<string[]> {
  const excluded = new Set<string>();
  const seen = new Set<string>();
  const queue = new CommitQueue(repo);
  for (const oid of exclude) {
    if (oid === null || seen.has(oid)) continue;
    seen.add(oid);
    excluded.add(oid);
    await queue.push(oid);
  }
  for (const oid of include) {
    if (oid === null || seen.has(oid)) continue;
    seen.add(oid);
    await queue.push(oid);
  }
  const counted = new Set<string>();
  let oldestCounted = Infinity;
  while (queue.size > 0) {
    // Only excluded commits left: done, once dates can no longer hide a path to a counted one.
    if (queue.every((oid) => excluded.has(oid)) && (counted.size === 0 || queue.newest < oldestCounted - CLOCK_SKEW_SECONDS)) break;
    const { oid, time } = queue.pop();
    const out = excluded.has(oid);
    if (out) counted.delete(oid);
    else {
      counted.add(oid);
      oldestCounted = Math.min(oldestCounted, time);
    }
    for (const parent of (await repo.readCommit(oid)).parents) {
      if (out && !excluded.has(parent)) {
        excluded.add(parent);
        // Reached before from an included commit (clock skew): no longer counted.
        counted.delete(parent);
        if (!seen.has(parent)) {
          seen.add(parent);
          await queue.push(parent);
        } else {
          // Its parents must learn they are excluded too.
          await queue.push(parent);
        }
        continue;
      }
      if (seen.has(parent)) continue;
      seen.add(parent);
      await queue.push(parent);
    }
  }
  return [...counted];
}
