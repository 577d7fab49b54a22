import { Modal, Setting, type App } from 'obsidian';

/** Asks a yes-or-no question; resolves true only when the user confirms. */
export function confirmAction(app: App, title: string, message: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const modal = new Modal(app);
    modal.setTitle(title);
    modal.contentEl.createEl('p', { text: message });
    new Setting(modal.contentEl)
      .addButton((button) =>
        button.setButtonText('Cancel').onClick(() => {
          modal.close();
        }),
      )
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
  });
}
