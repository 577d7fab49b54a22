import { ItemView, MarkdownView, Notice, TFile, type WorkspaceLeaf } from 'obsidian';
import type { AgentService } from '../../core/agent/AgentService';
import type { ConversationStore } from '../../core/agent/ConversationStore';
import type { AgentOutcome } from '../../core/agent/runAgent';
import type { GitService } from '../../core/git/GitService';
import { confirmAction } from '../ConfirmModal';
import { renderReview } from '../review/ReviewPanel';
import { ReviewSession, type ReviewDeps, type ReviewResult } from '../review/reviewSession';
import { Composer } from './Composer';
import { conversationRuns } from './conversationRuns';
import { ConversationsModal } from './ConversationsModal';
import { DiffModal } from './DiffModal';
import { renderEmptyState, type StarterPrompt } from './emptyState';
import { pickedContext, type PickedNote } from './pickedNotes';
import { diffOfRun, filesOfCommits } from './runChanges';
import type { ErrorActions, ReplyActions } from './runRows';
import { RunView } from './RunView';
import { noteNameFor } from './savedReply';
import { ScrollFollow } from './scrollFollow';

export const CHAT_VIEW_TYPE = 'recursa-chat';

/** What the chat needs from the plugin; the vault's parts are null while the vault is still opening. */
export interface ChatHost {
  /** The agent with the settings as they are now. */
  agent(): AgentService | null;
  git(): GitService | null;
  conversations(): ConversationStore | null;
  /** What answers, for the empty state: `OpenAI · gpt-4o-mini`. */
  modelLabel(): string;
  /** Opens Obsidian's settings at Recursa's tab. */
  openSettings(): void;
  /** Starts recording the notes read; the function returned stops and gives them (null: cannot record). */
  recordReads(): (() => string[]) | null;
  /** Whether a run's changes wait for review (Keep or Undo) before they are committed. */
  reviewMode(): boolean;
  setReviewMode(on: boolean): Promise<void>;
  /** What a review needs; null while the vault is opening or has no history. */
  review(): ReviewDeps | null;
}

/**
 * The chat with the agent, in the right sidebar: the exchanges of one conversation, and the
 * composer (see `Composer`). While a run works, the send button is a Stop button that cancels it
 * at once. The view follows new content only while the person is at the end of it.
 */
export class ChatView extends ItemView {
  private messagesEl!: HTMLElement;
  private usageEl!: HTMLElement;
  private composer!: Composer;
  private scroll!: ScrollFollow;
  private reviewToggle!: HTMLElement;
  /** The review of a run's changes while one is open (see `ReviewSession`). */
  private review: ReviewSession | null = null;
  private conversationId: string | undefined;
  private running: { controller: AbortController; run: RunView } | null = null;

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
    this.reviewToggle = this.addAction('file-diff', 'Review changes before saving', () => void this.toggleReviewMode());
    this.showReviewMode();
    for (const action of [this.addAction('history', 'Past conversations', () => this.showConversations()), this.addAction('square-pen', 'New chat', () => this.newChat()), this.reviewToggle]) {
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
    this.scroll = new ScrollFollow(this.messagesEl);
    this.showEmptyState();
    const footer = root.createDiv('recursa-chat-footer');
    this.composer = new Composer(footer, this.app, this, {
      send: (text) => void this.send(text),
      stop: () => this.stop(),
      running: () => this.running !== null,
    });
    this.usageEl = footer.createDiv({ cls: 'recursa-usage', attr: { 'aria-label': 'Budget used by the last run' } });
    await this.restoreReview();
  }

  /** Shows again a review left open when Obsidian closed (once the vault is open). */
  async restoreReview(): Promise<void> {
    const deps = this.host.review();
    if (this.review !== null || deps === null) return;
    const session = await ReviewSession.restore(deps).catch(() => null);
    if (session === null || !session.open || this.review !== null) return;
    this.review = session;
    this.showPendingReview(session);
  }

  protected override async onClose(): Promise<void> {
    this.stop();
    await Promise.resolve();
  }

  /** Attaches a note (or folder) to the next request: a chip above the input shows it. */
  attachNote(path: string): void {
    this.composer.attach(path);
  }

  focusInput(): void {
    this.composer.focus();
  }

  /** Starts a new conversation (a running request is stopped first). */
  newChat(): void {
    this.stop();
    this.conversationId = undefined;
    this.messagesEl.empty();
    this.usageEl.setText('');
    this.showEmptyState();
    if (this.review !== null) this.showPendingReview(this.review);
    this.focusInput();
  }

