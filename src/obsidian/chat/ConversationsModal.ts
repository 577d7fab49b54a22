import { Modal, Setting, SuggestModal, setIcon, type App } from 'obsidian';
import type { ConversationSummary } from '../../core/agent/ConversationStore';
import { relativeTime } from './relativeTime';

export interface ConversationActions {
  load: () => Promise<ConversationSummary[]>;
  open: (id: string) => void;
  rename: (id: string, title: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
}

/**
 * The saved conversations, newest first, searchable: Enter opens one, Shift+Enter renames it,
 * Shift+Delete deletes it (after asking); each row also has Rename and Delete buttons.
 */
export class ConversationsModal extends SuggestModal<ConversationSummary> {
  private conversations: ConversationSummary[] = [];
  /** The conversation each drawn row shows (titles need not be unique). */
  private readonly rows = new WeakMap<Element, ConversationSummary>();

  constructor(
    app: App,
    private readonly actions: ConversationActions,
  ) {
    super(app);
    this.modalEl.addClass('recursa-conversations-modal');
    this.setPlaceholder('Search past conversations…');
    this.emptyStateText = 'No conversation matches.';
    this.setInstructions([
      { command: '↵', purpose: 'to open' },
      { command: 'shift ↵', purpose: 'to rename' },
      { command: 'shift del', purpose: 'to delete' },
    ]);
    this.scope.register(['Shift'], 'Enter', () => {
      const chosen = this.highlighted();
      if (chosen !== null) this.rename(chosen);
      return false;
    });
    this.scope.register(['Shift'], 'Delete', () => {
      const chosen = this.highlighted();
      if (chosen !== null) void this.remove(chosen);
      return false;
    });
  }

  override onOpen(): void {
    void super.onOpen();
    void this.reload();
  }

  async getSuggestions(query: string): Promise<ConversationSummary[]> {
    const words = query.toLowerCase().split(/\s+/).filter((word) => word !== '');
    return this.conversations.filter((conversation) => words.every((word) => conversation.title.toLowerCase().includes(word)));
  }

  renderSuggestion(conversation: ConversationSummary, el: HTMLElement): void {
    el.addClass('recursa-conversation-item');
    this.rows.set(el, conversation);
    const text = el.createDiv('recursa-conversation-text');
    text.createDiv({ cls: 'recursa-conversation-title', text: conversation.title });
    text.createDiv({ cls: 'recursa-conversation-date', text: relativeTime(conversation.updated), attr: { title: new Date(conversation.updated).toLocaleString() } });
    const buttons = el.createDiv('recursa-conversation-actions');
    const button = (icon: string, label: string, run: () => void): void => {
      const b = buttons.createEl('button', { cls: 'clickable-icon', attr: { 'aria-label': `${label} "${conversation.title}"` } });
      setIcon(b, icon);
      b.addEventListener('click', (evt) => {
        evt.stopPropagation();
        run();
      });
    };
    button('pencil', 'Rename', () => this.rename(conversation));
    button('trash-2', 'Delete', () => void this.remove(conversation));
  }

  onChooseSuggestion(conversation: ConversationSummary): void {
    this.actions.open(conversation.id);
  }

  /** The conversation the keyboard selection is on (a name of its own: the suggest modal has internals of its own). */
  private highlighted(): ConversationSummary | null {
    const el = this.resultContainerEl.querySelector('.suggestion-item.is-selected');
    return el === null ? null : (this.rows.get(el) ?? null);
  }

  private async reload(): Promise<void> {
    try {
      this.conversations = await this.actions.load();
    } catch (error) {
      this.emptyStateText = `The conversations could not be read: ${error instanceof Error ? error.message : String(error)}`;
      this.conversations = [];
    }
    if (this.conversations.length === 0 && this.inputEl.value === '') this.emptyStateText = 'No conversations yet.';
    // Typing asks for suggestions again; an input event does the same now the list is loaded.
    this.inputEl.dispatchEvent(new Event('input'));
  }

  private rename(conversation: ConversationSummary): void {
    new RenameModal(this.app, conversation.title, async (title) => {
      await this.actions.rename(conversation.id, title);
      await this.reload();
    }).open();
  }

  private async remove(conversation: ConversationSummary): Promise<void> {
    new ConfirmDelete(this.app, conversation.title, async () => {
      await this.actions.remove(conversation.id);
      await this.reload();
    }).open();
  }
}

/** Asks for a conversation's new title. */
class RenameModal extends Modal {
  constructor(
    app: App,
    private readonly title: string,
    private readonly done: (title: string) => Promise<void>,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle('Rename the conversation');
    let value = this.title;
    const save = (): void => {
      const title = value.trim();
      if (title === '') return;
      this.close();
      void this.done(title);
    };
    new Setting(this.contentEl).setName('Title').addText((text) => {
      text.setValue(this.title).onChange((next) => (value = next));
      text.inputEl.setAttr('aria-label', 'New title');
      text.inputEl.addEventListener('keydown', (evt) => {
        if (evt.key === 'Enter') {
          evt.preventDefault();
          save();
        }
      });
      window.setTimeout(() => text.inputEl.select(), 0);
    });
    new Setting(this.contentEl).addButton((button) => button.setButtonText('Cancel').onClick(() => this.close())).addButton((button) => button.setButtonText('Rename').setCta().onClick(save));
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

/** Asks before a conversation is deleted. */
class ConfirmDelete extends Modal {
  constructor(
    app: App,
    private readonly title: string,
    private readonly done: () => Promise<void>,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle('Delete the conversation?');
    this.contentEl.createEl('p', { text: `"${this.title}" will be deleted. The changes it made to notes stay in the vault's history.` });
    let cancel: HTMLButtonElement | null = null;
    new Setting(this.contentEl)
      .addButton((button) => {
        cancel = button.buttonEl;
        button.setButtonText('Cancel').onClick(() => this.close());
      })
      .addButton((button) => {
        button.setButtonText('Delete').onClick(() => {
          this.close();
          void this.done();
        });
        button.buttonEl.addClass('mod-warning');
      });
    (cancel as HTMLButtonElement | null)?.focus();
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
