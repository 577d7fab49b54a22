import { ButtonComponent, ItemView, Notice, setIcon, type WorkspaceLeaf } from 'obsidian';
import type { AgentCommit, AgentHistory } from '../../core/git/agentHistory';
import type { GitService } from '../../core/git/GitService';
import { confirmAction } from '../ConfirmModal';
import { commitDiff, diffLines, formatCommitTime, loadHistory, readableCommit, revertAgentCommit, revertedHashes } from './historyModel';

export const HISTORY_VIEW_TYPE = 'recursa-history';

/** What the view needs from the plugin. */
export interface HistoryViewHost {
  /** The vault's history; null while it is not open yet, or when it is off. */
  git(): GitService | null;
  /** A run id for the commit a revert makes. */
  newRunId(): string;
  /** Called after a revert succeeded (to refresh editor marks, the status bar). */
  onReverted?(revert: string, paths: readonly string[]): void;
}

/** Most diff lines drawn for one commit; the rest are counted. */
const MAX_DIFF_LINES = 2_000;

/**
 * The agent's commits, newest first, each with its title, the request behind it, its time, its
 * files (links that open them), its diff and a Revert. Refresh is a view action.
 */
export class HistoryView extends ItemView {
  private subscribed: { git: GitService; stop: () => void } | null = null;
  private running: Promise<void> | null = null;
  private queued = false;
  /** Commits whose diff is open, kept across refreshes. */
  private readonly expanded = new Set<string>();

  constructor(
    leaf: WorkspaceLeaf,
    private readonly host: HistoryViewHost,
  ) {
    super(leaf);
  }

  override getViewType(): string {
    return HISTORY_VIEW_TYPE;
  }

  override getDisplayText(): string {
    return 'Agent history';
  }

  override getIcon(): string {
    return 'history';
  }

  override async onOpen(): Promise<void> {
    const refresh = this.addAction('refresh-cw', 'Refresh', () => void this.refresh());
    // Header actions are links without an address: make Enter and Space press them.
    this.registerDomEvent(refresh, 'keydown', (evt) => {
      if (evt.key !== 'Enter' && evt.key !== ' ') return;
      evt.preventDefault();
      refresh.click();
    });
    this.contentEl.addClass('recursa-history');
    await this.refresh();
  }

  override async onClose(): Promise<void> {
    this.subscribed?.stop();
    this.subscribed = null;
    this.contentEl.empty();
  }

