import { setIcon, type App } from 'obsidian';
import { adviseOnError } from './errorAdvice';
import { renderPathLabel } from './pathLabel';

/** What a run's "changes" row can do; given once the run's commits are known. */
export interface RunChangeActions {
  files: string[];
  showDiff: (path: string) => void;
  revert: () => Promise<boolean>;
}

/** What can be done with a reply. */
export interface ReplyActions {
  copy: () => void;
  insert: () => void;
  save: () => void;
}

/** What an error row offers besides Retry. */
export interface ErrorActions {
  retry: () => void;
  openSettings: () => void;
  newChat: () => void;
}

/** A button with an icon and a visible label (the label also names it for screen readers). */
export function iconButton(parent: HTMLElement, icon: string, label: string, cls: string, aria = label): HTMLButtonElement {
  const button = parent.createEl('button', { cls: `recursa-small-button ${cls}`, attr: { 'aria-label': aria } });
  setIcon(button.createSpan('recursa-button-icon'), icon);
  button.createSpan({ text: label });
  return button;
}

/** Copy, Insert at cursor, Save as note, under a reply. */
export function renderReplyActions(parent: HTMLElement, actions: ReplyActions): HTMLElement {
  const row = parent.createDiv({ cls: 'recursa-reply-actions', attr: { role: 'group', 'aria-label': 'Use this reply' } });
  iconButton(row, 'copy', 'Copy', 'recursa-copy-button', 'Copy the reply as Markdown').addEventListener('click', actions.copy);
  iconButton(row, 'text-cursor-input', 'Insert', 'recursa-insert-button', 'Insert the reply at the cursor in the active note').addEventListener('click', actions.insert);
  iconButton(row, 'file-plus', 'Save as note', 'recursa-save-button', 'Save the reply as a new note').addEventListener('click', actions.save);
  return row;
}

/** The notes the run read and changed, as links; changed ones are marked. */
export function renderSources(parent: HTMLElement, app: App, sources: { read: readonly string[]; changed: readonly string[] }): HTMLElement | null {
  const changed = new Set(sources.changed);
  const read = sources.read.filter((path) => !changed.has(path));
  if (read.length === 0 && changed.size === 0) return null;
  const row = parent.createDiv({ cls: 'recursa-sources', attr: { role: 'group', 'aria-label': 'Sources of this reply' } });
  row.createSpan({ cls: 'recursa-sources-label', text: 'Sources' });
  const list = row.createEl('ul', { cls: 'recursa-sources-list' });
  const add = (path: string, kind: 'read' | 'changed'): void => {
    const item = list.createEl('li', { cls: `recursa-source is-${kind}` });
    const link = item.createEl('a', { cls: 'internal-link recursa-source-link', href: path, attr: { 'data-href': path, 'aria-label': `${kind === 'changed' ? 'Changed' : 'Read'}: ${path}. Open it` } });
    setIcon(link.createSpan({ cls: 'recursa-source-icon', attr: { 'aria-hidden': 'true' } }), kind === 'changed' ? 'pencil' : 'file-text');
    renderPathLabel(link, path);
    link.createSpan({ cls: 'recursa-source-kind', text: kind === 'changed' ? 'changed' : 'read' });
    link.addEventListener('click', (evt) => {
      evt.preventDefault();
      void app.workspace.openLinkText(path, '', evt.ctrlKey || evt.metaKey);
    });
  };
  for (const path of [...changed].sort()) add(path, 'changed');
  for (const path of read) add(path, 'read');
  return row;
}

/** The "changes" row: the files the run changed (each opens its diff) and an Undo. */
export function renderChanges(parent: HTMLElement, actions: RunChangeActions): HTMLElement {
  const row = parent.createDiv({ cls: 'recursa-changes', attr: { role: 'group', 'aria-label': 'Changes made by this run' } });
  const label = row.createSpan('recursa-changes-label');
  setIcon(label.createSpan('recursa-changes-icon'), 'git-commit');
  label.createSpan({ text: actions.files.length === 1 ? 'Changed 1 file' : `Changed ${actions.files.length} files` });
  const files = row.createDiv('recursa-changes-files');
  for (const path of actions.files) {
    const button = files.createEl('button', { cls: 'recursa-file-chip', attr: { 'aria-label': `Show the changes to ${path}` } });
    renderPathLabel(button, path);
    button.addEventListener('click', () => actions.showDiff(path));
  }
  const revert = iconButton(row, 'undo-2', 'Revert', 'recursa-revert-button', 'Revert the changes of this run');
  revert.addEventListener('click', () => {
    revert.disabled = true;
    void actions.revert().then((reverted) => {
      if (reverted) {
        row.addClass('is-reverted');
        revert.empty();
        revert.createSpan({ text: 'Reverted' });
      } else revert.disabled = false;
    });
  });
  return row;
}

/**
 * A failed run: one plain sentence and the action that fixes it (Open settings, Choose a model,
 * New chat) beside Retry; what the server said is behind a disclosure. A stop is a quiet line.
 */
export function renderError(parent: HTMLElement, message: string, quiet: boolean, actions: ErrorActions): HTMLElement {
  const row = parent.createDiv({ cls: `recursa-run-error${quiet ? ' is-quiet' : ''}`, attr: { role: quiet ? 'status' : 'alert' } });
  const line = row.createDiv('recursa-run-error-line');
  const advice = adviseOnError(message);
  if (!quiet) setIcon(line.createSpan('recursa-error-icon'), 'alert-circle');
  line.createSpan({ cls: 'recursa-run-error-text', text: quiet ? message : advice.sentence });
  const buttons = row.createDiv('recursa-run-error-actions');
  if (!quiet && (advice.action === 'settings' || advice.action === 'model')) {
    iconButton(buttons, 'settings', advice.action === 'model' ? 'Choose a model' : 'Open settings', 'recursa-fix-button').addEventListener('click', actions.openSettings);
  }
  if (!quiet && advice.action === 'new-chat') iconButton(buttons, 'square-pen', 'New chat', 'recursa-fix-button').addEventListener('click', actions.newChat);
  iconButton(buttons, 'rotate-ccw', 'Retry', 'recursa-retry-button', 'Retry this request').addEventListener('click', actions.retry);
  if (!quiet) {
    const details = row.createEl('details', { cls: 'recursa-error-details' });
    details.createEl('summary', { text: 'Details' });
    details.createEl('pre', { cls: 'recursa-error-raw', text: message });
  }
  return row;
}
