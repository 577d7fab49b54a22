import { Modal, type App } from 'obsidian';
import type { ConversationSummary } from '../../core/agent/ConversationStore';

/** The saved conversations, newest first; choosing one resumes it. */
export class ConversationsModal extends Modal {
  constructor(
    app: App,
    private readonly load: () => Promise<ConversationSummary[]>,
    private readonly choose: (id: string) => void,
  ) {
    super(app);
  }

  override async onOpen(): Promise<void> {
    this.setTitle('Past conversations');
    this.modalEl.addClass('recursa-conversations-modal');
    const list = this.contentEl.createDiv({ cls: 'recursa-conversation-list', attr: { role: 'list' } });
    let conversations: ConversationSummary[];
    try {
      conversations = await this.load();
    } catch (error) {
      list.createDiv({ cls: 'recursa-error', text: `The conversations could not be read: ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    if (conversations.length === 0) {
      list.createDiv({ cls: 'recursa-muted', text: 'No conversations yet.' });
      return;
    }
    for (const conversation of conversations) {
      const item = list.createEl('button', { cls: 'recursa-conversation-item', attr: { role: 'listitem' } });
      item.createDiv({ cls: 'recursa-conversation-title', text: conversation.title });
      item.createDiv({ cls: 'recursa-conversation-date', text: formatWhen(conversation.updated) });
      item.addEventListener('click', () => {
        this.close();
        this.choose(conversation.id);
      });
    }
    list.querySelector<HTMLElement>('button')?.focus();
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
