import { requirePath, requireString } from '../validate';
import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

/**
 * The changes to a file (or every file in a folder, or the whole vault) as a unified diff, in the
 * format `git diff` prints. With no commits, compares the last commit with the files as they are
 * now; with `fromCommit`, that commit with now; with both, the two commits. Use it to see how a
 * note evolved or what the agent has changed so far.
 *
 * @param filePath Vault-relative path of a file or folder; `""` for the whole vault.
 * @param fromCommit A commit: a hash (7+ characters is enough), `HEAD`, `HEAD~2`, or a branch name.
 * @param toCommit A later commit, in the same forms.
 * @returns The diff text; `""` when nothing differs.
 * @throws NotFound for an unknown commit; InvalidArgument for a malformed one; PathRefused for a
 *   refused path; GitUnavailable if the vault has no history.
 * @example
 * const [latest] = await mem.gitLog('Projects/Plan.md', 2);
 * const diff = await mem.gitDiff('Projects/Plan.md', 'HEAD~1', 'HEAD');
 */
export async function gitDiff(ctx: MemContext, filePath: string, fromCommit?: string, toCommit?: string): Promise<string> {
  const path = requirePath(filePath, ctx.policy, { allowRoot: true });
  const from = fromCommit === undefined ? undefined : requireString(fromCommit, 'fromCommit', { maxLength: 100 });
  const to = toCommit === undefined ? undefined : requireString(toCommit, 'toCommit', { maxLength: 100 });
  return requireGit(ctx).diff(path, from, to);
}
