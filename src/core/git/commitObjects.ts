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

const decoder = new TextDecoder();

export function parseCommit(content: Uint8Array): CommitObject {
  const text = decoder.decode(content);
  const split = text.indexOf('\n\n');
  const headers = (split < 0 ? text : text.slice(0, split)).split('\n');
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: Signature | null = null;
  let committer: Signature | null = null;
  for (const line of headers) {
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseSignature(value);
    else if (key === 'committer') committer = parseSignature(value);
  }
  if (tree === '' || author === null) throw new Error('git commit object is corrupt');
  return { tree, parents, author, committer: committer ?? author, message };
}

function parseSignature(value: string): Signature {
  const match = /^(.*?) ?<([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(value);
  if (match === null) return { name: value, email: '', timestamp: 0, timezoneOffset: 0 };
  const [, name = '', email = '', seconds = '0', sign, hours = '0', minutes = '0'] = match;
  const offset = Number(hours) * 60 + Number(minutes);
  return { name, email, timestamp: Number(seconds), timezoneOffset: sign === '-' ? -offset : offset };
}

export function serializeCommit(commit: CommitObject): Uint8Array {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${formatSignature(commit.author)}`, `committer ${formatSignature(commit.committer)}`);
  return new TextEncoder().encode(`${lines.join('\n')}\n\n${commit.message}`);
}

function formatSignature(signature: Signature): string {
  const offset = Math.abs(signature.timezoneOffset);
  const zone = `${signature.timezoneOffset < 0 ? '-' : '+'}${String(Math.floor(offset / 60)).padStart(2, '0')}${String(offset % 60).padStart(2, '0')}`;
  return `${signature.name} <${signature.email}> ${signature.timestamp} ${zone}`;
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
