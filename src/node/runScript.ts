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
  /**
   * The files the code wrote, renamed or deleted and left uncommitted (no `commit` asked for), or
   * left behind by a failed run in a folder without history.
   */
  uncommitted: string[];
  /** The files a failed run had changed, put back as they were (the vault has history). */
  discarded: string[];
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
    const touched = opened.writeSet.paths();
    if (!result.ok) {
      // A run that failed commits nothing and, where history can put them back, leaves no changes.
      if (opened.git === null || touched.length === 0) return { ...result, commit: null, uncommitted: touched, discarded: [] };
      await opened.mem.discardChanges();
      return { ...result, commit: null, uncommitted: [], discarded: touched };
    }
    if (commit === undefined || opened.git === null) return { ...result, commit: null, uncommitted: touched, discarded: [] };
    const hash = await opened.mem.commitChanges(commit).catch((error: unknown) => {
      if (isRecursaError(error) && error.code === 'NothingToCommit') return null;
      throw error;
    });
    return { ...result, commit: hash, uncommitted: [], discarded: [] };
  } finally {
    sandbox.dispose();
    await opened.close();
  }
}
