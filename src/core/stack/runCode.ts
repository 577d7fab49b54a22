import { isRecursaError } from '../errors';
import type { GitService } from '../git/GitService';
import type { Mem } from '../mem/createMem';
import type { WriteSet } from '../mem/WriteSet';
import type { RunResult } from '../sandbox/protocol';
import type { RunOptions, Sandbox } from '../sandbox/Sandbox';

/** What a script run needs of an open vault (a `VaultStack` or an opened vault has all of it). */
export interface CodeRunParts {
  sandbox: Sandbox;
  mem: Mem;
  writeSet: WriteSet;
  git: GitService | null;
}

export interface RunCodeOptions extends RunOptions {
  /** Commit what the code wrote, with this message. */
  commit?: string;
}

export interface RunCodeResult extends RunResult {
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
 * Runs agent code (the body of an async function with `mem` in scope) in the sandbox, then commits
 * what it wrote when asked to. A run that fails commits nothing and, where history can put them
 * back, leaves no changes behind.
 */
export async function runCode(parts: CodeRunParts, code: string, options: RunCodeOptions = {}): Promise<RunCodeResult> {
  const { commit, ...runOptions } = options;
  const result = await parts.sandbox.run(code, runOptions);
  const touched = parts.writeSet.paths();
  if (!result.ok) {
    if (parts.git === null || touched.length === 0) return { ...result, commit: null, uncommitted: touched, discarded: [] };
    await parts.mem.discardChanges();
    return { ...result, commit: null, uncommitted: [], discarded: touched };
  }
  if (commit === undefined || parts.git === null) return { ...result, commit: null, uncommitted: touched, discarded: [] };
  const hash = await parts.mem.commitChanges(commit).catch((error: unknown) => {
    if (isRecursaError(error) && error.code === 'NothingToCommit') return null;
    throw error;
  });
  return { ...result, commit: hash, uncommitted: [], discarded: [] };
}
