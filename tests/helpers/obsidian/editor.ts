import { StateField } from '@codemirror/state';
import type * as Obsidian from 'obsidian';

/**
 * The note an editor shows, as Obsidian keeps it in every editor's state. The test editors this
 * module has none of, so the field starts empty; a test may provide it with `editorInfoField.init`.
 */
export const editorInfoField: typeof Obsidian.editorInfoField = StateField.define<Obsidian.MarkdownFileInfo>({
  create: () => null as unknown as Obsidian.MarkdownFileInfo,
  update: (value) => value,
});
