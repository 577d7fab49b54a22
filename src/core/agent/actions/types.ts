/** What an action does. */
export type ActionKind = 'set' | 'get' | 'rm' | 'mv' | 'ls' | 'search';

export const ACTION_KINDS: readonly ActionKind[] = ['set', 'get', 'rm', 'mv', 'ls', 'search'];

/** One `<action>` as the model wrote it: every field as text, or absent. */
export interface RawAction {
  kind?: string;
  target_path?: string;
  source_path?: string;
  content?: string;
  /** Tags inside `<action>` that are not fields. */
  unknown: string[];
}

/** An action that passed validation. */
export interface Action {
  kind: ActionKind;
  target_path: string;
  source_path?: string;
  content?: string;
}

/** The outcome of one action, under its cumulative number (`_12` is index 12). */
export interface ActionResult {
  index: number;
  /** ISO 8601. */
  timestamp: string;
  kind: string;
  target_path: string;
  source_path?: string;
  status: 'success' | 'error';
  /** What happened, for `set`, `rm`, `mv`. */
  message?: string;
  /** What was fetched, for `get`, `ls`, `search`. */
  data?: unknown;
  /** Why it failed. */
  error?: string;
}

/** One entry of the action log (the last N are kept in the plugin's data folder). */
export interface ActionLogEntry {
  index: number;
  timestamp: string;
  run: string;
  kind: string;
  target_path: string;
  source_path?: string;
  /** The first characters of the content (the value set, the query). */
  content_summary?: string;
  status: 'success' | 'error';
  message?: string;
  error?: string;
}
