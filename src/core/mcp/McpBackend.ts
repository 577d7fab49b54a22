import type { RecallResult } from '../mem/recall';
import type { RunCodeResult } from '../stack/runCode';

/** Who a tool call comes from and how to stop it. */
export interface McpCall {
  /** The client's name from its `initialize` request (`clientInfo.name`), or null if it gave none. */
  client: string | null;
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
}

export interface McpAskOptions extends McpCall {
  /** The conversation to continue (the `sessionId` an earlier `ask` returned). */
  sessionId?: string;
  /** Told each `<think>` line and each code run while the agent works. */
  onProgress: (message: string) => void;
}

export interface McpAskResult {
  /** The agent's reply; null when the run did not complete. */
  reply: string | null;
  /** The conversation: pass it back as `sessionId` to continue. */
  sessionId: string;
  state: 'completed' | 'failed' | 'timed-out' | 'cancelled';
  /** Why the run did not complete. */
  error: string | null;
  /** The commits the run made, oldest first. */
  commits: string[];
}

export interface McpRecallOptions {
  query?: string;
  tags?: string[];
  since?: string;
  limit?: number;
  /** `project`: this vault (default); `global`: also every other vault registered on this device. */
  scope?: 'project' | 'global';
}

export interface McpSearchHit {
  path: string;
  score: number;
  snippet: string;
}

/**
 * What the MCP server serves, whatever holds the vault: the command line over a folder, or the
 * plugin over its own stack. Methods throw `RecursaError`s for bad input and failures; the server
 * turns them into tool errors.
 */
export interface McpBackend {
  ask(query: string, options: McpAskOptions): Promise<McpAskResult>;
  /** Runs agent code like `recursa run`: commits with `commit` as the message when given; a failed run leaves nothing behind. */
  execute(code: string, options: McpCall & { commit?: string }): Promise<RunCodeResult>;
  /** Saves a memory note and commits it (`commit` is null when the vault has no history). */
  remember(content: string, tags: string[] | undefined, options: McpCall): Promise<{ id: string; path: string; commit: string | null }>;
  recall(options: McpRecallOptions, call: McpCall): Promise<RecallResult>;
  search(query: string, limit: number | undefined, call: McpCall): Promise<McpSearchHit[]>;
  read(path: string, call: McpCall): Promise<string>;
  /** The `mem` API reference the agent's own prompt carries. */
  memReference(): string;
}
