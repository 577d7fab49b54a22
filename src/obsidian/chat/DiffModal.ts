import { Modal, type App } from 'obsidian';
import { renderDiff } from '../review/ReviewPanel';
import { renderPathLabel } from './pathLabel';

/** Shows one file's change: added and removed lines, without git's headers. The diff is text, never HTML. */
export class DiffModal extends Modal {
  constructor(
    app: App,
    private readonly path: string,
    private readonly diff: () => Promise<string>,
  ) {
    super(app);
  }

  override async onOpen(): Promise<void> {
    this.modalEl.addClass('recursa-diff-modal');
    this.titleEl.empty();
    this.titleEl.addClass('recursa-diff-title');
    this.titleEl.createSpan({ cls: 'recursa-diff-title-prefix', text: 'Changes to ' });
    renderPathLabel(this.titleEl, this.path);
    const pre = this.contentEl.createDiv({ cls: 'recursa-diff', attr: { tabindex: 0, role: 'document', 'aria-label': `Diff of ${this.path}` } });
    pre.setText('Loading…');
    try {
      renderDiff(pre, await this.diff());
    } catch (error) {
      pre.setText(`The diff could not be read: ${error instanceof Error ? error.message : String(error)}`);
      pre.addClass('recursa-error');
    }
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
