import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunLimits } from '../core/sandbox/protocol';
import { runCode, type RunCodeResult } from '../core/stack/runCode';
import { openVault, type OpenVaultOptions } from './openVault';

export interface RunScriptOptions extends OpenVaultOptions {
  /** Limits of the run (time, mem calls, bytes written, output size). */
  limits?: Partial<RunLimits>;
  /** Commit what the code wrote, with this message. */
  commit?: string;
}

export type RunScriptResult = RunCodeResult;

/**
 * Runs model-style TypeScript against a vault folder through the sandbox, headless: the same
 * worker, limits and `mem` as in the plugin. History is opened when the folder already is a git
 * repository or a commit is asked for.
 *
 * @example
 * const result = await runScript('/path/to/vault', 'return (await mem.listFiles()).length;');
 */
export async function runScript(vault: string, code: string, options: RunScriptOptions = {}): Promise<RunScriptResult> {
  const { limits, commit, ...openOptions } = options;
  const git = openOptions.git ?? (commit !== undefined || existsSync(join(vault, '.git')));
  const opened = await openVault(vault, { watch: false, ...openOptions, git });
  try {
    return await runCode(opened, code, { ...(limits === undefined ? {} : { limits }), ...(commit === undefined ? {} : { commit }) });
  } finally {
    await opened.close();
  }
}
