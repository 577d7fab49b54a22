/**
 * Git's lock protocol for the files in `.git` that Recursa replaces (the index, a branch ref),
 * which isomorphic-git does not offer: its writes go straight to the target, and it has no
 * exclusive create, so two processes could both believe they hold a lock.
 *
 * As git does it: `<file>.lock` is created exclusively (`O_EXCL`), the new content is written into
 * it, and it is renamed over the file — the file is never removed first, so readers (the `git`
 * CLI, Obsidian Git, another Recursa) always see the old or the new version. A lock someone else
 * holds is waited for, briefly, then reported as `GitBusy`.
 *
 * Crash recovery is per process: each update keeps a journal (`.git/recursa/journal-<owner>.log`,
 * appended to, never rewritten) naming only the locks it has taken — those taken one after another
 * in one append, and always before it waits for a lock someone else holds — and, once every new
 * content is written, that the update is decided. A journal whose owner stopped touching it
 * `abandonedJournalMs` ago belongs to a process that died: a decided update is rolled forward (its
 * locks moved into place), an undecided one rolled back (its locks removed), by the one process
 * that claims the journal (renames it). Only locks a journal names are touched that way, and a
 * decided update moves only locks no newer than its journal (a lock written later is someone
 * else's, taken since). A lock still holding a Recursa placeholder (its owner died before naming
 * it) is removed once its owner keeps no live journal; any other lock no journal explains (a
 * crashed `git`) is removed only once it is older than `staleAfterMs`, and the owner is told. A
 * lock some journal names, live or being recovered, is never removed those two ways, and each is
 * removed only under an exclusive clearing mark (`.git/recursa/clearing-<lock>`), so that of two
 * processes waiting for one such lock, the slower cannot remove the lock the faster took after it.
 */
import { GitBusyError } from '../errors';
import { removeIfExists, type VaultPort } from '../ports';
import { sleep } from '../util/sleep';

export interface LockWait {
  /** How long to wait for a lock someone else holds before giving up with `GitBusy`. Default 2000 ms. */
  timeoutMs?: number;
  /** Pause between looks. Default 50 ms. */
  pollMs?: number;
  /**
   * A lock file older than this is taken as left behind by a program that crashed, and removed.
   * Default 10 minutes: far longer than any git command holds a lock, except `git commit` waiting
   * on its editor, which then fails cleanly ("unable to write new index file") and can be rerun.
   */
  staleAfterMs?: number;
  /** A Recursa journal untouched for this long belongs to a process that died. Default 30 s. */
  abandonedJournalMs?: number;
}

export const DEFAULT_LOCK_WAIT: Readonly<Required<LockWait>> = {
  timeoutMs: 2_000,
  pollMs: 50,
  staleAfterMs: 10 * 60_000,
  abandonedJournalMs: 30_000,
};

/** Who takes locks: one id per open repository, and whom to tell about stale locks removed. */
export interface LockOwner {
  /** Unique among the processes that share the repository. */
  id: string;
  onStaleLock?: (lock: string, ageMs: number) => void;
  /** Set when an update could not remove its journal; the next update removes it first. */
  journalLeft?: boolean;
}

interface Journal {
  /** Targets whose `.lock` this update created, in the order taken. */
  locks: string[];
  /** Every lock holds its complete new content: roll forward. */
  decided: boolean;
}

/** An update of files in `.git` under git's locks. */
export class LockedUpdate {
  private readonly held: string[] = [];
  /** Locks taken and not yet named in the journal: noted together, or before waiting for another. */
  private readonly unnoted: string[] = [];
  /** What each lock holds once staged, so a platform that cannot rename over a file need not read it back. */
  private readonly staged = new Map<string, Uint8Array | string>();
  /**
   * The journal's note of the locks taken last, written while the update reads and computes: it
   * must be in the journal before any content is staged. Until then each lock holds only its
   * placeholder, which recovery removes by itself.
   */
  private noted: Promise<void> = Promise.resolve();
  private decided = false;
  private finished = false;

  private constructor(
    private readonly vault: VaultPort,
    private readonly gitdir: string,
    private readonly owner: LockOwner,
  ) {}

  /**
   * Takes `<target>.lock` for each target, waiting (briefly) for locks others hold: all at once
   * where nobody holds any, else one by one, in order.
   */
  static async acquire(vault: VaultPort, gitdir: string, targets: readonly string[], owner: LockOwner, wait: LockWait = {}): Promise<LockedUpdate> {
    const settings = { ...DEFAULT_LOCK_WAIT, ...wait };
    const update = new LockedUpdate(vault, gitdir, owner);
    // A journal of ours left by an update that could not clean up must not lend its lines to this one.
    if (owner.journalLeft === true) {
      await removeIfExists(vault, journalPath(gitdir, owner.id));
      owner.journalLeft = false;
    }
    try {
      if (!(await update.takeAllAtOnce(targets))) for (const target of targets) await update.take(target, settings);
      update.noted = update.noteTaken();
      // Awaited by every later step; until then a failure is not unhandled.
      update.noted.catch(() => undefined);
    } catch (error) {
      await update.release();
      throw error;
    }
    return update;
  }

