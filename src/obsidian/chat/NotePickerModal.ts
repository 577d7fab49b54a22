import { FuzzySuggestModal, TFile, TFolder, type App, type FuzzyMatch, type TAbstractFile } from 'obsidian';

/**
 * The note picker of the chat input: every note and folder of the vault, found by fuzzy search
 * like Obsidian's own link suggester (`@` or `[[` in the input open it). The config folder is left out.
 */
export class NotePickerModal extends FuzzySuggestModal<TAbstractFile> {
  constructor(
    app: App,
    private readonly choose: (item: TAbstractFile) => void,
    /** Told when the picker closes, chosen or not (Obsidian tells the choice after this). */
    private readonly closed: () => void,
  ) {
    super(app);
    this.setPlaceholder('Find a note or folder to attach…');
    this.setInstructions([
      { command: '↑↓', purpose: 'to navigate' },
      { command: '↵', purpose: 'to attach' },
      { command: 'esc', purpose: 'to dismiss' },
    ]);
    this.emptyStateText = 'No note or folder matches.';
    this.modalEl.addClass('recursa-note-picker');
  }

  getItems(): TAbstractFile[] {
    const configDir = this.app.vault.configDir;
    return this.app.vault
      .getAllLoadedFiles()
      .filter((file) => (file instanceof TFile ? file.extension === 'md' : file instanceof TFolder && !file.isRoot()))
      .filter((file) => file.path !== configDir && !file.path.startsWith(`${configDir}/`));
  }

  getItemText(item: TAbstractFile): string {
    return item instanceof TFolder ? `${item.path}/` : item.path.replace(/\.md$/, '');
  }

  override renderSuggestion(match: FuzzyMatch<TAbstractFile>, el: HTMLElement): void {
    super.renderSuggestion(match, el);
    el.addClass('recursa-note-suggestion');
    el.setAttr('aria-label', `${match.item instanceof TFolder ? 'Folder' : 'Note'} ${this.getItemText(match.item)}`);
  }

  onChooseItem(item: TAbstractFile): void {
    this.choose(item);
  }

  override onClose(): void {
    super.onClose();
    this.closed();
  }
}
