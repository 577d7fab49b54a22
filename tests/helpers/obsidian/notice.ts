import type * as Obsidian from 'obsidian';

const DEFAULT_DURATION_MS = 5000;

/**
 * Obsidian's `Notice`: a toast in the `.notice-container` at the top right of the window, hidden
 * after `duration` ms (default 5 s; 0 keeps it until clicked), or at once when clicked.
 */
export class Notice implements Obsidian.Notice {
  noticeEl: HTMLElement;
  containerEl: HTMLElement;
  messageEl: HTMLElement;
  private timer: number | undefined;

  constructor(message: string | DocumentFragment, duration?: number) {
    let container = document.body.querySelector<HTMLElement>(':scope > .notice-container');
    container ??= document.body.createDiv('notice-container');
    this.containerEl = container;
    this.noticeEl = container.createDiv('notice');
    this.noticeEl.setAttr('role', 'status');
    this.messageEl = this.noticeEl.createDiv('notice-message');
    this.setMessage(message);
    this.noticeEl.addEventListener('click', () => this.hide());
    const ms = duration ?? DEFAULT_DURATION_MS;
    if (ms > 0) this.timer = window.setTimeout(() => this.hide(), ms);
  }

  setMessage(message: string | DocumentFragment): this {
    this.messageEl.setText(message);
    return this;
  }

  hide(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.timer = undefined;
    this.noticeEl.detach();
    if (this.containerEl.childElementCount === 0) this.containerEl.detach();
  }
}
