import git from 'isomorphic-git';
import { removeIfExists, type VaultPort } from '../ports';
import { createGitFs, GIT_ROOT } from './gitFs';
import { mergeIgnore, recursaIgnoreLines } from './gitignore';

export interface RepositoryState {
  /**
   * `true` when Recursa initialised the repository just now, or when a first snapshot it started
   * earlier never finished (the process stopped): either way the snapshot is still to be made.
   */
  created: boolean;
  /** The checked-out branch (`main` for a repository Recursa created), or `null` when HEAD is detached. */
  branch: string | null;
}

export interface EnsureRepositoryOptions {
  /** Obsidian's config folder, for the ignore rules. */
  configDir: string;
  /** Branch of a new repository. Default `main`. */
  defaultBranch?: string;
}

const GITIGNORE = '.gitignore';

/**
 * Present from before `git init` until the first snapshot is committed, so a repository whose
 * snapshot was cut short (the app quit, the process was killed) is recognised as Recursa's
 * unfinished one and completed — never taken for an existing repository whose next commit would
 * become a root commit holding one file.
 */
export const SNAPSHOT_PENDING = '.git/recursa/snapshot-pending';

/**
 * Makes sure the vault is a git repository. A vault that already is one (for example managed by
 * the Obsidian Git plugin) is used as it is: its branch, history and `.gitignore` are left alone.
 * Otherwise a repository is initialised on `main` and `.gitignore` gets Recursa's ignore rules
 * (added to an existing `.gitignore` without touching its lines).
 */
export async function ensureRepository(vault: VaultPort, options: EnsureRepositoryOptions): Promise<RepositoryState> {
  const fs = createGitFs(vault);
  const defaultBranch = options.defaultBranch ?? 'main';
  // `.git` may be a folder, or a file pointing elsewhere (a worktree or submodule): either way it is the user's.
  if ((await vault.stat('.git')) !== null && !(await vault.exists(SNAPSHOT_PENDING))) {
    const branch = await git.currentBranch({ fs, dir: GIT_ROOT, fullname: false }).catch(() => undefined);
    return { created: false, branch: branch ?? null };
  }
  if (!(await vault.exists(SNAPSHOT_PENDING))) await vault.write(SNAPSHOT_PENDING, 'The first snapshot of this vault is not committed yet.\n');
  // `init` leaves an existing config alone: after a cut-short start, only what is missing is made.
  await git.init({ fs, dir: GIT_ROOT, defaultBranch });
  if (!(await vault.exists('.git/HEAD'))) await vault.write('.git/HEAD', `ref: refs/heads/${defaultBranch}\n`);
  const existing = (await vault.stat(GITIGNORE)) === null ? '' : await vault.readText(GITIGNORE);
  const merged = mergeIgnore(existing, recursaIgnoreLines(options.configDir));
  if (merged !== null) await vault.write(GITIGNORE, merged);
  const branch = await git.currentBranch({ fs, dir: GIT_ROOT, fullname: false }).catch(() => undefined);
  return { created: true, branch: branch ?? defaultBranch };
}

/** The first snapshot is committed: the repository is an ordinary one from now on. */
export async function markSnapshotDone(vault: VaultPort): Promise<void> {
  // Another instance on the same vault (a reload of the plugin) may remove it at the same moment.
  await removeIfExists(vault, SNAPSHOT_PENDING);
}
