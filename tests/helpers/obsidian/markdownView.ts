import type * as Obsidian from 'obsidian';
import type { TFile } from './files';
import { ItemView } from './view';
import type { WorkspaceLeaf } from './workspace';

/**
 * The slice of Obsidian's `Editor` a plugin uses to put text into a note: the text, a cursor, and
 * `replaceSelection`. Backed by the note's text; every change is written to the file through the
 * vault (as Obsidian's editor saves it).
 */
export class Editor implements Pick<Obsidian.Editor, 'getValue' | 'setValue' | 'getCursor' | 'setCursor' | 'replaceSelection' | 'focus'> {
  private cursor: Obsidian.EditorPosition;

  constructor(
    private text: string,
    private readonly save: (text: string) => Promise<void>,
  ) {
    this.cursor = this.positionAt(text.length);
  }

  getValue(): string {
    return this.text;
  }

  setValue(content: string): void {
    this.text = content;
    void this.save(content);
  }

  getCursor(_string?: 'from' | 'to' | 'head' | 'anchor'): Obsidian.EditorPosition {
    return { ...this.cursor };
  }

  setCursor(pos: Obsidian.EditorPosition | number, ch?: number): void {
    this.cursor = typeof pos === 'number' ? { line: pos, ch: ch ?? 0 } : { ...pos };
  }

  /** Inserts at the cursor (the test editor has no selection) and moves the cursor after it. */
  replaceSelection(replacement: string, _origin?: string): void {
    const at = this.offsetOf(this.cursor);
    this.text = this.text.slice(0, at) + replacement + this.text.slice(at);
    this.cursor = this.positionAt(at + replacement.length);
    void this.save(this.text);
  }

  focus(): void {
    // The test editor has no element to focus.
  }

  private offsetOf(pos: Obsidian.EditorPosition): number {
    const lines = this.text.split('\n');
    let offset = 0;
    for (let line = 0; line < pos.line && line < lines.length; line++) offset += (lines[line]?.length ?? 0) + 1;
    return Math.min(this.text.length, offset + pos.ch);
  }

  private positionAt(offset: number): Obsidian.EditorPosition {
    const before = this.text.slice(0, offset).split('\n');
    return { line: before.length - 1, ch: before[before.length - 1]?.length ?? 0 };
  }
}

/** Obsidian's `MarkdownView`, as far as a plugin reaches into it: the note (`file`) and its `editor`. */
export class MarkdownView extends ItemView implements Pick<Obsidian.MarkdownView, 'getViewType' | 'getDisplayText'> {
  readonly editor: Editor;

  constructor(
    leaf: WorkspaceLeaf,
    readonly file: TFile,
    text: string,
  ) {
    super(leaf);
    this.editor = new Editor(text, (next) => this.app.vault.modify(file, next));
  }

  getViewType(): string {
    return 'markdown';
  }

  getDisplayText(): string {
    return this.file.basename;
  }
}
