import { Modal, Setting, type App } from 'obsidian';

export interface ConfirmOptions {
  title: string;
  /** What will happen, in a sentence or two. */
  message: string;
  /** Listed under the message (the files a revert changes). */
  items?: readonly string[];
  /** The button that goes ahead, e.g. `Revert`. */
  confirmText: string;
  /** Style the confirm button as destructive. */
  warning?: boolean;
}

/** Asks before doing something; resolves true only when the user chose the confirm button. */
export function confirmAction(app: App, options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => new ConfirmModal(app, options, resolve).open());
}

export class ConfirmModal extends Modal {
  private answered = false;

  constructor(
    app: App,
    private readonly options: ConfirmOptions,
    private readonly onAnswer: (confirmed: boolean) => void,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { contentEl, options } = this;
    this.setTitle(options.title);
    contentEl.addClass('recursa-confirm');
    contentEl.createEl('p', { text: options.message });
    if (options.items !== undefined && options.items.length > 0) {
      const list = contentEl.createEl('ul', { cls: 'recursa-confirm-list' });
      for (const item of options.items) list.createEl('li', { text: item });
    }
    let cancel: HTMLButtonElement | null = null;
    new Setting(contentEl)
      .addButton((button) => {
        cancel = button.buttonEl;
        button.setButtonText('Cancel').onClick(() => this.answer(false));
      })
      .addButton((button) => {
        button.setButtonText(options.confirmText).onClick(() => this.answer(true));
        // Obsidian's destructive style (`setWarning` is deprecated, `setDestructive` needs 1.13).
        if (options.warning === true) button.buttonEl.addClass('mod-warning');
        else button.setCta();
      });
    // The safe choice has the focus, so Enter alone never destroys anything.
    (cancel as HTMLButtonElement | null)?.focus();
  }

  override onClose(): void {
    this.contentEl.empty();
    if (!this.answered) this.onAnswer(false);
  }

  private answer(confirmed: boolean): void {
    this.answered = true;
    this.onAnswer(confirmed);
    this.close();
  }
}
