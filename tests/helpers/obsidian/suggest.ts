import type * as Obsidian from 'obsidian';
import type { App } from './app';
import { Modal } from './modal';

/**
 * Obsidian's `prepareFuzzySearch`: the characters of the query must appear in order; the score
 * is higher (closer to 0, as Obsidian's scores are negative) for matches that are contiguous and
 * early. A guess at the ranking: Obsidian documents only the shape of the result.
 */
export function prepareFuzzySearch(query: string): (text: string) => Obsidian.SearchResult | null {
  const wanted = query.toLowerCase().replace(/\s+/g, '');
  return (text: string) => {
    if (wanted === '') return { score: 0, matches: [] };
    const lower = text.toLowerCase();
    const matches: Obsidian.SearchMatches = [];
    let at = 0;
    let gaps = 0;
    for (const char of wanted) {
      const found = lower.indexOf(char, at);
      if (found < 0) return null;
      const last = matches[matches.length - 1];
      if (last !== undefined && last[1] === found) last[1] = found + 1;
      else matches.push([found, found + 1]);
      gaps += found - at;
      at = found + 1;
    }
    return { score: -(gaps + matches.length * 2 + (matches[0]?.[0] ?? 0) / 10), matches };
  };
}

/**
 * Obsidian's `SuggestModal`: a `.prompt` modal with an input, the suggestions under it
 * (`.suggestion-item`, the selected one `.is-selected`) and instructions at the bottom. Typing
 * asks `getSuggestions` again; ArrowUp/ArrowDown move the selection; Enter or a click chooses
 * (the modal closes, then `onChooseSuggestion` runs, as in Obsidian).
 */
export abstract class SuggestModal<T>
  extends Modal
  implements Pick<Obsidian.SuggestModal<T>, 'limit' | 'emptyStateText' | 'inputEl' | 'resultContainerEl' | 'setPlaceholder' | 'setInstructions' | 'onNoSuggestion' | 'selectSuggestion' | 'selectActiveSuggestion'>
{
  limit = 100;
  emptyStateText = 'No results found.';
  inputEl: HTMLInputElement;
  resultContainerEl: HTMLElement;
  private readonly instructionsEl: HTMLElement;
  private values: T[] = [];
  private selected = 0;

  constructor(app: App) {
    super(app);
    this.modalEl.addClass('prompt');
    this.modalEl.querySelector('.modal-header')?.detach();
    this.contentEl.detach();
    const inputContainer = this.modalEl.createDiv('prompt-input-container');
    this.inputEl = inputContainer.createEl('input', { cls: 'prompt-input', attr: { type: 'text', enterkeyhint: 'done' } });
    this.resultContainerEl = this.modalEl.createDiv({ cls: 'prompt-results', attr: { role: 'listbox' } });
    this.instructionsEl = this.modalEl.createDiv('prompt-instructions');
    this.inputEl.addEventListener('input', () => void this.update());
    this.scope.register([], 'ArrowDown', () => this.move(1));
    this.scope.register([], 'ArrowUp', () => this.move(-1));
    this.scope.register([], 'Enter', (evt) => {
      this.selectActiveSuggestion(evt);
      return false;
    });
  }

  override open(): void {
    super.open();
    this.inputEl.focus();
    void this.update();
  }

  setPlaceholder(placeholder: string): void {
    this.inputEl.placeholder = placeholder;
  }

  setInstructions(instructions: Obsidian.Instruction[]): void {
    this.instructionsEl.empty();
    for (const instruction of instructions) {
      const el = this.instructionsEl.createDiv('prompt-instruction');
      el.createSpan({ cls: 'prompt-instruction-command', text: instruction.command });
      el.createSpan({ text: instruction.purpose });
    }
  }

  onNoSuggestion(): void {
    this.resultContainerEl.createDiv({ cls: 'suggestion-empty', text: this.emptyStateText });
  }

  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.close();
    this.onChooseSuggestion(value, evt);
  }

  selectActiveSuggestion(evt: MouseEvent | KeyboardEvent): void {
    const value = this.values[this.selected];
    if (value !== undefined) this.selectSuggestion(value, evt);
  }

  /** Test-module internal: the suggestion at the selection, if any. */
  protected activeSuggestion(): T | undefined {
    return this.values[this.selected];
  }

  abstract getSuggestions(query: string): T[] | Promise<T[]>;
  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;

  /** Test-module internal: asks for suggestions again (after the input changed, say). */
  protected async update(): Promise<void> {
    const values = (await this.getSuggestions(this.inputEl.value)).slice(0, this.limit);
    this.values = values;
    this.selected = 0;
    this.resultContainerEl.empty();
    if (values.length === 0) {
      this.onNoSuggestion();
      return;
    }
    for (const [index, value] of values.entries()) {
      const el = this.resultContainerEl.createDiv({ cls: 'suggestion-item', attr: { role: 'option' } });
      this.renderSuggestion(value, el);
      el.addEventListener('mousemove', () => this.select(index));
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
    }
    this.select(0);
  }

  private move(step: number): false {
    if (this.values.length > 0) this.select((this.selected + step + this.values.length) % this.values.length);
    return false;
  }

  private select(index: number): void {
    this.selected = index;
    Array.from(this.resultContainerEl.children).forEach((el, at) => {
      el.toggleClass('is-selected', at === index);
      el.setAttr('aria-selected', at === index);
    });
  }
}

/** Obsidian's `FuzzySuggestModal`: a `SuggestModal` over `getItems()`, matched by `prepareFuzzySearch` on `getItemText`. */
export abstract class FuzzySuggestModal<T> extends SuggestModal<Obsidian.FuzzyMatch<T>> {
  getSuggestions(query: string): Obsidian.FuzzyMatch<T>[] {
    const search = prepareFuzzySearch(query);
    const found: Obsidian.FuzzyMatch<T>[] = [];
    for (const item of this.getItems()) {
      const match = search(this.getItemText(item));
      if (match !== null) found.push({ item, match });
    }
    return found.sort((a, b) => b.match.score - a.match.score);
  }

  renderSuggestion(item: Obsidian.FuzzyMatch<T>, el: HTMLElement): void {
    const text = this.getItemText(item.item);
    let at = 0;
    for (const [start, end] of item.match.matches) {
      if (start > at) el.appendText(text.slice(at, start));
      el.createSpan({ cls: 'suggestion-highlight', text: text.slice(start, end) });
      at = end;
    }
    if (at < text.length) el.appendText(text.slice(at));
  }

  onChooseSuggestion(item: Obsidian.FuzzyMatch<T>, evt: MouseEvent | KeyboardEvent): void {
    this.onChooseItem(item.item, evt);
  }

  abstract getItems(): T[];
  abstract getItemText(item: T): string;
  abstract onChooseItem(item: T, evt: MouseEvent | KeyboardEvent): void;
}
