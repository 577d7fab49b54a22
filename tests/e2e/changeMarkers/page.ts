// The page of tests/e2e/editor-change-markers.test.ts: a CodeMirror editor with the plugin's
// change-marker extension, its marks loaded through a function the test exposes from Node.
import '../helpers/obsidianDomHelpers';
import { EditorState, StateEffect } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import {
  agentChangeMarkers,
  changeMarkersSlot,
  currentAgentChanges,
  notifyAgentCommitted,
  type AgentChangeMarks,
} from '../../../src/obsidian/editor/agentChangeMarkers';

export interface PageEditor {
  open(text: string, path: string): void;
  replaceText(text: string): void;
  insertAtStart(text: string): void;
  notify(paths: string[]): void;
  /** Tells the extension through its `onAgentCommit` subscription instead of the effect. */
  announce(paths: string[]): void;
  listeners(): number;
  setEnabled(enabled: boolean): boolean;
  marks(): AgentChangeMarks | null;
  loads(): number;
}

declare global {
  interface Window {
    recursaLoad: (path: string, text: string) => Promise<AgentChangeMarks | null>;
    recursaEditor: PageEditor;
  }
}

let view: EditorView | null = null;
let currentPath = '';
let loadCount = 0;
const commitListeners = new Set<(paths: readonly string[]) => void>();
const slot = changeMarkersSlot(
  () =>
    agentChangeMarkers({
      pathOf: () => currentPath,
      load: (path, text) => {
        loadCount++;
        return window.recursaLoad(path, text);
      },
      onAgentCommit: (listener) => {
        commitListeners.add(listener);
        return () => commitListeners.delete(listener);
      },
      hoverTime: 50,
    }),
  true,
);
const base = [EditorView.lineWrapping];

const editor = (): EditorView => {
  if (view === null) throw new Error('open() first');
  return view;
};

window.recursaEditor = {
  open(text, path) {
    view?.destroy();
    currentPath = path;
    const parent = document.getElementById('editor');
    if (parent === null) throw new Error('no #editor');
    view = new EditorView({ parent, state: EditorState.create({ doc: text, extensions: [base, ...slot.extension] }) });
  },
  replaceText(text) {
    const current = editor();
    current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: text } });
  },
  insertAtStart(text) {
    editor().dispatch({ changes: { from: 0, insert: text } });
  },
  notify(paths) {
    notifyAgentCommitted(editor(), paths);
  },
  announce(paths) {
    for (const listener of commitListeners) listener(paths);
  },
  listeners: () => commitListeners.size,
  setEnabled(enabled) {
    const changed = slot.setEnabled(enabled);
    // What `workspace.updateOptions()` does for the plugin's registered extensions.
    if (changed) editor().dispatch({ effects: StateEffect.reconfigure.of([base, ...slot.extension]) });
    return changed;
  },
  marks: () => currentAgentChanges(editor().state),
  loads: () => loadCount,
};