  /** Writes the new content of `target` into its lock. */
  async stage(target: string, content: Uint8Array | string): Promise<void> {
    if (!this.held.includes(target)) throw new Error(`no lock held for ${target}`);
    await this.noted;
    const lock = `${target}.lock`;
    await (typeof content === 'string' ? this.vault.write(lock, content) : this.vault.writeBinary(lock, content));
    this.staged.set(target, content);
  }

  /** Every lock holds its new content: from here on a crash rolls the update forward. */
  async decide(): Promise<void> {
    await this.noted;
    await this.note('decided');
    this.decided = true;
  }

  /** Moves one staged lock over its target (atomically where the platform allows). */
  async commit(target: string): Promise<void> {
    if (!this.decided) throw new Error('decide() before moving locks into place');
    if (!this.held.includes(target)) throw new Error(`no lock held for ${target}`);
    await this.vault.replace(`${target}.lock`, target, this.staged.get(target));
    // Looked up again: another lock may have been moved meanwhile.
    this.held.splice(this.held.indexOf(target), 1);
    this.staged.delete(target);
  }

  /** Moves every remaining lock into place and forgets the journal. */
  async apply(): Promise<void> {
    if (!this.decided) await this.decide();
    for (const target of [...this.held]) await this.commit(target);
    this.finished = true;
    await this.forgetJournal();
  }

  /** Gives up: removes the locks still held (only ours) and the journal. Safe to call twice. */
  async release(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    // The journal's note must not land after the journal is removed.
    await this.noted.catch(() => undefined);
    if (this.decided && this.held.length > 0) {
      // Some targets were replaced already: finish rather than leave a half-applied update.
      for (const target of [...this.held]) await this.commit(target).catch(() => undefined);
    }
    for (const target of this.held) await removeIfExists(this.vault, `${target}.lock`).catch(() => undefined);
    this.held.length = 0;
    await this.forgetJournal();
  }

  /** Removes the journal; one that cannot be removed names no held lock any more, and the owner's next update clears it first. */
  private async forgetJournal(): Promise<void> {
    await removeIfExists(this.vault, journalPath(this.gitdir, this.owner.id)).catch(() => {
      this.owner.journalLeft = true;
    });
  }

  /**
   * Creates every target's lock together: one file-system step instead of one per lock, where
   * nobody holds any (the usual case). If any is held, gives back those it made and says so, for
   * `take` to wait in order: two updates each holding one lock and waiting for the other's would
   * wait until both gave up.
   */
  private async takeAllAtOnce(targets: readonly string[]): Promise<boolean> {
    if (targets.length < 2) return false;
    const created = await Promise.allSettled(targets.map((target) => this.vault.createExclusive(`${target}.lock`, placeholderOf(this.owner.id))));
    const made = targets.filter((_, at) => {
      const result = created[at];
      return result?.status === 'fulfilled' && result.value;
    });
    // Held until given back: if giving one back fails, `release` removes it.
    this.held.push(...made);
    if (made.length === targets.length) {
      this.unnoted.push(...made);
      return true;
    }
    for (const target of made) {
      await removeIfExists(this.vault, `${target}.lock`);
      this.held.splice(this.held.indexOf(target), 1);
    }
    const failed = created.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return false;
  }

  private async take(target: string, settings: Required<LockWait>): Promise<void> {
    const lock = `${target}.lock`;
    const started = Date.now();
    for (;;) {
      if (await this.vault.createExclusive(lock, placeholderOf(this.owner.id))) {
        this.held.push(target);
        this.unnoted.push(target);
        return;
      }
      await this.noteTaken();
      if (await clearAbandoned(this.vault, this.gitdir, lock, this.owner, settings)) continue;
      const waited = Date.now() - started;
      if (waited >= settings.timeoutMs) throw new GitBusyError(lock, waited);
      await sleep(Math.min(settings.pollMs, settings.timeoutMs - waited));
    }
  }

  /** Names the locks taken since the last note in the journal, in one append. */
  private async noteTaken(): Promise<void> {
    if (this.unnoted.length === 0) return;
    const lines = this.unnoted.map((target) => `lock ${target}`).join('\n');
    this.unnoted.length = 0;
    await this.note(lines);
  }

  /**
   * Adds lines to the journal. Only ever appended, so a crash mid-write can cut off at most the
   * lines being written, which recovery then ignores — earlier lines are never lost (a lock whose
   * line was cut off still holds only its placeholder).
   */
  private note(lines: string): Promise<void> {
    return this.vault.append(journalPath(this.gitdir, this.owner.id), `${lines}\n`);
  }
}

