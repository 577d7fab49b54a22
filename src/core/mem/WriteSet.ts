import { compareCodePoints } from '../util/compareCodePoints';

/** One path the agent wrote, renamed or deleted through `mem`. */
export interface WriteSetEntry {
  /** Vault-relative path (a file, or a folder that was deleted or renamed as a whole). */
  path: string;
  /** Whether something existed at the path before the agent first touched it. */
  existedBefore: boolean;
}

/**
 * The agent's write-set: every path a `mem` call wrote, renamed (both names) or deleted since the
 * set was last cleared. The git layer commits exactly this set, so the user's own edits to other
 * files are never swept into an agent commit.
 */
export class WriteSet {
  private readonly entries = new Map<string, WriteSetEntry>();

  /** Records a touch; the first touch of a path decides `existedBefore`. */
  record(path: string, existedBefore: boolean): void {
    if (!this.entries.has(path)) this.entries.set(path, { path, existedBefore });
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The recorded paths, sorted. */
  paths(): string[] {
    return [...this.entries.keys()].sort(compareCodePoints);
  }

  list(): WriteSetEntry[] {
    return this.paths().map((path) => ({ ...(this.entries.get(path) as WriteSetEntry) }));
  }

  clear(): void {
    this.entries.clear();
  }
}