  /** Reloads the list (several calls while one runs make one more run). */
  refresh(): Promise<void> {
    if (this.running !== null) {
      this.queued = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.queued = false;
        await this.reload();
      } while (this.queued);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async reload(): Promise<void> {
    const git = this.host.git();
    this.follow(git);
    if (git === null) {
      this.renderMessage('Version history is off for this vault, so there are no agent changes to show or undo.');
      return;
    }
    try {
      this.render(git, await loadHistory(git));
    } catch (error) {
      this.renderMessage(`The history could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Refreshes on every commit of the history the host has now. */
  private follow(git: GitService | null): void {
    if (this.subscribed?.git === git) return;
    this.subscribed?.stop();
    this.subscribed = null;
    if (git === null) return;
    const stop = git.onEvent((event) => {
      if (event.type === 'commit' || event.type === 'snapshot-done') void this.refresh();
    });
    this.subscribed = { git, stop };
  }

  private renderMessage(text: string): void {
    this.contentEl.empty();
    this.contentEl.createDiv({ cls: 'recursa-history-empty', text });
  }

  private render(git: GitService, history: AgentHistory): void {
    const { contentEl } = this;
    contentEl.empty();
    const header = contentEl.createDiv({ cls: 'recursa-history-header' });
    const today = history.today === 1 ? '1 agent commit today' : `${history.today === 0 ? 'No' : history.today} agent commits today`;
    header.createDiv({ cls: 'recursa-history-summary', text: today });
    if (history.commits.length === 0) {
      contentEl.createDiv({ cls: 'recursa-history-empty', text: 'The agent has not changed anything in this vault yet.' });
      return;
    }
    const reverted = revertedHashes(history.commits);
    const list = contentEl.createEl('ol', { cls: 'recursa-history-list', attr: { 'aria-label': 'Agent commits, newest first' } });
    for (const commit of history.commits) this.renderCommit(list, git, commit, reverted.has(commit.hash));
    if (history.truncated || history.commits.length >= 100) {
      contentEl.createDiv({ cls: 'recursa-history-more', text: 'Older agent commits are not shown.' });
    }
  }

  private renderCommit(list: HTMLElement, git: GitService, commit: AgentCommit, reverted: boolean): void {
    const item = list.createEl('li', { cls: 'recursa-history-item' });
    const head = item.createDiv({ cls: 'recursa-history-item-header' });
    const readable = readableCommit(commit.message, commit.subject);
    head.createDiv({ cls: 'recursa-history-subject', text: readable.title });
    const meta = head.createDiv({ cls: 'recursa-history-meta' });
    // The commit's id is there for whoever looks it up in git, not in the way of reading.
    meta.createSpan({ cls: 'recursa-history-time', text: formatCommitTime(commit.time), attr: { title: `Commit ${commit.hash.slice(0, 7)}` } });
    if (commit.client !== undefined) meta.createSpan({ cls: 'recursa-history-client', text: `via ${commit.client}`, attr: { 'aria-label': `Made for the MCP client ${commit.client}` } });
    if (reverted) meta.createSpan({ cls: 'recursa-history-badge', text: 'Reverted' });
    if (readable.request !== null) {
      const request = item.createDiv({ cls: 'recursa-history-request' });
      request.createSpan({ cls: 'recursa-history-request-label', text: 'You asked: ' });
      request.createSpan({ text: readable.request });
    }
    if (readable.note !== null) item.createDiv({ cls: 'recursa-history-body', text: readable.note });

    const files = item.createEl('ul', { cls: 'recursa-history-files', attr: { 'aria-label': 'Files changed' } });
    for (const path of commit.files) {
      const entry = files.createEl('li');
      const link = entry.createEl('a', { cls: 'internal-link recursa-history-file', href: path, attr: { 'data-href': path, 'aria-label': `Open ${path}` } });
      setIcon(link.createSpan({ cls: 'recursa-history-file-icon', attr: { 'aria-hidden': 'true' } }), 'file-text');
      link.createSpan({ text: path });
      link.addEventListener('click', (event) => {
        event.preventDefault();
        void this.app.workspace.openLinkText(path, '', false);
      });
    }

    const actions = item.createDiv({ cls: 'recursa-history-actions' });
    const diffEl = item.createDiv({ cls: 'recursa-history-diff' });
    const diffButton = new ButtonComponent(actions);
    const showDiff = async (open: boolean): Promise<void> => {
      if (open) this.expanded.add(commit.hash);
      else this.expanded.delete(commit.hash);
      diffButton.setButtonText(open ? 'Hide changes' : 'Show changes');
      diffButton.buttonEl.setAttr('aria-expanded', open);
      diffEl.empty();
      diffEl.toggle(open);
      if (open) await this.renderDiff(diffEl, git, commit);
    };
    diffButton.onClick(() => void showDiff(!this.expanded.has(commit.hash)));
    void showDiff(this.expanded.has(commit.hash));

    // A quiet button: the confirmation it opens is where the warning belongs, not every row.
    const revert = new ButtonComponent(actions).setButtonText(reverted ? 'Reverted' : 'Revert').setDisabled(reverted);
    revert.buttonEl.setAttr('aria-label', reverted ? `"${readable.title}" was reverted` : `Revert "${readable.title}"`);
    if (!reverted) revert.onClick(() => void this.confirmRevert(git, commit));
  }

  private async renderDiff(el: HTMLElement, git: GitService, commit: AgentCommit): Promise<void> {
    let text: string;
    try {
      text = await commitDiff(git, commit);
    } catch (error) {
      el.createDiv({ cls: 'recursa-history-empty', text: `The changes could not be read: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    const lines = diffLines(text);
    const pre = el.createEl('pre', { cls: 'recursa-diff', attr: { 'aria-label': `Changes of ${commit.hash.slice(0, 7)}` } });
    for (const line of lines.slice(0, MAX_DIFF_LINES)) pre.createDiv({ cls: ['recursa-diff-line', `recursa-diff-${line.kind}`], text: line.text });
    if (lines.length > MAX_DIFF_LINES) el.createDiv({ cls: 'recursa-history-more', text: `${lines.length - MAX_DIFF_LINES} more lines are not shown.` });
  }

  private async confirmRevert(git: GitService, commit: AgentCommit): Promise<void> {
    const confirmed = await confirmAction(this.app, {
      title: 'Revert this change?',
      message: `A new commit will undo "${commit.subject}". These files go back to how they were before it:`,
      items: commit.files,
      confirmText: 'Revert',
      warning: true,
    });
    if (!confirmed) return;
    const outcome = await revertAgentCommit(git, commit.hash, this.host.newRunId());
    if (outcome.ok) {
      new Notice(`Reverted "${commit.subject}".`);
      this.host.onReverted?.(outcome.hash, commit.files);
    } else {
      new Notice(outcome.message, 10_000);
    }
    await this.refresh();
  }
}