/**
 * Finishes or undoes the updates of Recursa processes that died mid-update (their journals are
 * older than `abandonedJournalMs`), and removes those of `locks` that such a process had just
 * created and not yet noted. Resolves to what it did, one line per update.
 */
export async function recoverAbandonedUpdates(
  vault: VaultPort,
  gitdir: string,
  owner: LockOwner,
  wait: LockWait = {},
  locks: readonly string[] = [],
): Promise<string[]> {
  const settings = { ...DEFAULT_LOCK_WAIT, ...wait };
  const done: string[] = [];
  for (const journal of await abandonedJournals(vault, gitdir, owner, settings)) done.push(await recover(vault, gitdir, journal, owner));
  for (const lock of locks) {
    if (await removeAbandonedPlaceholder(vault, gitdir, lock, owner, settings)) done.push(`removed ${lock.slice(gitdir.length + 1)}, left by a stopped process`);
  }
  return done;
}

/** What a lock holds from its creation until its new content is written: who took it. */
function placeholderOf(owner: string): string {
  return `recursa ${owner}\n`;
}

/** A non-empty beginning of a placeholder: what a write cut short leaves. */
function isPlaceholderStart(text: string): boolean {
  const prefix = 'recursa ';
  if (text.length <= prefix.length) return text !== '' && prefix.startsWith(text);
  return text.startsWith(prefix) && /^[0-9a-z]*$/.test(text.slice(prefix.length));
}

/**
 * A lock still holding a Recursa placeholder, older than `abandonedJournalMs`, whose owner keeps no
 * live journal: the owner died between taking it and noting it in its journal.
 */
async function removeAbandonedPlaceholder(vault: VaultPort, gitdir: string, lock: string, owner: LockOwner, settings: Required<LockWait>): Promise<boolean> {
  if (!(await isAbandonedPlaceholder(vault, gitdir, lock, owner, settings))) return false;
  return whileClearing(vault, gitdir, lock, settings, async () => {
    if (!(await isAbandonedPlaceholder(vault, gitdir, lock, owner, settings))) return false;
    await removeIfExists(vault, lock);
    return true;
  });
}

async function isAbandonedPlaceholder(vault: VaultPort, gitdir: string, lock: string, owner: LockOwner, settings: Required<LockWait>): Promise<boolean> {
  const info = await vault.stat(lock);
  if (info === null || info.kind !== 'file' || info.size > 64 || Date.now() - info.mtime < settings.abandonedJournalMs) return false;
  const text = await vault.readText(lock).catch(() => '');
  // The placeholder, or the start of it when the process died while writing it.
  const whole = /^recursa ([0-9a-z]+)\n$/.exec(text);
  if (whole === null && !isPlaceholderStart(text)) return false;
  const lockOwner = whole?.[1] ?? null;
  if (lockOwner === owner.id) return false;
  if (lockOwner !== null) {
    const journal = await vault.stat(journalPath(gitdir, lockOwner));
    if (journal !== null && Date.now() - journal.mtime < settings.abandonedJournalMs) return false;
  }
  return !(await journalNames(vault, gitdir, lock));
}

/** Clears what keeps `lock` taken if its holder is gone; true when the lock may be tried again. */
async function clearAbandoned(vault: VaultPort, gitdir: string, lock: string, owner: LockOwner, settings: Required<LockWait>): Promise<boolean> {
  for (const journal of await abandonedJournals(vault, gitdir, owner, settings)) {
    if (journal.locks.some((target) => `${target}.lock` === lock)) {
      await recover(vault, gitdir, journal, owner);
      return true;
    }
  }
  if (await removeAbandonedPlaceholder(vault, gitdir, lock, owner, settings)) return true;
  const info = await vault.stat(lock);
  if (info === null) return true;
  if (Date.now() - info.mtime < settings.staleAfterMs) return false;
  return whileClearing(vault, gitdir, lock, settings, async () => {
    const now = await vault.stat(lock);
    if (now === null) return true;
    const age = Date.now() - now.mtime;
    if (age < settings.staleAfterMs || (await journalNames(vault, gitdir, lock))) return false;
    await removeIfExists(vault, lock);
    owner.onStaleLock?.(lock, age);
    return true;
  });
}

/**
 * Runs `clear` (which looks at `lock` afresh, and may remove it) while holding the lock's clearing
 * mark in `.git/recursa/`, taken exclusively: two processes waiting for one abandoned lock would
 * otherwise both find it abandoned, and the slower would remove the lock the faster had just
 * removed and taken again for itself. False while another process clears it. A mark older than
 * `abandonedJournalMs` was left by a process that died while clearing, and is removed.
 */