  /** Sends `text` with the notes attached now, unless a run is going on. */
  async send(text: string): Promise<void> {
    const request = text.trim();
    if (request === '' || this.running !== null) return;
    if (this.review?.open === true) {
      // Another run's changes would mix with the ones under review: they are decided first.
      if (this.composer.inputEl.value === '') this.composer.inputEl.value = request;
      this.composer.hint('Keep or undo the changes under review first; your message stays here.');
      return;
    }
    await this.runRequest(request, this.composer.takeAttached());
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
    this.usageEl.setText('');
    this.conversationId = conversation.id;
    if (this.review !== null) this.showPendingReview(this.review);
    for (const past of conversationRuns(conversation.messages)) {
      const run: RunView = new RunView(this.messagesEl, this.app, this, past.request, past.attached, this.replyActions(() => run.reply, past.request));
      await run.showPast(past.code, past.reply);
    }
    this.scroll.toEnd();
  }

  private async runRequest(request: string, attached: readonly PickedNote[]): Promise<void> {
    this.messagesEl.querySelector('.recursa-empty')?.detach();
    const paths = attached.map((note) => (note.kind === 'folder' ? `${note.path}/` : note.path));
    const run: RunView = new RunView(this.messagesEl, this.app, this, request, paths, this.replyActions(() => run.reply, request));
    const actions = this.errorActions(() => void this.runRequest(request, attached));
    this.scroll.toEnd();
    const agent = this.host.agent();
    if (agent === null) {
      run.fail('Recursa is still opening this vault. Try again in a moment.', actions);
      return;
    }
    const controller = new AbortController();
    this.running = { controller, run };
    this.composer.setBusy(true);
    // Reads are recorded from the agent's first step: what it reads to build its prompt is not a source.
    const reads: { stop: (() => string[]) | null } = { stop: null };
    const review = this.host.reviewMode() ? this.host.review() : null;
    try {
      const { countTokens, loadTokenizer } = await import('../../core/tokens/countTokens');
      await loadTokenizer();
      const context = pickedContext(attached, await this.readPicked(attached), countTokens);
      const { conversation, outcome } = await agent.ask(request, {
        conversationId: this.conversationId,
        signal: controller.signal,
        context,
        deferCommit: review !== null,
        onEvent: (event) => {
          if (event.type === 'code' && reads.stop === null) reads.stop = this.host.recordReads();
          run.onEvent(event);
          if (event.type === 'usage') this.showUsage(event.turns, event.tokens, event.memCalls);
          this.scroll.update();
        },
      });
      // The attached notes went to the model with the request: they are sources too.
      const read = [...new Set([...attached.filter((note) => note.kind === 'note').map((note) => note.path), ...(reads.stop?.() ?? [])])].sort();
      this.conversationId = conversation.id;
      await run.finish(outcome, actions);
      const reply = run.replyElement;
      if (reply !== null) this.scroll.reveal(reply);
      // The run is over: Send is back while its changes (a git diff away) are still being shown.
      this.settle(run);
      const pending = review === null ? [] : (outcome.pending ?? []);
      const changed = [...(outcome.commits.length > 0 ? await this.showChanges(run, outcome) : []), ...pending];
      if (outcome.state === 'completed') run.showSources(read, changed);
      if (review !== null && pending.length > 0) await this.startReview(run, review, outcome.runId, request, pending);
    } catch (error) {
      run.fail(`The request failed: ${error instanceof Error ? error.message : String(error)}`, actions);
    } finally {
      reads.stop?.();
      this.settle(run);
      this.scroll.update();
    }
  }

