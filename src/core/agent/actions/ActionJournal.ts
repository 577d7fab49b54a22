import type { VaultPort } from '../../ports';
import type { ActionLogEntry, ActionResult } from './types';

const FORMAT_VERSION = 1;

interface JournalFile {
  version: number;
  /** The number of the last action ever run: `_N` continues from here, across runs and restarts. */
  lastIndex: number;
  entries: ActionLogEntry[];
}

/**
 * The cumulative action counter and the log of the last `size` actions, in one JSON file in the
 * plugin's data folder (outside the vault's history, like conversations). A missing or unreadable
 * file starts a new log; the counter then starts after the highest number the file still shows.
 */
export class ActionJournal {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly files: VaultPort,
    private readonly file: string,
    private readonly size: number,
  ) {}

  /** Numbers and records the results of one batch: `run` gets the next numbers in order. */
  record(
    run: string,
    execute: (nextIndex: () => number) => Promise<{ results: ActionResult[]; summaries: (string | undefined)[] }>,
  ): Promise<ActionResult[]> {
    const task = this.chain.then(async () => {
      const state = await this.load();
      let index = state.lastIndex;
      try {
        const { results, summaries } = await execute(() => ++index);
        for (const [at, result] of results.entries()) state.entries.push(toEntry(run, result, summaries[at]));
        return results;
      } finally {
        state.lastIndex = Math.max(state.lastIndex, index);
        state.entries = this.size > 0 ? state.entries.slice(-this.size) : [];
        await this.files.write(this.file, JSON.stringify(state));
      }
    });
    this.chain = task.catch(() => undefined);
    return task;
  }

  /** The last number used (0 before the first action). */
  async lastIndex(): Promise<number> {
    await this.chain;
    return (await this.load()).lastIndex;
  }

  /** The kept log, oldest first. */
  async entries(): Promise<ActionLogEntry[]> {
    await this.chain;
    return [...(await this.load()).entries];
  }

  /** Read afresh each time: another journal over the same file (a new agent after a settings change) may have written since. */
  private load(): Promise<JournalFile> {
    return this.read();
  }

  private async read(): Promise<JournalFile> {
    try {
      if (!(await this.files.exists(this.file))) return { version: FORMAT_VERSION, lastIndex: 0, entries: [] };
      const data = JSON.parse(await this.files.readText(this.file)) as Partial<JournalFile>;
      const entries = Array.isArray(data.entries) ? data.entries.filter((entry): entry is ActionLogEntry => typeof entry === 'object' && entry !== null && Number.isInteger((entry).index)) : [];
      const highest = entries.reduce((max, entry) => Math.max(max, entry.index), 0);
      const lastIndex = typeof data.lastIndex === 'number' && Number.isInteger(data.lastIndex) && data.lastIndex >= 0 ? data.lastIndex : 0;
      return { version: FORMAT_VERSION, lastIndex: Math.max(lastIndex, highest), entries };
    } catch {
      return { version: FORMAT_VERSION, lastIndex: 0, entries: [] };
    }
  }
}

function toEntry(run: string, result: ActionResult, summary: string | undefined): ActionLogEntry {
  const entry: ActionLogEntry = { index: result.index, timestamp: result.timestamp, run, kind: result.kind, target_path: result.target_path, status: result.status };
  if (result.source_path !== undefined) entry.source_path = result.source_path;
  if (summary !== undefined) entry.content_summary = summary.slice(0, 200);
  if (result.message !== undefined) entry.message = result.message;
  if (result.error !== undefined) entry.error = result.error;
  return entry;
}

/** Default number of actions the log keeps (a setting: `actionLogSize`). */
export const DEFAULT_ACTION_LOG_SIZE = 1000;

/** The journal's file in a data folder (the plugin's folder: where conversations are kept). */
export function actionLogPath(dataDir: string): string {
  return `${dataDir.replace(/\/+$/, '')}/action-log.json`;
}