async function whileClearing(vault: VaultPort, gitdir: string, lock: string, settings: Required<LockWait>, clear: () => Promise<boolean>): Promise<boolean> {
  const mark = `${gitdir}/recursa/clearing-${encodeURIComponent(lock.slice(gitdir.length + 1))}`;
  if (!(await vault.createExclusive(mark, ''))) {
    const info = await vault.stat(mark);
    if (info !== null && Date.now() - info.mtime >= settings.abandonedJournalMs) await removeIfExists(vault, mark);
    return false;
  }
  try {
    return await clear();
  } finally {
    await removeIfExists(vault, mark).catch(() => undefined);
  }
}

interface FoundJournal extends Journal {
  path: string;
  /** The journal's mtime when it was found abandoned: its owner's last note. */
  mtime: number;
}

/**
 * Whether a Recursa journal, live, abandoned or being recovered, names `lock`: such a lock is its
 * owner's, or the recovery's that claimed the journal, and no one else's to remove. Without this,
 * a process could remove a lock another is just recovering, see a third take it, and the recovery
 * would then move or remove that live lock.
 */
async function journalNames(vault: VaultPort, gitdir: string, lock: string): Promise<boolean> {
  for (const { path } of await journalFiles(vault, gitdir)) {
    const { locks } = parseJournal(await vault.readText(path).catch(() => ''), gitdir);
    if (locks.some((target) => `${target}.lock` === lock)) return true;
  }
  return false;
}

/** The journals in `.git/recursa/`, live or not, recovering ones included (a clearing mark is not one). */
async function journalFiles(vault: VaultPort, gitdir: string): Promise<{ path: string; name: string }[]> {
  const folder = `${gitdir}/recursa`;
  const listing = await vault.list(folder).catch(() => null);
  return (listing?.files ?? [])
    .map((path) => ({ path, name: path.slice(folder.length + 1) }))
    .filter(({ name }) => (name.startsWith('journal-') || name.startsWith('recovering-')) && name.endsWith('.log'));
}

async function abandonedJournals(vault: VaultPort, gitdir: string, owner: LockOwner, settings: Required<LockWait>): Promise<FoundJournal[]> {
  const found: FoundJournal[] = [];
  for (const { path, name } of await journalFiles(vault, gitdir)) {
    if (name === `journal-${owner.id}.log` || name.startsWith(`recovering-${owner.id}-`)) continue;
    const info = await vault.stat(path);
    if (info === null || Date.now() - info.mtime < settings.abandonedJournalMs) continue;
    found.push({ path, mtime: info.mtime, ...parseJournal(await vault.readText(path).catch(() => ''), gitdir) });
  }
  return found;
}

async function recover(vault: VaultPort, gitdir: string, journal: FoundJournal, owner: LockOwner): Promise<string> {
  // Claim the journal first: a rename succeeds for one process only, so two processes never
  // recover the same update (and one never removes a lock another has taken since).
  const claimed = `${gitdir}/recursa/recovering-${owner.id}-${Math.random().toString(36).slice(2, 10)}.log`;
  try {
    await vault.rename(journal.path, claimed);
    await vault.append(claimed, ''); // a fresh time: a live claim is not taken for an abandoned one
    await vault.write(claimed, journalText(journal));
  } catch {
    return 'another process is recovering an update';
  }
  for (const target of journal.locks) {
    const lock = `${target}.lock`;
    const info = await vault.stat(lock);
    if (info === null) continue;
    if (!journal.decided) await removeIfExists(vault, lock);
    // The update staged every lock before it noted "decided": a lock written after that is not
    // its content but a lock someone took since, and must not be moved over the file.
    else if (info.mtime <= journal.mtime) await vault.replace(lock, target);
  }
  await removeIfExists(vault, claimed);
  const what = journal.decided ? 'finished' : 'undid';
  return `${what} an update of ${journal.locks.map((target) => target.slice(gitdir.length + 1)).join(', ') || 'nothing'} left by a stopped process`;
}

/** Complete lines only (a write cut short leaves a partial last line); only files inside `gitdir` count. */
function parseJournal(text: string, gitdir: string): Journal {
  const lines = text.split('\n').slice(0, -1);
  const locks = lines
    .filter((line) => line.startsWith('lock '))
    .map((line) => line.slice('lock '.length))
    .filter((target) => target.startsWith(`${gitdir}/`) && !target.split('/').includes('..'));
  return { locks, decided: lines.includes('decided') };
}

function journalText(journal: Journal): string {
  return `${journal.locks.map((target) => `lock ${target}\n`).join('')}${journal.decided ? 'decided\n' : ''}`;
}

function journalPath(gitdir: string, owner: string): string {
  return `${gitdir}/recursa/journal-${owner}.log`;
}
