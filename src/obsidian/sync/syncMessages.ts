import type { SyncResult } from '../../core/sync';
import { redactSecrets } from '../../core/text/redactSecrets';

/** What fixes the situation a message describes; the notice offers it as a button. */
export type SyncAction = 'open-settings' | 'sync-again' | 'show-conflicts' | null;

/** A sentence for the user, and the action that helps (if any). */
export interface SyncMessage {
  text: string;
  action: SyncAction;
  /** Notes a `show-conflicts` action opens. */
  paths?: readonly string[];
}

/** What a finished sync did, in a sentence; conflicts and files left alone ask for the user's eye. */
export function describeSyncResult(result: SyncResult): SyncMessage {
  const { fetched, pushed, conflicts, uncommitted } = result;
  const moved = [fetched > 0 ? `${fetched} ${plural(fetched, 'change')} in` : null, pushed > 0 ? `${pushed} out` : null].filter((part) => part !== null);
  const summary = moved.length === 0 ? 'Recursa: in sync with the remote.' : `Recursa synced: ${moved.join(', ')}.`;
  if (conflicts.length > 0) {
    return {
      text: `${summary} ${conflicts.length} ${plural(conflicts.length, 'note')} changed on both sides in the same places (${listOf(conflicts)}): yours stayed in the note, the remote's version is saved beside it as a conflict copy. Compare and merge them, then delete the copy.`,
      action: 'show-conflicts',
      paths: conflicts,
    };
  }
  if (uncommitted.length > 0) {
    return {
      text: `${summary} Left for later, as they hold edits not yet in the history: ${listOf(uncommitted)}. The remote's version is saved beside each as a conflict copy: compare them, keep what you want in the note, then delete the copy.`,
      action: 'show-conflicts',
      paths: uncommitted,
    };
  }
  return { text: summary, action: null };
}

/** Why a sync failed and what to do, by the failure's code (`SyncError`, `GitBusy`…). */
export function describeSyncFailure(code: string | null, detail: string, url: string): SyncMessage {
  const host = hostOf(url);
  switch (code) {
    case 'AuthFailed':
      return { text: `Recursa: ${host} refused the credentials. Check the user name and token (a personal access token with write access) in Settings → Recursa → Sync.`, action: 'open-settings' };
    case 'Unreachable':
      return { text: `Recursa could not reach ${host}. Check your connection and the remote URL, then sync again.`, action: 'sync-again' };
    case 'Rejected':
      return { text: `Recursa: ${host} got new commits while this sync was pushing. Sync again to merge them.`, action: 'sync-again' };
    case 'GitBusy':
      return { text: 'Recursa: another git program is using this vault\'s repository. Sync again in a moment.', action: 'sync-again' };
    case 'Conflict':
      return { text: `Recursa could not sync: ${redactSecrets(detail)}`, action: null };
    default:
      return { text: `Recursa could not sync: ${redactSecrets(detail)}`, action: 'sync-again' };
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the remote';
  }
}

function listOf(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).map((path) => `"${path}"`);
  return paths.length > 3 ? `${shown.join(', ')} and ${paths.length - 3} more` : shown.join(', ');
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
