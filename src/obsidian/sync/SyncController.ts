import { isRecursaError } from '../../core/errors';
import type { GitService } from '../../core/git/GitService';
import type { GitHttpClient } from '../../core/sync/gitHttpClient';
import { aheadBehind, type AheadBehind } from '../../core/sync/aheadBehind';
import type { SyncProgress, SyncResult } from '../../core/sync';
import { SyncError } from '../../core/sync/SyncError';
import { describeSyncResult, describeSyncFailure, type SyncMessage } from './syncMessages';

/** What the controller needs of the plugin. */
export interface SyncHost {
  /** The vault's history, or null while it is not open (or is off). */
  git(): GitService | null;
  /** The remote as the settings have it ('' for none) and the user name. */
  remote(): { url: string; username: string };
  /** The remote's token from secret storage, or null. */
  token(): string | null;
  http: GitHttpClient;
  /** Shows a message to the user (an Obsidian `Notice`); returns a handle to update or hide it. */
  notify(message: SyncMessage, timeoutMs: number): { update(text: string): void; hide(): void };
  now?: () => Date;
}

/** Why a sync was started: the user asked, Obsidian started, or the interval came round. */
export type SyncTrigger = 'manual' | 'startup' | 'interval';

/** The last sync: what it did, or why it failed. */
export type LastSync = { at: Date; result: SyncResult } | { at: Date; error: SyncMessage };

/**
 * Sync in the plugin: one at a time, through the git queue (the core's `syncVaultHistory`), with a
 * notice while it works and one that says what happened and what to do. Syncs started by the
 * interval or at startup speak up only when something needs the user (a failure, a conflict).
 */
export class SyncController {
  private running: Promise<void> | null = null;
  private lastSync: LastSync | null = null;
  private standing: AheadBehind | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly host: SyncHost) {}

  get last(): LastSync | null {
    return this.lastSync;
  }

  /** Ahead and behind as of the last sync (null before the status is known). */
  get status(): AheadBehind | null {
    return this.standing;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Called whenever the status or the last sync changes (the status bar redraws). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Syncs now; a sync already under way is joined, not repeated. */
  syncNow(trigger: SyncTrigger): Promise<void> {
    this.running ??= this.run(trigger).finally(() => {
      this.running = null;
      this.changed();
    });
    this.changed();
    return this.running;
  }

  /** Counts ahead and behind again (after a commit, say). */
  async refreshStatus(): Promise<void> {
    const git = this.host.git();
    if (git === null || this.host.remote().url === '') {
      this.standing = null;
    } else {
      this.standing = await aheadBehind(git).catch(() => null);
    }
    this.changed();
  }

  private async run(trigger: SyncTrigger): Promise<void> {
    const git = this.host.git();
    const { url, username } = this.host.remote();
    const quiet = trigger !== 'manual';
    if (git === null || url === '') {
      if (!quiet) this.host.notify(git === null ? { text: 'Recursa cannot sync: version history is off for this vault.', action: null } : { text: 'Recursa has no remote to sync with. Set one in Settings → Recursa → Sync.', action: 'open-settings' }, 8_000);
      return;
    }
    const token = this.host.token();
    const progress = quiet ? null : this.host.notify({ text: 'Recursa: syncing…', action: null }, 0);
    const at = (this.host.now ?? (() => new Date()))();
    try {
      const { readRemoteUrl, setRemoteUrl, syncVaultHistory } = await import('../../core/sync');
      // A vault whose history Recursa started has no remote "origin"; without its fetch refspec,
      // isomorphic-git refuses to fetch once the remote has the branch (every sync after the first).
      await git.runExclusive(async (repo) => {
        if ((await readRemoteUrl(repo, 'origin')) === null) await setRemoteUrl(repo, 'origin', url, (await repo.head()).branch);
      });
      const result = await syncVaultHistory(git, {
        url,
        http: this.host.http,
        credentials: token === null ? null : { username: username === '' ? 'recursa' : username, password: token },
        ...(this.host.now === undefined ? {} : { now: this.host.now }),
        ...(progress === null ? {} : { onProgress: (step: SyncProgress) => progress.update(progressText(step)) }),
      });
      this.lastSync = { at, result };
      progress?.hide();
      const message = describeSyncResult(result);
      if (!quiet || message.action !== null) this.host.notify(message, message.action === null ? 4_000 : 15_000);
    } catch (error) {
      progress?.hide();
      const message = describeSyncFailure(error instanceof SyncError ? error.code : isRecursaError(error) ? error.code : null, errorText(error), url);
      this.lastSync = { at, error: message };
      this.host.notify(message, 15_000);
    }
    await this.refreshStatus();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `Recursa: syncing… Receiving objects 40%` (or a count when the total is not known). */
export function progressText(step: SyncProgress): string {
  const amount = step.total > 0 ? `${Math.floor((step.loaded / step.total) * 100)}%` : String(step.loaded);
  return `Recursa: syncing… ${step.phase} ${amount}`;
}
