import { ItemView, Notice, setIcon, type WorkspaceLeaf } from 'obsidian';
import type { AgentService } from '../../core/agent/AgentService';
import type { ConversationStore } from '../../core/agent/ConversationStore';
import type { AgentOutcome } from '../../core/agent/runAgent';
import type { GitService } from '../../core/git/GitService';
import { confirmAction } from '../ConfirmModal';
import { conversationRuns } from './conversationRuns';
import { ConversationsModal } from './ConversationsModal';
import { DiffModal } from './DiffModal';
import { diffOfRun, filesOfCommits } from './runChanges';
import { RunView } from './RunView';

export const CHAT_VIEW_TYPE = 'recursa-chat';

/** What the chat needs from the plugin; each is null while the vault is still opening. */
export interface ChatHost {
  /** The agent with the settings as they are now. */
  agent(): AgentService | null;
  git(): GitService | null;
  conversations(): ConversationStore | null;
}

/**
 * The chat with the agent, in the right sidebar: the exchanges of one conversation, and an input
 * (Enter sends, Shift+Enter breaks the line, ArrowUp in an empty input recalls the last request).
 * While a run works, the send button is a Stop button that cancels it at once.
 */
export class ChatView extends ItemView {
  private messagesEl!: HTMLElement;
  private inputEl!: HTMLTextAreaElement;
  private actionButton!: HTMLButtonElement;
  private usageEl!: HTMLElement;
  private contextEl!: HTMLElement;
  private conversationId: string | undefined;
  private running: { controller: AbortController; run: RunView } | null = null;
  private lastRequest = '';
  private contextNote: string | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly host: ChatHost,
  ) {
    super(leaf);
    this.icon = 'bot';
  }

  getViewType(): string {
    return CHAT_VIEW_TYPE;
  }

  getDisplayText(): string {
    return 'Recursa';
  }

  protected override async onOpen(): Promise<void> {
    for (const action of [this.addAction('history', 'Past conversations', () => this.showConversations()), this.addAction('square-pen', 'New chat', () => this.newChat())]) {
      // Header actions are links without an address: make Enter and Space press them.
      this.registerDomEvent(action, 'keydown', (evt) => {
        if (evt.key !== 'Enter' && evt.key !== ' ') return;
        evt.preventDefault();
        action.click();
      });
    }
    const root = this.contentEl;
    root.empty();
    root.addClass('recursa-chat');
    this.messagesEl = root.createDiv({ cls: 'recursa-messages', attr: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' } });
    this.showEmptyState();
    const footer = root.createDiv('recursa-chat-footer');
    this.contextEl = footer.createDiv('recursa-context');
    this.contextEl.hide();
    const composer = footer.createDiv('recursa-composer');
    this.inputEl = composer.createEl('textarea', {
      cls: 'recursa-input',
      attr: { rows: 2, placeholder: 'Ask about your notes…', 'aria-label': 'Message to the agent' },
    });
    this.actionButton = composer.createEl('button', { cls: 'recursa-send-button mod-cta' });
    this.showIdle();
    this.usageEl = footer.createDiv({ cls: 'recursa-usage', attr: { 'aria-label': 'Budget used by the last run' } });
    this.registerDomEvent(this.inputEl, 'keydown', (evt) => this.onInputKey(evt));
    this.registerDomEvent(this.actionButton, 'click', () => {
      if (this.running !== null) this.stop();
      else void this.send();
    });
    await Promise.resolve();
  }

  protected override async onClose(): Promise<void> {
    this.stop();
    await Promise.resolve();
  }

  /** The next request is about this note (a chip above the input says so); null clears it. */
  setContextNote(path: string | null): void {
    this.contextNote = path;
    this.contextEl.empty();
    this.contextEl.toggle(path !== null);
    if (path === null) return;
    const chip = this.contextEl.createDiv('recursa-context-chip');
    setIcon(chip.createSpan('recursa-context-icon'), 'file-text');
    chip.createSpan({ text: path });
    const remove = chip.createEl('button', { cls: 'clickable-icon recursa-context-remove', attr: { 'aria-label': 'Remove the note from the context' } });
    setIcon(remove, 'x');
    remove.addEventListener('click', () => this.setContextNote(null));
  }

  focusInput(): void {
    this.inputEl.focus();
  }

  /** Starts a new conversation (a running request is stopped first). */
  newChat(): void {
    this.stop();
    this.conversationId = undefined;
    this.messagesEl.empty();
    this.usageEl.setText('');
    this.showEmptyState();
    this.focusInput();
  }

  /** Sends what the input holds (or `text`), unless a run is going on. */
  async send(text?: string): Promise<void> {
    const request = (text ?? this.inputEl.value).trim();
    if (request === '' || this.running !== null) return;
    this.inputEl.value = '';
    this.lastRequest = request;
    const context = this.contextNote;
    this.setContextNote(null);
    await this.runRequest(request, context);
  }

  /** Cancels the running request at once. */
  stop(): void {
    if (this.running === null) return;
    this.running.run.stopping();
    this.running.controller.abort();
  }

  /** Shows a saved conversation again; the next request continues it. */
  async resume(id: string): Promise<void> {
    const store = this.host.conversations();
    const conversation = store === null ? null : await store.load(id);
    if (conversation === null) {
      new Notice('Recursa: that conversation could not be read.');
      return;
    }
    this.stop();
    this.messagesEl.empty();
    this.conversationId = conversation.id;
    for (const past of conversationRuns(conversation.messages)) {
      await new RunView(this.messagesEl, this.app, this, past.request, null).showPast(past.code, past.reply);
    }
    this.scrollToEnd();
  }

  private async runRequest(request: string, context: string | null): Promise<void> {
    this.messagesEl.querySelector('.recursa-empty')?.detach();
    const run = new RunView(this.messagesEl, this.app, this, request, context);
    const retry = (): void => void this.runRequest(request, context);
    this.scrollToEnd();
    const agent = this.host.agent();
    if (agent === null) {
      run.fail('Recursa is still opening this vault. Try again in a moment.', retry);
      return;
    }
    const controller = new AbortController();
    this.running = { controller, run };
    this.showBusy();
    try {
      const text = context === null ? request : `The user is asking about the note "${context}".\n\n${request}`;
      const { conversation, outcome } = await agent.ask(text, {
        conversationId: this.conversationId,
        signal: controller.signal,
        onEvent: (event) => {
          run.onEvent(event);
          if (event.type === 'usage') this.showUsage(event.turns, event.tokens, event.memCalls);
          this.scrollToEnd();
        },
      });
      this.conversationId = conversation.id;
      await run.finish(outcome, retry);
      // The run is over: Send is back while its changes (a git diff away) are still being shown.
      this.settle(run);
      if (outcome.commits.length > 0) await this.showChanges(run, outcome);
    } catch (error) {
      run.fail(`The request failed: ${error instanceof Error ? error.message : String(error)}`, retry);
    } finally {
      this.settle(run);
      this.scrollToEnd();
    }
  }

  /** Ends `run` as the one in progress (if it still is), and brings back the Send button. */
  private settle(run: RunView): void {
    if (this.running?.run !== run) return;
    this.running = null;
    this.showIdle();
  }

  private async showChanges(run: RunView, outcome: AgentOutcome): Promise<void> {
    const git = this.host.git();
    if (git === null) return;
    const commits = outcome.commits;
    const files = await filesOfCommits(git, commits);
    run.showChanges({
      files,
      showDiff: (path) => new DiffModal(this.app, path, () => diffOfRun(git, commits, path)).open(),
      revert: async () => {
        const count = files.length === 1 ? `"${files[0] ?? ''}"` : `${files.length} files`;
        const confirmed = await confirmAction(this.app, { title: 'Revert these changes?', message: `This puts back ${count} as they were before this run, in a new commit.`, confirmText: 'Revert', warning: true });
        if (!confirmed) return false;
        try {
          for (const hash of [...commits].reverse()) await git.revertCommit(hash, `revert-${outcome.runId}`);
          new Notice('Recursa: the changes were reverted.');
          return true;
        } catch (error) {
          new Notice(`Recursa: the changes could not be reverted. ${error instanceof Error ? error.message : String(error)}`, 10_000);
          return false;
        }
      },
    });
  }

  private showConversations(): void {
    const store = this.host.conversations();
    if (store === null) {
      new Notice('Recursa is still opening this vault.');
      return;
    }
    new ConversationsModal(this.app, async () => (await store.list()).conversations, (id) => void this.resume(id)).open();
  }

  private onInputKey(evt: KeyboardEvent): void {
    if (evt.key === 'Enter' && !evt.shiftKey && !evt.isComposing) {
      evt.preventDefault();
      void this.send();
    } else if (evt.key === 'ArrowUp' && this.inputEl.value === '' && this.lastRequest !== '') {
      evt.preventDefault();
      this.inputEl.value = this.lastRequest;
    }
  }

  private showBusy(): void {
    this.actionButton.empty();
    setIcon(this.actionButton, 'square');
    this.actionButton.setAttr('aria-label', 'Stop');
    this.actionButton.removeClass('mod-cta');
    this.actionButton.addClass('mod-warning');
  }

  private showIdle(): void {
    this.actionButton.empty();
    setIcon(this.actionButton, 'arrow-up');
    this.actionButton.setAttr('aria-label', 'Send');
    this.actionButton.removeClass('mod-warning');
    this.actionButton.addClass('mod-cta');
  }

  private showUsage(turns: number, tokens: number, memCalls: number): void {
    const formatted = tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
    this.usageEl.setText(`${turns} ${turns === 1 ? 'turn' : 'turns'} · ${formatted} tokens · ${memCalls} mem ${memCalls === 1 ? 'call' : 'calls'}`);
  }

  private showEmptyState(): void {
    const empty = this.messagesEl.createDiv('recursa-empty');
    setIcon(empty.createDiv('recursa-empty-icon'), 'bot');
    empty.createDiv({ cls: 'recursa-empty-title', text: 'Ask Recursa about your notes' });
    empty.createDiv({ cls: 'recursa-empty-text', text: 'It reads and edits the vault for you. Every change is a git commit you can look at and revert.' });
  }

  private scrollToEnd(): void {
    this.messagesEl.scrollTop = this.messagesEl.scrollHeight;
  }
}
