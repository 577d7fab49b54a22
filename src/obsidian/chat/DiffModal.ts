import { Modal, type App } from 'obsidian';

/** Shows a unified diff, each line coloured by what it is. The diff is text, never HTML. */
export class DiffModal extends Modal {
  constructor(
    app: App,
    private readonly path: string,
    private readonly diff: () => Promise<string>,
  ) {
    super(app);
  }

  override async onOpen(): Promise<void> {
    this.setTitle(`Changes to ${this.path}`);
    this.modalEl.addClass('recursa-diff-modal');
    const pre = this.contentEl.createEl('pre', { cls: 'recursa-diff', attr: { tabindex: 0, 'aria-label': `Diff of ${this.path}` } });
    pre.setText('Loading…');
    let text: string;
    try {
      text = await this.diff();
    } catch (error) {
      pre.setText(`The diff could not be read: ${error instanceof Error ? error.message : String(error)}`);
      pre.addClass('recursa-error');
      return;
    }
    pre.empty();
    if (text.trim() === '') {
      pre.setText('No changes.');
      return;
    }
    for (const line of text.split('\n')) {
      const kind = line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ') ? 'file' : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : 'context';
      pre.createDiv({ cls: `recursa-diff-line recursa-diff-${kind}`, text: line === '' ? ' ' : line });
    }
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