  /** The text of the attached notes (folders are sent by path only). */
  private async readPicked(attached: readonly PickedNote[]): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    for (const note of attached) {
      const file = this.app.vault.getAbstractFileByPath(note.path);
      if (file instanceof TFile) texts.set(note.path, await this.app.vault.cachedRead(file));
    }
    return texts;
  }

  /** Ends `run` as the one in progress (if it still is), and brings back the Send button. */
  private settle(run: RunView): void {
    if (this.running?.run !== run) return;
    this.running = null;
    this.composer.setBusy(false);
  }

  private errorActions(retry: () => void): ErrorActions {
    return { retry, openSettings: () => this.host.openSettings(), newChat: () => this.newChat() };
  }

  /** Copy, Insert at the cursor, Save as note, for a reply (`reply` gives its Markdown once it is there). */
  private replyActions(reply: () => string | null, request: string): ReplyActions {
    return {
      copy: () => {
        const text = reply();
        if (text === null) return;
        navigator.clipboard.writeText(text).then(
          () => new Notice('Reply copied as Markdown.'),
          () => new Notice('The reply could not be copied: the clipboard is not available.'),
        );
      },
      insert: () => {
        const text = reply();
        if (text === null) return;
        const view = this.app.workspace.getMostRecentLeaf()?.view;
        if (!(view instanceof MarkdownView) || view.file === null) {
          new Notice('Open a note first to insert the reply into it.');
          return;
        }
        view.editor.replaceSelection(text);
        new Notice(`Reply inserted into ${view.file.basename}.`);
      },
      save: () => {
        const text = reply();
        if (text !== null) void this.saveReply(text, request);
      },
    };
  }

  private async saveReply(reply: string, request: string): Promise<void> {
    const exists = (path: string): boolean => this.app.vault.getAbstractFileByPath(path) !== null;
    const path = noteNameFor(request, exists);
    try {
      await this.app.vault.create(path, reply.endsWith('\n') ? reply : `${reply}\n`);
      await this.app.workspace.openLinkText(path, '', false);
      new Notice(`Reply saved as ${path}.`);
    } catch (error) {
      new Notice(`The reply could not be saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Keeps the run's changes uncommitted and shows them for Keep or Undo, under the run. */
  private async startReview(run: RunView, deps: ReviewDeps, runId: string, request: string, paths: readonly string[]): Promise<void> {
    try {
      const session = await ReviewSession.start(deps, runId, request, paths);
      this.review = session;
      this.drawReview(run.addBlock('recursa-review-slot'), session);
    } catch (error) {
      new Notice(`Recursa: the changes could not be prepared for review; they are in the vault, uncommitted. ${error instanceof Error ? error.message : String(error)}`, 10_000);
    }
  }

  /** A review from before (a restart, another conversation), above the conversation. */
  private showPendingReview(session: ReviewSession): void {
    this.messagesEl.querySelector('.recursa-empty')?.detach();
    const block = this.messagesEl.createDiv({ cls: 'recursa-run recursa-pending-review', attr: { role: 'group', 'aria-label': 'Changes waiting for review' } });
    this.messagesEl.prepend(block);
    block.createDiv({ cls: 'recursa-review-request', text: `Waiting for your review, from the request "${session.record.request}".` });
    this.drawReview(block, session);
  }

  private drawReview(parent: HTMLElement, session: ReviewSession): void {
    renderReview(
      parent,
      session,
      (result: ReviewResult) => {
        if (this.review === session) this.review = null;
        this.composer.hint('');
        new Notice(result.commit === null ? 'Recursa: the changes were undone.' : 'Recursa: the kept changes were saved to the history.');
      },
      (error: unknown) => new Notice(`Recursa: the review step did not work. ${error instanceof Error ? error.message : String(error)}`, 10_000),
    );
    this.scroll.update();
  }

  private async toggleReviewMode(): Promise<void> {
    await this.host.setReviewMode(!this.host.reviewMode());
    this.showReviewMode();
    new Notice(this.host.reviewMode() ? 'Recursa: changes now wait for your review before they are saved.' : 'Recursa: changes are now saved to the history at once.');
  }

  private showReviewMode(): void {
    const on = this.host.reviewMode();
    this.reviewToggle.setAttr('aria-pressed', on);
    this.reviewToggle.setAttr('aria-label', on ? 'Review changes before saving: on' : 'Review changes before saving: off');
    this.reviewToggle.toggleClass('is-active', on);
  }

  /** Shows the files the run's commits changed; returns them. */
  private async showChanges(run: RunView, outcome: AgentOutcome): Promise<string[]> {
    const git = this.host.git();
    if (git === null) return [];
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
    return files;
  }

  private showConversations(): void {
    const store = this.host.conversations();
    if (store === null) {
      new Notice('Recursa is still opening this vault.');
      return;
    }
    new ConversationsModal(this.app, {
      load: async () => (await store.list()).conversations,
      open: (id) => void this.resume(id),
      rename: async (id, title) => {
        const conversation = await store.load(id);
        if (conversation !== null) await store.save({ ...conversation, title });
      },
      remove: async (id) => {
        await store.remove(id);
        if (id === this.conversationId) this.newChat();
      },
    }).open();
  }

  private showUsage(turns: number, tokens: number, memCalls: number): void {
    const formatted = tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
    this.usageEl.setText(`${turns} ${turns === 1 ? 'step' : 'steps'} · ${formatted} tokens · ${memCalls} ${memCalls === 1 ? 'vault call' : 'vault calls'}`);
  }

  private showEmptyState(): void {
    renderEmptyState(this.messagesEl, this.app, {
      model: this.host.modelLabel(),
      openSettings: () => this.host.openSettings(),
      start: (prompt) => this.start(prompt),
    });
  }

  /** A starter prompt: attach its note and send it. */
  private start(prompt: StarterPrompt): void {
    if (prompt.attach !== null) this.composer.attach(prompt.attach);
    void this.send(prompt.text);
  }
}
