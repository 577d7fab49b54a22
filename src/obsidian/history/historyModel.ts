/**
 * What the history view shows and does, apart from drawing it: the list of the agent's commits,
 * the diff of one as classified lines, times as people read them, and reverting with a result
 * the view can show. Pure or over core, so tests run it against a real repository.
 */
import { agentHistory, type AgentCommit, type AgentHistory } from '../../core/git/agentHistory';
import { diffFiles } from '../../core/git/diffFiles';
import type { GitService } from '../../core/git/GitService';
import { isRecursaError } from '../../core/errors';

/** One line of a unified diff, with what it is. */
export interface DiffLine {
  kind: 'file' | 'meta' | 'hunk' | 'added' | 'removed' | 'context';
  text: string;
}

/** Classifies the lines of `git diff` output for display. */
export function diffLines(diff: string): DiffLine[] {
  if (diff === '') return [];
  const lines = (diff.endsWith('\n') ? diff.slice(0, -1) : diff).split('\n');
  let inHunk = false;
  return lines.map((text): DiffLine => {
    if (text.startsWith('diff --git ')) {
      inHunk = false;
      return { kind: 'file', text };
    }
    if (text.startsWith('@@')) {
      inHunk = true;
      return { kind: 'hunk', text };
    }
    if (!inHunk) return { kind: 'meta', text };
    if (text.startsWith('+')) return { kind: 'added', text };
    if (text.startsWith('-')) return { kind: 'removed', text };
    return { kind: text.startsWith('\\') ? 'meta' : 'context', text };
  });
}

/** The commits among `commits` that a later one in the list reverts (`This reverts commit <hash>.`). */
export function revertedHashes(commits: readonly AgentCommit[]): Set<string> {
  const reverted = new Set<string>();
  for (const commit of commits) {
    for (const match of commit.message.matchAll(/This reverts commit ([0-9a-f]{40})\./g)) reverted.add(match[1] as string);
  }
  return reverted;
}

/** `Today 14:05`, `Yesterday 09:12`, or `2026-03-08 14:05`, in local time. */
export function formatCommitTime(time: number, now: Date = new Date()): string {
  const date = new Date(time);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const clock = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const day = (d: Date): number => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(date)) / 86_400_000);
  if (days === 0) return `Today ${clock}`;
  if (days === 1) return `Yesterday ${clock}`;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${clock}`;
}

/** The history to show: the agent's newest commits and today's count. */
export function loadHistory(git: GitService, options: { max?: number; now?: Date } = {}): Promise<AgentHistory> {
  return agentHistory(git.repo, { max: options.max ?? 100, ...(options.now === undefined ? {} : { now: options.now }) });
}

/** The diff one commit made, as `git show` prints it (without the header). */
export function commitDiff(git: GitService, commit: Pick<AgentCommit, 'hash' | 'parent'>): Promise<string> {
  return commit.parent === null ? diffFiles(git.repo, '', null, commit.hash) : git.diff('', commit.parent, commit.hash);
}

export type RevertOutcome = { ok: true; hash: string } | { ok: false; code: string; message: string };

/** Reverts `hash` with a new agent commit; a refusal (later edits, not the agent's) comes back as a message, never thrown. */
export async function revertAgentCommit(git: GitService, hash: string, runId: string): Promise<RevertOutcome> {
  try {
    return { ok: true, hash: await git.revertCommit(hash, runId) };
  } catch (error) {
    if (isRecursaError(error)) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: 'Error', message: error instanceof Error ? error.message : String(error) };
  }
}

/** A commit as a person reads it: its title, the request behind it, and any note of its author. */
export interface ReadableCommit {
  title: string;
  /** What the person asked for, when it says more than the title. */
  request: string | null;
  /** The rest of the message, without the agent's bookkeeping (run ids, trailers). */
  note: string | null;
}

/**
 * The parts of a commit message worth reading: the title without the `Recursa:` prefix, the
 * request, and the author's text; the run id sentence and `Key: value` trailers are left out.
 */
export function readableCommit(message: string, subject: string): ReadableCommit {
  const title = subject.replace(/^Recursa:\s*/, '') || subject;
  let request: string | null = null;
  const notes: string[] = [];
  for (const paragraph of message.slice(subject.length).trim().split(/\n\s*\n/)) {
    const text = paragraph.trim();
    if (text === '') continue;
    if (text.startsWith('Request: ')) request = text.slice('Request: '.length).trim();
    else if (/^Committed when run \S+ /.test(text) || /^This reverts commit [0-9a-f]{40}\.$/.test(text)) continue;
    else if (text.split('\n').every((line) => /^[A-Z][\w-]*: \S/.test(line))) continue;
    else notes.push(text);
  }
  return { title, request: request === title ? null : request, note: notes.length === 0 ? null : notes.join('\n\n') };
}
