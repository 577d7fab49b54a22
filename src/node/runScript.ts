import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isRecursaError } from '../core/errors';
import type { RunLimits, RunResult } from '../core/sandbox/protocol';
import { Sandbox } from '../core/sandbox/Sandbox';
import { createNodeSandboxWorker } from './nodeSandboxWorker';
import { openVault, type OpenVaultOptions } from './openVault';

export interface RunScriptOptions extends OpenVaultOptions {
  /** Limits of the run (time, mem calls, bytes written, output size). */
  limits?: Partial<RunLimits>;
  /** Commit what the code wrote, with this message. */
  commit?: string;
}

export interface RunScriptResult extends RunResult {
  /** The commit made for `commit`, or null when nothing was written (or no commit was asked for). */
  commit: string | null;
}

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
  const sandbox = new Sandbox(() => createNodeSandboxWorker(), opened.mem, { limits, hostPaths: [opened.port.root] });
  try {
    const result = await sandbox.run(code);
    let hash: string | null = null;
    if (commit !== undefined && opened.git !== null) {
      hash = await opened.mem.commitChanges(commit).catch((error: unknown) => {
        if (isRecursaError(error) && error.code === 'NothingToCommit') return null;
        throw error;
      });
    }
    return { ...result, commit: hash };
  } finally {
    sandbox.dispose();
    await opened.close();
  }
}
