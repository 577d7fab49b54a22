import { InvalidArgumentError } from '../errors';
import { requireString } from '../validate';
import type { MemContext } from './MemContext';
import { requireGit } from './requireGit';

const MAX_MESSAGE_LENGTH = 4000;

/**
 * Commits the agent's work: exactly the files written, renamed or deleted through `mem` since
 * the last commit, nothing else — the user's own unsaved or uncommitted edits to other files stay
 * out, and so do files the vault's `.gitignore` excludes. If the user had uncommitted edits in a
 * note before the agent first changed it, those were already committed, as the user's, at that
 * moment. The commit is marked as the agent's and names the run, so the user can find and undo it.
 * Write a concise message that says what changed and why. Call it once at the end of a task.
 *
 * @param message The commit message: a short summary line, optionally a blank line and details.
 * @returns The new commit's hash (40 hex characters).
 * @throws NothingToCommit if no file changed since the last commit (no empty commit is made;
 *   `data.ignored` lists changed files the ignore rules keep out);
 *   GitBusy if another git program holds the repository's lock; InvalidArgument for an empty or
 *   overlong message; GitUnavailable if the vault has no history.
 * @example
 * await mem.writeFile('People/Ada Lovelace.md', '# Ada Lovelace\n');
 * const hash = await mem.commitChanges('Add a note on Ada Lovelace');
 */
export async function commitChanges(ctx: MemContext, message: string): Promise<string> {
  const text = requireString(message, 'message', { maxLength: MAX_MESSAGE_LENGTH }).replace(/\0/g, '').trim();
  if (text === '') throw new InvalidArgumentError('message', 'a message saying what changed', 'an empty message');
  return requireGit(ctx).commitAgentChanges(text, ctx.session.runId, ctx.session.client ?? null);
}
