import git from 'isomorphic-git';
import type { VaultPort } from '../ports';
import { createGitFs, GIT_ROOT } from './gitFs';
import { mergeIgnore, recursaIgnoreLines } from './gitignore';

export interface RepositoryState {
  /** `true` when Recursa initialised the repository just now. */
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
 * Makes sure the vault is a git repository. A vault that already is one (for example managed by
 * the Obsidian Git plugin) is used as it is: its branch, history and `.gitignore` are left alone.
 * Otherwise a repository is initialised on `main` and `.gitignore` gets Recursa's ignore rules
 * (added to an existing `.gitignore` without touching its lines).
 */
export async function ensureRepository(vault: VaultPort, options: EnsureRepositoryOptions): Promise<RepositoryState> {
  const fs = createGitFs(vault);
  // `.git` may be a folder, or a file pointing elsewhere (a worktree or submodule): either way it is the user's.
  if ((await vault.stat('.git')) !== null) {
    const branch = await git.currentBranch({ fs, dir: GIT_ROOT, fullname: false }).catch(() => undefined);
    return { created: false, branch: branch ?? null };
  }
  const defaultBranch = options.defaultBranch ?? 'main';
  await git.init({ fs, dir: GIT_ROOT, defaultBranch });
  const existing = (await vault.stat(GITIGNORE)) === null ? '' : await vault.readText(GITIGNORE);
  const merged = mergeIgnore(existing, recursaIgnoreLines(options.configDir));
  if (merged !== null) await vault.write(GITIGNORE, merged);
  return { created: true, branch: defaultBranch };
}
