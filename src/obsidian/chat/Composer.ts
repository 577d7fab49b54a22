import { setIcon, TFile, TFolder, type App, type Component, type TAbstractFile } from 'obsidian';
import { NotePickerModal } from './NotePickerModal';
import { formatTokens, type PickedNote } from './pickedNotes';

/** Most notes read to count a folder's tokens for its chip. */
const FOLDER_COUNT_LIMIT = 200;

export interface ComposerActions {
  send(text: string): void;
  stop(): void;
  running(): boolean;
}

/**
 * The input of the chat: the notes attached to the next request as removable chips (with their
 * token counts) and a one-click chip for the active note, the text area (Enter sends, Shift+Enter
 * breaks the line, ArrowUp recalls the last request, `@` or `[[` open the note picker, Escape
 * stops a run), the Send/Stop button, and a hint line for what Enter cannot do right now.
 */
export class Composer {
  readonly inputEl: HTMLTextAreaElement;
  private readonly chipsEl: HTMLElement;
  private readonly hintEl: HTMLElement;
  private readonly button: HTMLButtonElement;
  private picked: PickedNote[] = [];
  private lastRequest = '';
  private picking = false;

  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly owner: Component,
    private readonly actions: ComposerActions,
  ) {
    this.chipsEl = parent.createDiv({ cls: 'recursa-context', attr: { role: 'group', 'aria-label': 'Notes attached to the next request' } });
    const composer = parent.createDiv('recursa-composer');
    this.inputEl = composer.createEl('textarea', {
      cls: 'recursa-input',
      attr: { rows: 2, placeholder: 'Ask about your notes… (@ to attach a note)', 'aria-label': 'Message to the agent' },
    });
    this.button = composer.createEl('button', { cls: 'recursa-send-button mod-cta' });
    this.hintEl = parent.createDiv({ cls: 'recursa-hint', attr: { 'aria-live': 'polite' } });
    this.setBusy(false);
    owner.registerDomEvent(this.inputEl, 'keydown', (evt) => this.onKey(evt));
    owner.registerDomEvent(this.inputEl, 'input', () => this.onInput());
    owner.registerDomEvent(this.button, 'click', () => {
      if (this.actions.running()) this.actions.stop();
      else this.submit();
    });
    owner.registerEvent(this.app.workspace.on('file-open', () => this.renderChips()));
    this.renderChips();
  }

  /** The notes attached now, in the order they were picked. */
  get attached(): readonly PickedNote[] {
    return this.picked;
  }

  focus(): void {
    this.inputEl.focus();
  }

  /** Attaches a note or folder (the active note, one picked, or one a command names). */
  attach(path: string): void {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (file === null || this.picked.some((note) => note.path === file.path)) return;
    const note: PickedNote = { path: file.path, kind: file instanceof TFolder ? 'folder' : 'note', tokens: -1 };
    this.picked.push(note);
    this.renderChips();
    void this.countTokens(file).then((tokens) => {
      note.tokens = tokens;
      this.renderChips();
    });
  }

  /** Takes the attached notes off the input (they go with the request being sent). */
  takeAttached(): PickedNote[] {
    const taken = this.picked;
    this.picked = [];
    this.renderChips();
    return taken;
  }

  /** Send button or Stop button. */
  setBusy(busy: boolean): void {
    this.button.empty();
    setIcon(this.button, busy ? 'square' : 'arrow-up');
    this.button.setAttr('aria-label', busy ? 'Stop' : 'Send');
    this.button.toggleClass('mod-warning', busy);
    this.button.toggleClass('mod-cta', !busy);
    if (!busy) this.hint('');
  }

  hint(text: string): void {
    this.hintEl.setText(text);
    this.hintEl.toggle(text !== '');
  }

  private submit(): void {
    const text = this.inputEl.value.trim();
    if (text === '') return;
    if (this.actions.running()) {
      this.hint('The agent is still working on the last request. Wait for it, or press Stop (Esc) first; your message stays here.');
      return;
    }
    this.lastRequest = text;
    this.inputEl.value = '';
    this.actions.send(text);
  }

  private onKey(evt: KeyboardEvent): void {
    if (evt.key === 'Enter' && !evt.shiftKey && !evt.isComposing) {
      evt.preventDefault();
      this.submit();
    } else if (evt.key === 'Escape' && this.actions.running()) {
      evt.preventDefault();
      this.actions.stop();
    } else if (evt.key === 'ArrowUp' && this.inputEl.value === '' && this.lastRequest !== '') {
      evt.preventDefault();
      this.inputEl.value = this.lastRequest;
    }
  }

  /** `@` (at the start or after a space) or `[[` just typed: open the picker. */
  private onInput(): void {
    const at = this.inputEl.selectionStart;
    const before = this.inputEl.value.slice(0, at);
    const trigger = before.endsWith('[[') ? '[[' : /(^|\s)@$/.test(before) ? '@' : null;
    if (trigger === null || this.picking) return;
    this.picking = true;
    new NotePickerModal(
      this.app,
      (item) => {
        // The trigger typed into the input was only the way to the picker.
        const value = this.inputEl.value;
        const start = at - trigger.length;
        if (value.slice(start, at) === trigger) this.inputEl.value = value.slice(0, start) + value.slice(at);
        this.inputEl.focus();
        this.inputEl.setSelectionRange(start, start);
        this.attach(item.path);
      },
      () => {
        this.picking = false;
        this.inputEl.focus();
      },
    ).open();
  }

  private renderChips(): void {
    this.chipsEl.empty();
    for (const note of this.picked) {
      const chip = this.chipsEl.createDiv({ cls: 'recursa-context-chip', attr: { title: note.path } });
      setIcon(chip.createSpan('recursa-context-icon'), note.kind === 'folder' ? 'folder' : 'file-text');
      chip.createSpan({ cls: 'recursa-context-name', text: note.kind === 'folder' ? `${note.path}/` : note.path.replace(/\.md$/, '') });
      chip.createSpan({ cls: 'recursa-context-tokens', text: note.tokens < 0 ? '…' : formatTokens(note.tokens) });
      const remove = chip.createEl('button', { cls: 'clickable-icon recursa-context-remove', attr: { 'aria-label': `Remove ${note.path} from the request` } });
      setIcon(remove, 'x');
      remove.addEventListener('click', () => {
        this.picked = this.picked.filter((other) => other !== note);
        this.renderChips();
        this.inputEl.focus();
      });
    }
    const active = this.app.workspace.getActiveFile();
    if (active !== null && !this.picked.some((note) => note.path === active.path)) {
      const add = this.chipsEl.createEl('button', { cls: 'recursa-context-add', attr: { 'aria-label': `Attach the active note, ${active.basename}` } });
      setIcon(add.createSpan('recursa-context-icon'), 'plus');
      add.createSpan({ cls: 'recursa-context-name', text: active.basename });
      add.addEventListener('click', () => {
        this.attach(active.path);
        this.inputEl.focus();
      });
    }
    this.chipsEl.toggle(this.chipsEl.childElementCount > 0);
  }

  private async countTokens(file: TAbstractFile): Promise<number> {
    const files = file instanceof TFile ? [file] : this.app.vault.getMarkdownFiles().filter((note) => note.path.startsWith(`${file.path}/`)).slice(0, FOLDER_COUNT_LIMIT);
    // The tokenizer (and its table of ranks) is a chunk of the core's, not of the chat's.
    const { countTokensInSlices } = await import('../../core/tokens/countTokens');
    let tokens = 0;
    for (const note of files) tokens += await countTokensInSlices(await this.app.vault.cachedRead(note));
    return tokens;
  }
}
