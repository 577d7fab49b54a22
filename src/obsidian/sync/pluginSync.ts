import { Notice, type App, type Plugin } from 'obsidian';
import type { GitService } from '../../core/git/GitService';
import type { AheadBehind } from '../../core/sync/aheadBehind';
import type { SyncSettings } from '../settings/pluginSettings';
import { createObsidianGitHttpClient } from './obsidianGitHttpClient';
import { SyncController, type LastSync } from './SyncController';
import type { SyncMessage } from './syncMessages';

/** What sync needs from the plugin. */
export interface PluginSyncParts {
  app: App;
  plugin: Plugin;
  git: () => GitService | null;
  settings: () => SyncSettings;
  /** The remote's token from secret storage (by the settings' `tokenSecret`), or null. */
  token: () => string | null;
  openSettings: () => void;
}

/** How often the interval is checked; a sync runs when `intervalMinutes` have passed since the last. */
const TICK_MS = 60_000;

/**
 * Adds sync to the plugin: the "Sync now" command, a status-bar item with ahead/behind and the
 * last sync (select it to sync), sync at startup and every N minutes when the settings ask for it,
 * and notices that say what happened and offer the action that fixes a problem.
 */
export function installSync(parts: PluginSyncParts): SyncController {
  const { app, plugin } = parts;
  const controller: SyncController = new SyncController({
    git: parts.git,
    remote: () => ({ url: parts.settings().remoteUrl, username: parts.settings().username }),
    token: parts.token,
    http: createObsidianGitHttpClient(),
    notify: (message, timeoutMs) => showNotice(message, timeoutMs, { app, openSettings: parts.openSettings, syncAgain: () => void controller.syncNow('manual') }),
  });
  plugin.addCommand({ id: 'sync-now', name: 'Sync now', callback: () => void controller.syncNow('manual') });
  const item = plugin.addStatusBarItem();
  item.addClass('recursa-sync-status', 'mod-clickable');
  item.setAttr('role', 'button');
  item.setAttr('tabindex', '0');
  const draw = (): void => drawStatus(item, controller, parts.settings());
  item.addEventListener('click', () => void controller.syncNow('manual'));
  item.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    void controller.syncNow('manual');
  });
  plugin.register(controller.onChange(draw));
  let lastRun = Date.now();
  plugin.registerInterval(
    window.setInterval(() => {
      draw();
      const minutes = parts.settings().intervalMinutes;
      if (minutes <= 0 || parts.settings().remoteUrl === '' || controller.busy) return;
      if (Date.now() - (controller.last?.at.getTime() ?? lastRun) < minutes * 60_000) return;
      lastRun = Date.now();
      void controller.syncNow('interval');
    }, TICK_MS),
  );
  draw();
  return controller;
}

/** After the vault opened: the status, and a sync when the settings ask for one at startup. */
export function startSync(controller: SyncController, settings: SyncSettings): void {
  void controller.refreshStatus();
  if (settings.onStartup && settings.remoteUrl !== '') void controller.syncNow('startup');
}

function drawStatus(item: HTMLElement, controller: SyncController, settings: SyncSettings): void {
  item.toggle(settings.remoteUrl !== '');
  const status = controller.status;
  const parts: string[] = [];
  if (controller.busy) parts.push('Syncing…');
  else if (status !== null && status.tracked) parts.push(`↑${status.ahead} ↓${status.behind}`);
  const last = controller.last;
  if (!controller.busy && last !== null) parts.push('error' in last ? 'Sync failed' : `Synced ${relativeTime(last.at)}`);
  if (parts.length === 0) parts.push('Not synced yet');
  item.setText(parts.join(' · '));
  item.setAttr('aria-label', labelOf(controller.status, last));
}

function labelOf(status: AheadBehind | null, last: LastSync | null): string {
  const standing = status === null || !status.tracked ? 'Not synced with the remote yet.' : `${status.ahead} ${status.ahead === 1 ? 'commit' : 'commits'} to push, ${status.behind} to pull.`;
  const lastText = last === null ? '' : 'error' in last ? ` The last sync failed: ${last.error.text}` : ` Last synced ${last.at.toLocaleString()}.`;
  return `${standing}${lastText} Select to sync now.`;
}

function relativeTime(at: Date): string {
  const minutes = Math.floor((Date.now() - at.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h ago` : at.toLocaleDateString();
}

/** A notice with the message and, when there is one, a button for the action that helps. */
function showNotice(message: SyncMessage, timeoutMs: number, actions: { app: App; openSettings: () => void; syncAgain: () => void }): { update(text: string): void; hide(): void } {
  const fragment = createFragment((root) => {
    root.createSpan({ text: message.text });
    const button = actionButton(message, actions);
    if (button === null) return;
    const el = root.createEl('button', { text: button.label, cls: 'recursa-notice-action' });
    el.addEventListener('click', (event) => {
      event.stopPropagation();
      button.run();
    });
  });
  const notice = new Notice(fragment, timeoutMs);
  return { update: (text) => notice.setMessage(text), hide: () => notice.hide() };
}

function actionButton(message: SyncMessage, actions: { app: App; openSettings: () => void; syncAgain: () => void }): { label: string; run: () => void } | null {
  switch (message.action) {
    case 'open-settings':
      return { label: 'Open settings', run: actions.openSettings };
    case 'sync-again':
      return { label: 'Sync again', run: actions.syncAgain };
    case 'show-conflicts': {
      const first = message.paths?.[0];
      if (first === undefined) return null;
      return { label: message.paths !== undefined && message.paths.length > 1 ? 'Open the first' : 'Open note', run: () => void actions.app.workspace.openLinkText(first, '', true) };
    }
    default:
      return null;
  }
}
