/**
 * Marks, in an open note, the lines the agent changed in its most recent commit to it: a gutter
 * marker and a subtle line background, with the commit message on hover. The plugin finds the
 * lines (`agentLineChanges` in core) through the `load` option, and dispatches `agentCommitted`
 * to every editor when the agent commits, so the marks follow.
 */
import { RangeSetBuilder, type RangeSet, StateEffect, StateField, type EditorState, type Extension, type Text } from '@codemirror/state';
import { Decoration, EditorView, gutter, GutterMarker, hoverTooltip, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import type { LineRange } from '../../core/git/changedLines';

/** What the editor marks: one agent commit and the lines it changed, in the editor's current text. */
export interface AgentChangeMarks {
  hash: string;
  message: string;
  ranges: readonly LineRange[];
}

export interface AgentChangeMarkersOptions {
  /** The vault path of the note this editor shows, or null (Obsidian: `state.field(editorInfoField).file?.path`). */
  pathOf: (state: EditorState) => string | null;
  /** The agent's latest change to `path`, its lines located in `text`; null for none. */
  load: (path: string, text: string) => Promise<AgentChangeMarks | null>;
  /**
   * Subscribes to the agent's commits (the paths each changed); returns the unsubscribe. Each
   * editor showing one of those paths reloads its marks. An alternative to dispatching
   * `agentCommitted` to every editor, which needs each editor's `EditorView`.
   */
  onAgentCommit?: (listener: (paths: readonly string[]) => void) => () => void;
  /** Milliseconds the pointer rests on a marked line before the message shows. Default 300. */
  hoverTime?: number;
}

/** Replaces the marks (null clears them). The extension dispatches it itself once `load` answers. */
export const setAgentChanges = StateEffect.define<AgentChangeMarks | null>();

/** Tells the editors the agent committed changes to these paths; the one showing such a path reloads its marks. */
export const agentCommitted = StateEffect.define<readonly string[]>();

/** Dispatches `agentCommitted` to one editor. */
export function notifyAgentCommitted(view: EditorView, paths: readonly string[]): void {
  view.dispatch({ effects: agentCommitted.of(paths) });
}

interface MarkState {
  marks: AgentChangeMarks | null;
  lines: DecorationSet;
  gutter: RangeSet<GutterMarker>;
}

const EMPTY: MarkState = { marks: null, lines: Decoration.none, gutter: new RangeSetBuilder<GutterMarker>().finish() };

class AgentGutterMarker extends GutterMarker {
  constructor(
    readonly kind: LineRange['kind'],
    readonly label: string,
  ) {
    super();
  }

  override eq(other: GutterMarker): boolean {
    return other instanceof AgentGutterMarker && other.kind === this.kind && other.label === this.label;
  }

  override toDOM(): Node {
    return createDiv({ cls: ['recursa-agent-marker', `recursa-agent-marker-${this.kind}`], title: this.label, attr: { 'aria-label': this.label } });
  }
}

/** The first line of a message, for the gutter's native tooltip and screen readers. */
function markerLabel(marks: AgentChangeMarks): string {
  const subject = marks.message.split('\n', 1)[0] ?? '';
  return `Changed by the agent: ${subject}`;
}

function buildMarks(marks: AgentChangeMarks | null, doc: Text): MarkState {
  if (marks === null || marks.ranges.length === 0) return { ...EMPTY, marks };
  const lines = new RangeSetBuilder<Decoration>();
  const markers = new RangeSetBuilder<GutterMarker>();
  const label = markerLabel(marks);
  const sorted = [...marks.ranges].sort((a, b) => a.from - b.from);
  let last = 0;
  for (const range of sorted) {
    // Ranges come from another moment's text; lines no longer there are skipped.
    for (let number = Math.max(range.from, last + 1); number <= Math.min(range.to, doc.lines); number++) {
      const line = doc.line(number);
      if (range.kind !== 'deleted') {
        lines.add(line.from, line.from, Decoration.line({ class: `recursa-agent-line recursa-agent-line-${range.kind}` }));
      }
      markers.add(line.from, line.from, new AgentGutterMarker(range.kind, label));
      last = number;
    }
  }
  return { marks, lines: lines.finish(), gutter: markers.finish() };
}

const marksField = StateField.define<MarkState>({
  create: () => EMPTY,
  update(value, tr) {
    let next = value;
    if (tr.docChanged) next = { marks: value.marks, lines: value.lines.map(tr.changes), gutter: value.gutter.map(tr.changes) };
    for (const effect of tr.effects) if (effect.is(setAgentChanges)) next = buildMarks(effect.value, tr.state.doc);
    return next;
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.lines),
});

/** The marks shown in `state` (null when none), for tests and the plugin. */
export function currentAgentChanges(state: EditorState): AgentChangeMarks | null {
  return state.field(marksField, false)?.marks ?? null;
}

function markedLineAt(state: EditorState, pos: number): { from: number; to: number } | null {
  const value = state.field(marksField, false);
  if (value === undefined || value.marks === null) return null;
  const line = state.doc.lineAt(pos);
  let found = false;
  value.gutter.between(line.from, line.from, () => {
    found = true;
    return false;
  });
  return found ? { from: line.from, to: line.to } : null;
}

function tooltipDom(marks: AgentChangeMarks): HTMLElement {
  const dom = createDiv({ cls: 'recursa-agent-tooltip', attr: { role: 'tooltip' } });
  dom.createDiv({ cls: 'recursa-agent-tooltip-title', text: `Changed by the agent in ${marks.hash.slice(0, 7)}` });
  // The message is the model's text: set as text, never parsed as HTML.
  dom.createDiv({ cls: 'recursa-agent-tooltip-message', text: marks.message });
  return dom;
}

/** Reloads the marks when the editor opens a note, shows another note, or hears `agentCommitted` for its note. */
function loader(options: AgentChangeMarkersOptions): Extension {
  return ViewPlugin.fromClass(
    class {
      private path: string | null;
      private request = 0;
      private destroyed = false;
      private readonly unsubscribe: () => void;

      constructor(private readonly view: EditorView) {
        this.path = options.pathOf(view.state);
        this.unsubscribe =
          options.onAgentCommit?.((paths) => {
            if (!this.destroyed && this.path !== null && paths.includes(this.path)) this.reload();
          }) ?? (() => undefined);
        this.reload();
      }

      update(update: ViewUpdate): void {
        const path = options.pathOf(update.state);
        const committed = update.transactions.some((tr) => tr.effects.some((effect) => effect.is(agentCommitted) && path !== null && effect.value.includes(path)));
        if (path !== this.path || committed) {
          this.path = path;
          this.reload();
        }
      }

      destroy(): void {
        this.destroyed = true;
        this.unsubscribe();
      }

      private reload(): void {
        const request = ++this.request;
        const path = this.path;
        const doc = this.view.state.doc;
        const answer = path === null ? Promise.resolve(null) : options.load(path, doc.toString());
        answer.then(
          (marks) => {
            if (this.destroyed || request !== this.request) return;
            // The text changed while the lines were found: find them again in the new text.
            if (this.view.state.doc !== doc) this.reload();
            else this.view.dispatch({ effects: setAgentChanges.of(marks) });
          },
          () => {
            if (!this.destroyed && request === this.request) this.view.dispatch({ effects: setAgentChanges.of(null) });
          },
        );
      }
    },
  );
}

/** The extension: register it with `Plugin.registerEditorExtension` (see `changeMarkersSlot` for the setting). */
export function agentChangeMarkers(options: AgentChangeMarkersOptions): Extension {
  return [
    marksField,
    loader(options),
    gutter({
      class: 'recursa-agent-gutter',
      markers: (view) => view.state.field(marksField).gutter,
    }),
    hoverTooltip(
      (view, pos) => {
        const line = markedLineAt(view.state, pos);
        const marks = currentAgentChanges(view.state);
        if (line === null || marks === null) return null;
        return { pos: line.from, end: line.to, above: true, create: () => ({ dom: tooltipDom(marks) }) };
      },
      { hoverTime: options.hoverTime ?? 300, hideOnChange: true },
    ),
  ];
}

/**
 * The array the plugin registers (`registerEditorExtension(slot.extension)`): holds the extension
 * while the setting is on and nothing while it is off. After `setEnabled` returns true, call
 * `workspace.updateOptions()` so open editors pick up the change.
 */
export interface ChangeMarkersSlot {
  readonly extension: Extension[];
  setEnabled(enabled: boolean): boolean;
}

export function changeMarkersSlot(create: () => Extension, enabled: boolean): ChangeMarkersSlot {
  const extension: Extension[] = [];
  const slot: ChangeMarkersSlot = {
    extension,
    setEnabled(on) {
      if (on === extension.length > 0) return false;
      extension.length = 0;
      if (on) extension.push(create());
      return true;
    },
  };
  slot.setEnabled(enabled);
  return slot;
}
