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

/** `<name> <<email>> <seconds> <+hhmm>`: a signature as git writes it in commits and reflogs. */
export function formatSignature(who: Signature): string {
  const offset = Math.abs(who.timezoneOffset);
  const zone = `${who.timezoneOffset < 0 ? '-' : '+'}${String(Math.floor(offset / 60)).padStart(2, '0')}${String(offset % 60).padStart(2, '0')}`;
  return `${who.name} <${who.email}> ${who.timestamp} ${zone}`;
}

/**
 * A commit object's content as git writes it. The message loses carriage returns and leading
 * blank lines and ends in exactly one newline.
 */
export function commitContent(commit: CommitObject): string {
  const parents = commit.parents.map((parent) => `parent ${parent}\n`).join('');
  const message = `${commit.message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
  return `tree ${commit.tree}\n${parents}author ${formatSignature(commit.author)}\ncommitter ${formatSignature(commit.committer)}\n\n${message}`;
}

/** A signature for now, in the local time zone. */
export function signatureNow(identity: GitIdentity, now = new Date()): Signature {
  return { ...identity, timestamp: Math.floor(now.getTime() / 1000), timezoneOffset: -now.getTimezoneOffset() };
}

/** The trailer that marks a commit as the agent's and names its run. */
export const RUN_TRAILER = 'Recursa-Run';

/** The trailer that names the MCP client a commit was made for (its `clientInfo.name`). */
export const CLIENT_TRAILER = 'Recursa-Client';

/** The final paragraph of an agent commit: the run trailer, then the client's when there is one. */
const AGENT_TRAILERS = new RegExp(`\\n\\n${RUN_TRAILER}: ([^\\n]+)(?:\\n${CLIENT_TRAILER}: ([^\\n]+))?\\n?$`);

/**
 * A commit message as git wants it: the text trimmed, the run trailer (and the client's, when the
 * work came from an MCP client) in a final paragraph of its own, one newline at the end. Identity
 * fields never contain `<`, `>` or newlines (see `safeIdentity`).
 */
export function agentCommitMessage(message: string, runId: string, client: string | null = null): string {
  const name = client === null ? '' : client.replace(/[\r\n\0]/g, ' ').trim().slice(0, 200);
  return `${message.trim()}\n\n${RUN_TRAILER}: ${runId}\n${name === '' ? '' : `${CLIENT_TRAILER}: ${name}\n`}`;
}

/** Splits off the trailers Recursa adds; `run` is null for commits that are not the agent's. */
export function readAgentTrailer(message: string): { message: string; run: string | null } {
  const match = AGENT_TRAILERS.exec(message);
  if (match === null) return { message: message.trim(), run: null };
  return { message: message.slice(0, match.index).trim(), run: (match[1] as string).trim() };
}

/** The MCP client an agent commit was made for (its `Recursa-Client` trailer), or null. */
export function readClientTrailer(message: string): string | null {
  return AGENT_TRAILERS.exec(message)?.[2]?.trim() ?? null;
}

/** Removes what git forbids in an identity (angle brackets, newlines) so a setting cannot corrupt a commit. */
export function safeIdentity(identity: GitIdentity): GitIdentity {
  const clean = (value: string) => value.replace(/[<>\r\n\0]/g, '').trim();
  return { name: clean(identity.name) || 'Recursa', email: clean(identity.email) || 'recursa@localhost' };
}
