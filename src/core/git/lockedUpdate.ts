import { GitBusyError } from '../errors';
import { readTextIfExists, type VaultPort } from '../ports';
import { sleep } from '../util/sleep';

export interface LockWait {
  /** How long to wait for another program's lock before giving up. Default 2000 ms. */
  timeoutMs?: number;
  /** Pause between looks. Default 50 ms. */
  pollMs?: number;
}

/**
 * Replaces files in `.git` (the index, a branch ref) the way git does, so the `git` CLI and other
 * tools see either the old or the new state and a crash loses nothing:
 *
 * 1. `acquire` takes git's own lock for each target (`<file>.lock`), waiting a little for another
 *    program that holds one — and never deleting a lock it did not make;
 * 2. `stage` writes the new content into the lock files;
 * 3. `apply` records the decided update in a journal, moves each lock over its target, and removes
 *    the journal. The port cannot rename over an existing file, so each move is remove + rename;
 *    if the process dies in between, `recoverLockedUpdate` (run when the repository is opened)
 *    finds the journal and rolls the update forward.
 *
 * `release` gives up the locks of an update that was not applied.
 */
export class LockedUpdate {
  private readonly held: string[] = [];
  private applied = false;

  private constructor(
    private readonly vault: VaultPort,
    private readonly gitdir: string,
  ) {}

  static async acquire(vault: VaultPort, gitdir: string, targets: readonly string[], wait: LockWait = {}): Promise<LockedUpdate> {
    const update = new LockedUpdate(vault, gitdir);
    try {
      for (const target of targets) await update.lock(target, wait);
    } catch (error) {
      await update.release();
      throw error;
    }
    return update;
  }

  async stage(target: string, content: Uint8Array | string): Promise<void> {
    if (!this.held.includes(target)) throw new Error(`no lock held for ${target}`);
    const lock = `${target}.lock`;
    await (typeof content === 'string' ? this.vault.write(lock, content) : this.vault.writeBinary(lock, content));
  }

  async apply(): Promise<void> {
    const journal = journalPath(this.gitdir);
    await this.vault.write(journal, JSON.stringify({ targets: this.held }));
    await moveLocksIntoPlace(this.vault, this.held);
    await this.vault.remove(journal);
    this.applied = true;
    this.held.length = 0;
  }

  async release(): Promise<void> {
    if (this.applied) return;
    const locks = this.held.splice(0);
    for (const target of locks) await this.vault.remove(`${target}.lock`).catch(() => undefined);
  }

  private async lock(target: string, wait: LockWait): Promise<void> {
    const lock = `${target}.lock`;
    const timeoutMs = wait.timeoutMs ?? 2000;
    const pollMs = wait.pollMs ?? 50;
    const started = Date.now();
    // The port has no exclusive create; the git queue serialises Recursa's own writers, so the
    // only race left is another program taking the lock within the same few microseconds.
    while (await this.vault.exists(lock)) {
      const waited = Date.now() - started;
      if (waited >= timeoutMs) throw new GitBusyError(lock, waited);
      await sleep(Math.min(pollMs, timeoutMs - waited));
    }
    await this.vault.write(lock, '');
    this.held.push(target);
  }
}

/**
 * Finishes an update that was decided (its journal exists) when the process stopped. Locks
 * without a journal are left alone: they may belong to another program.
 */
export async function recoverLockedUpdate(vault: VaultPort, gitdir: string): Promise<boolean> {
  const journal = journalPath(gitdir);
  const text = await readTextIfExists(vault, journal);
  if (text === null) return false;
  const targets = parseJournal(text, gitdir);
  if (targets !== null) await moveLocksIntoPlace(vault, targets);
  await vault.remove(journal);
  return targets !== null;
}

async function moveLocksIntoPlace(vault: VaultPort, targets: readonly string[]): Promise<void> {
  for (const target of targets) {
    const lock = `${target}.lock`;
    if (!(await vault.exists(lock))) continue;
    if (await vault.exists(target)) await vault.remove(target);
    await vault.rename(lock, target);
  }
}

/** The journal's targets, or null when it is unreadable (torn while written: nothing was decided). */
function parseJournal(text: string, gitdir: string): string[] | null {
  try {
    const parsed = JSON.parse(text) as { targets?: unknown };
    if (!Array.isArray(parsed.targets)) return null;
    // Only ever move files inside this repository's git folder.
    return parsed.targets.filter(
      (target): target is string => typeof target === 'string' && target.startsWith(`${gitdir}/`) && !target.includes('..'),
    );
  } catch {
    return null;
  }
}

function journalPath(gitdir: string): string {
  return `${gitdir}/recursa-update.json`;
}
