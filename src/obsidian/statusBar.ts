import type { SnapshotProgress } from '../core/git/initialSnapshot';
import type { IndexProgress } from '../core/graph/GraphIndex';

/** What the status bar reports; each part is left out while it has nothing to say. */
export interface StatusState {
  /** The search index being built (null once built, or before it starts). */
  indexing: IndexProgress | null;
  /** The first snapshot of the vault being committed (null when there is none under way). */
  snapshot: SnapshotProgress | null;
  /** Agent commits since midnight; null while unknown; `'off'` when the vault has no history. */
  agentCommitsToday: number | 'off' | null;
}

export interface StatusText {
  /** Short, for the bar. */
  text: string;
  /** Longer, for the tooltip and screen readers. */
  label: string;
}

/** The status bar's text for `state`; empty text when there is nothing to show. */
export function formatStatus(state: StatusState): StatusText {
  const short: string[] = [];
  const long: string[] = [];
  if (state.indexing !== null && state.indexing.done < state.indexing.total) {
    short.push(`Indexing ${percent(state.indexing)}`);
    long.push(`Building the search index: ${state.indexing.done} of ${state.indexing.total} notes`);
  }
  if (state.snapshot !== null && state.snapshot.done < state.snapshot.total) {
    short.push(`Saving history ${percent(state.snapshot)}`);
    long.push(`Saving the first snapshot of the vault: ${state.snapshot.done} of ${state.snapshot.total} files`);
  }
  const today = state.agentCommitsToday;
  if (today === 'off') {
    short.push('History off');
    long.push('Version history is off, so agent changes cannot be undone');
  } else if (today !== null) {
    const commits = today === 0 ? 'No agent commits today' : `${today} agent ${today === 1 ? 'commit' : 'commits'} today`;
    short.push(commits);
    long.push(`${commits}. Select to show the agent's history`);
  }
  return { text: short.join(' · '), label: long.join('. ') };
}

function percent(progress: { done: number; total: number }): string {
  if (progress.total <= 0) return '0%';
  return `${Math.min(100, Math.max(0, Math.floor((progress.done / progress.total) * 100)))}%`;
}

/** Owns the plugin's status bar item (`Plugin.addStatusBarItem()`) and keeps its text current. */
export class RecursaStatusBar {
  private state: StatusState = { indexing: null, snapshot: null, agentCommitsToday: null };

  constructor(
    private readonly el: HTMLElement,
    onClick?: () => void,
  ) {
    el.addClass('recursa-status-bar');
    if (onClick !== undefined) {
      el.addClass('mod-clickable');
      el.setAttr('role', 'button');
      el.setAttr('tabindex', '0');
      el.addEventListener('click', onClick);
      el.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onClick();
        }
      });
    }
    this.render();
  }

  setIndexProgress(progress: IndexProgress | null): void {
    this.update({ indexing: progress });
  }

  setSnapshotProgress(progress: SnapshotProgress | null): void {
    this.update({ snapshot: progress });
  }

  setAgentCommitsToday(count: number | 'off' | null): void {
    this.update({ agentCommitsToday: count });
  }

  private update(patch: Partial<StatusState>): void {
    this.state = { ...this.state, ...patch };
    this.render();
  }

  private render(): void {
    const { text, label } = formatStatus(this.state);
    this.el.setText(text);
    this.el.setAttr('aria-label', label === '' ? null : label);
    this.el.toggle(text !== '');
  }
}
