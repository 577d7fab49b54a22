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
 * 1. `acquire` waits (briefly) until no other program holds git's lock for any target
 *    (`<file>.lock`) — never deleting a lock it did not make — then writes a journal naming the
 *    targets and takes the locks;
 * 2. `stage` writes the new contents into the lock files;
 * 3. `apply` writes a "decided" marker, moves each lock over its target, and removes the marker
 *    and the journal. The port cannot rename over an existing file, so each move is remove + rename.
 *
 * If the process dies, `recoverLockedUpdate` (run when the repository is opened) reads the
 * journal: with the marker present (its content does not matter, so a torn marker still counts)
 * the update is rolled forward, without it rolled back by removing the locks it took — so a crash
 * never leaves a stale lock of Recursa's own behind.
 */
export class LockedUpdate {
  private readonly held: string[] = [];
  private finished = false;

  private constructor(
    private readonly vault: VaultPort,
    private readonly gitdir: string,
  ) {}

  static async acquire(vault: VaultPort, gitdir: string, targets: readonly string[], wait: LockWait = {}): Promise<LockedUpdate> {
    await waitForLocks(vault, targets, wait);
    const update = new LockedUpdate(vault, gitdir);
    await vault.write(journalPath(gitdir), JSON.stringify({ targets }));
    try {
      // The port has no exclusive create; the git queue serialises Recursa's own writers, so the
      // only race left is another program taking a lock within the same few microseconds.
      for (const target of targets) {
        await vault.write(`${target}.lock`, '');
        update.held.push(target);
      }
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
    await this.vault.write(decidedPath(this.gitdir), 'decided\n');
    await moveLocksIntoPlace(this.vault, this.held);
    this.finished = true;
    await removeJournal(this.vault, this.gitdir);
  }

  /** Gives up the locks of an update that was not applied. */
  async release(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    for (const target of this.held) await this.vault.remove(`${target}.lock`).catch(() => undefined);
    await removeJournal(this.vault, this.gitdir).catch(() => undefined);
  }
}

/**
 * Finishes or undoes an update the process did not complete: decided ones roll forward, the
 * rest roll back. Resolves to what it did.
 */
export async function recoverLockedUpdate(vault: VaultPort, gitdir: string): Promise<'none' | 'rolled-forward' | 'rolled-back'> {
  const text = await readTextIfExists(vault, journalPath(gitdir));
  if (text === null) return 'none';
  // A journal torn while being written means no lock was taken yet: nothing to undo.
  const targets = parseTargets(text, gitdir);
  const decided = await vault.exists(decidedPath(gitdir));
  if (decided) {
    await moveLocksIntoPlace(vault, targets);
  } else {
    // The locks the journal names were taken after it was written, so they are Recursa's.
    for (const target of targets) {
      if (await vault.exists(`${target}.lock`)) await vault.remove(`${target}.lock`);
    }
  }
  await removeJournal(vault, gitdir);
  return decided ? 'rolled-forward' : 'rolled-back';
}

async function waitForLocks(vault: VaultPort, targets: readonly string[], wait: LockWait): Promise<void> {
  const timeoutMs = wait.timeoutMs ?? 2000;
  const pollMs = wait.pollMs ?? 50;
  const started = Date.now();
  for (;;) {
    let held: string | null = null;
    for (const target of targets) {
      if (await vault.exists(`${target}.lock`)) {
        held = `${target}.lock`;
        break;
      }
    }
    if (held === null) return;
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new GitBusyError(held, waited);
    await sleep(Math.min(pollMs, timeoutMs - waited));
  }
}

async function moveLocksIntoPlace(vault: VaultPort, targets: readonly string[]): Promise<void> {
  for (const target of targets) {
    const lock = `${target}.lock`;
    if (!(await vault.exists(lock))) continue;
    if (await vault.exists(target)) await vault.remove(target);
    await vault.rename(lock, target);
  }
}

function parseTargets(text: string, gitdir: string): string[] {
  try {
    const parsed = JSON.parse(text) as { targets?: unknown };
    if (!Array.isArray(parsed.targets)) return [];
    // Only ever touch files inside this repository's git folder.
    return parsed.targets.filter(
      (target): target is string => typeof target === 'string' && target.startsWith(`${gitdir}/`) && !target.split('/').includes('..'),
    );
  } catch {
    return [];
  }
}

async function removeJournal(vault: VaultPort, gitdir: string): Promise<void> {
  if (await vault.exists(decidedPath(gitdir))) await vault.remove(decidedPath(gitdir));
  if (await vault.exists(journalPath(gitdir))) await vault.remove(journalPath(gitdir));
}

function decidedPath(gitdir: string): string {
  return `${gitdir}/recursa-update.decided`;
}

function journalPath(gitdir: string): string {
  return `${gitdir}/recursa-update.json`;
}
