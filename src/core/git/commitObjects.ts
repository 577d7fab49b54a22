export interface GitIdentity {
  name: string;
  email: string;
}

export interface Signature extends GitIdentity {
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes east of UTC, as git records it (`+0100` → 60). */
  timezoneOffset: number;
}

export interface CommitObject {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

/** A signature for now, in the local time zone. */
export function signatureNow(identity: GitIdentity, now = new Date()): Signature {
  return { ...identity, timestamp: Math.floor(now.getTime() / 1000), timezoneOffset: -now.getTimezoneOffset() };
}

/** The trailer that marks a commit as the agent's and names its run. */
export const RUN_TRAILER = 'Recursa-Run';

/**
 * A commit message as git wants it: the text trimmed, the run trailer in a final paragraph of its
 * own, one newline at the end. Identity fields never contain `<`, `>` or newlines (see `safeIdentity`).
 */
export function agentCommitMessage(message: string, runId: string): string {
  return `${message.trim()}\n\n${RUN_TRAILER}: ${runId}\n`;
}

/** Splits off the run trailer Recursa adds; `run` is null for commits that are not the agent's. */
export function readAgentTrailer(message: string): { message: string; run: string | null } {
  const match = new RegExp(`\\n\\n${RUN_TRAILER}: ([^\\n]+)\\n?$`).exec(message);
  if (match === null) return { message: message.trim(), run: null };
  return { message: message.slice(0, match.index).trim(), run: (match[1] as string).trim() };
}

/** Removes what git forbids in an identity (angle brackets, newlines) so a setting cannot corrupt a commit. */
export function safeIdentity(identity: GitIdentity): GitIdentity {
  const clean = (value: string) => value.replace(/[<>\r\n\0]/g, '').trim();
  return { name: clean(identity.name) || 'Recursa', email: clean(identity.email) || 'recursa@localhost' };
}
