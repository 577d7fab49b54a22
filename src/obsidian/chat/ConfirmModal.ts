import { Modal, Setting, type App } from 'obsidian';

/** Asks a yes-or-no question; resolves true only when the user confirms. */
export function confirmAction(app: App, title: string, message: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const modal = new Modal(app);
    modal.setTitle(title);
    modal.contentEl.createEl('p', { text: message });
    let cancel: HTMLButtonElement | null = null;
    new Setting(modal.contentEl)
      .addButton((button) => {
        cancel = button.buttonEl;
        button.setButtonText('Cancel').onClick(() => {
          modal.close();
        });
      })
      .addButton((button) =>
        button
          .setButtonText(confirmLabel)
          .setWarning()
          .onClick(() => {
            answered = true;
            modal.close();
          }),
      );
    modal.setCloseCallback(() => resolve(answered));
    modal.open();
    // The safe answer has the focus: Enter alone never reverts.
    (cancel as HTMLButtonElement | null)?.focus();
  });
}
