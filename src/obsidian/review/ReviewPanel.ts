import { setIcon } from 'obsidian';
import { diffLines } from '../history/historyModel';
import { iconButton } from '../chat/runRows';
import { renderPathLabel } from '../chat/pathLabel';
import type { ReviewResult, ReviewSession } from './reviewSession';

/** Most diff lines drawn per file; the rest are counted. */
const MAX_LINES = 400;

/**
 * The review of a run's changes in the chat: each file's diff with Keep and Undo, and Keep all /
 * Undo all. Decisions apply at once (Undo restores the file); when none is left, the kept files
 * are committed and `done` is told the result.
 */
export function renderReview(parent: HTMLElement, session: ReviewSession, done: (result: ReviewResult) => void, failed: (error: unknown) => void): HTMLElement {
  const panel = parent.createDiv({ cls: 'recursa-review', attr: { role: 'group', 'aria-label': 'Review the changes of this run' } });
  const head = panel.createDiv('recursa-review-head');
  const title = head.createDiv('recursa-review-title');
  setIcon(title.createSpan('recursa-review-icon'), 'file-diff');
  title.createSpan({ text: session.files.length === 1 ? 'Review 1 changed file' : `Review ${session.files.length} changed files` });
  const all = head.createDiv('recursa-review-all');
  const keepAll = iconButton(all, 'check', 'Keep all', 'recursa-keep-all', 'Keep all changes');
  const undoAll = iconButton(all, 'undo-2', 'Undo all', 'recursa-undo-all', 'Undo all changes');
  const list = panel.createDiv('recursa-review-files');
  const rows = new Map<string, HTMLElement>();

  const act = async (step: () => Promise<ReviewResult | null>): Promise<void> => {
    panel.addClass('is-busy');
    try {
      const result = await step();
      refresh();
      if (result !== null) {
        panel.addClass('is-done');
        all.empty();
        all.createSpan({ cls: 'recursa-review-outcome', text: outcomeText(result) });
        done(result);
      }
    } catch (error) {
      failed(error);
    } finally {
      panel.removeClass('is-busy');
    }
  };
  const refresh = (): void => {
    for (const file of session.files) {
      const row = rows.get(file.path);
      if (row === undefined) continue;
      row.dataset.decision = file.decision;
      row.querySelector('.recursa-review-state')?.setText(file.decision === 'kept' ? 'Kept' : file.decision === 'undone' ? 'Undone' : '');
      for (const button of Array.from(row.querySelectorAll<HTMLButtonElement>('.recursa-review-actions button'))) button.disabled = file.decision !== 'pending';
    }
  };

  for (const file of session.files) {
    const row = list.createDiv({ cls: 'recursa-review-file' });
    rows.set(file.path, row);
    const details = row.createEl('details', { cls: 'recursa-review-details' });
    if (session.files.length <= 3) details.open = true;
    const summary = details.createEl('summary', { cls: 'recursa-review-summary', attr: { 'aria-label': `Changes to ${file.path}` } });
    setIcon(summary.createSpan('recursa-code-chevron'), 'chevron-right');
    renderPathLabel(summary, file.path);
    summary.createSpan({ cls: 'recursa-review-kind', text: !file.existedBefore ? 'new' : '' });
    summary.createSpan({ cls: 'recursa-review-state' });
    const diff = details.createDiv({ cls: 'recursa-diff recursa-review-diff', attr: { tabindex: 0, 'aria-label': `Diff of ${file.path}` } });
    void session.diff(file.path).then(
      (text) => renderDiff(diff, text),
      (error: unknown) => diff.setText(`The changes could not be read: ${error instanceof Error ? error.message : String(error)}`),
    );
    const actions = row.createDiv({ cls: 'recursa-review-actions' });
    iconButton(actions, 'check', 'Keep', 'recursa-keep-button', `Keep the changes to ${file.path}`).addEventListener('click', () => void act(() => session.keep(file.path)));
    iconButton(actions, 'undo-2', 'Undo', 'recursa-undo-button', `Undo the changes to ${file.path}`).addEventListener('click', () => void act(() => session.undo(file.path)));
  }
  keepAll.addEventListener('click', () => void act(() => session.keepAll()));
  undoAll.addEventListener('click', () => void act(() => session.undoAll()));
  refresh();
  return panel;
}

/** A diff as coloured lines, without git's header lines (only the hunks a person reads). */
export function renderDiff(el: HTMLElement, text: string): void {
  el.empty();
  const lines = diffLines(text).filter((line) => line.kind !== 'file' && line.kind !== 'meta');
  if (lines.length === 0) {
    el.createDiv({ cls: 'recursa-diff-line recursa-diff-context', text: 'No changes in the text.' });
    return;
  }
  for (const line of lines.slice(0, MAX_LINES)) {
    const row = el.createDiv({ cls: ['recursa-diff-line', `recursa-diff-${line.kind}`] });
    if (line.kind === 'hunk') row.setText(hunkLabel(line.text));
    else {
      row.createSpan({ cls: 'recursa-diff-sign', text: line.text.slice(0, 1), attr: { 'aria-hidden': 'true' } });
      row.createSpan({ cls: 'recursa-diff-text', text: line.text.slice(1) === '' ? ' ' : line.text.slice(1) });
      if (line.kind !== 'context') row.setAttr('aria-label', `${line.kind === 'added' ? 'Added' : 'Removed'}: ${line.text.slice(1)}`);
    }
  }
  if (lines.length > MAX_LINES) el.createDiv({ cls: 'recursa-diff-line recursa-diff-hunk', text: `${lines.length - MAX_LINES} more lines` });
}

/** `@@ -3,4 +3,5 @@ ## Tasks` → `Line 3 · ## Tasks`. */
function hunkLabel(text: string): string {
  const match = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@ ?(.*)$/.exec(text);
  if (match === null) return text;
  return match[2] === undefined || match[2] === '' ? `Line ${match[1] ?? ''}` : `Line ${match[1] ?? ''} · ${match[2]}`;
}

function outcomeText(result: ReviewResult): string {
  const kept = result.kept.length === 1 ? 'Kept 1 file' : `Kept ${result.kept.length} files`;
  const undone = result.undone.length === 0 ? '' : `, undid ${result.undone.length}`;
  return result.kept.length === 0 ? `Undid ${result.undone.length === 1 ? 'the change' : 'all changes'}.` : `${kept}${undone}.`;
}
