import git from 'isomorphic-git';
import { createGitFs, GIT_ROOT, type GitFs } from '../git/gitFs';
import { LockedUpdate } from '../git/lockedUpdate';
import type { GitRepository } from '../git/repository';
import { readTextIfExists, type VaultPort } from '../ports';

/** A remote URL with its credentials taken out, and those credentials (empty when there were none). */
export interface SplitUrl {
  url: string;
  username: string;
  password: string;
}

/**
 * Takes `user:password@` out of an http(s) URL (and any `#fragment`), so the URL can be stored
 * and shown; the credentials are returned apart, decoded.
 */
export function stripCredentials(url: string): SplitUrl {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { url: url.trim(), username: '', password: '' };
  }
  const username = safeDecode(parsed.username);
  const password = safeDecode(parsed.password);
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  return { url: parsed.toString(), username, password };
}

/** The remote's URL from `.git/config`, or null when the remote is not configured. */
export async function readRemoteUrl(repo: GitRepository, remote: string): Promise<string | null> {
  return remoteUrlIn(repo.store.fs, repo.gitdir, remote);
}

/**
 * The remote's URL as a vault's `.git/config` has it, read without opening the repository (so a
 * command can refuse its arguments before it touches the vault); null when there is none.
 */
export async function configuredRemoteUrl(vault: VaultPort, remote: string, gitdir = '.git'): Promise<string | null> {
  if (!(await vault.exists(`${gitdir}/config`))) return null;
  return remoteUrlIn(createGitFs(vault), gitdir, remote);
}

async function remoteUrlIn(fs: GitFs, gitdir: string, remote: string): Promise<string | null> {
  const value = (await git.getConfig({ fs, dir: GIT_ROOT, gitdir: `/${gitdir}`, path: `remote.${remote}.url` }).catch(() => undefined)) as unknown;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * Sets `remote.<remote>.url` (and, for a new remote, git's usual fetch refspec), and makes the
 * branch track it when it tracks nothing yet, as `git remote add` + `git push -u` would. The
 * config file is replaced under git's lock (`config.lock`), like `git config` does. `url` must
 * carry no credentials (see `stripCredentials`).
 */
export async function setRemoteUrl(repo: GitRepository, remote: string, url: string, branch: string | null): Promise<void> {
  const path = `${repo.gitdir}/config`;
  const update = await LockedUpdate.acquire(repo.vault, repo.gitdir, [path], repo.lockOwner, repo.lockWait);
  try {
    const before = (await readTextIfExists(repo.vault, path)) ?? '';
    let text = setValue(before, `remote "${remote}"`, 'url', url, [['fetch', `+refs/heads/*:refs/remotes/${remote}/*`]]);
    if (branch !== null && sectionRange(text.split('\n'), `branch "${branch}"`) === null) {
      text = setValue(text, `branch "${branch}"`, 'remote', remote, [['merge', `refs/heads/${branch}`]]);
    }
    if (text === before) return;
    await update.stage(path, text);
    await update.apply();
  } finally {
    await update.release();
  }
}

/** `text` with `key = value` set in `[section]`, creating the section (with `extra` lines) when missing. */
function setValue(text: string, section: string, key: string, value: string, extra: [string, string][]): string {
  const lines = text.split('\n');
  const range = sectionRange(lines, section);
  const line = `\t${key} = ${quote(value)}`;
  if (range === null) {
    const body = [`[${section}]`, line, ...extra.map(([name, extraValue]) => `\t${name} = ${quote(extraValue)}`)];
    const head = text === '' || text.endsWith('\n') ? text : `${text}\n`;
    return `${head}${body.join('\n')}\n`;
  }
  const keyLine = new RegExp(`^\\s*${key}\\s*(=|$)`, 'i');
  for (let at = range.start + 1; at < range.end; at++) {
    if (keyLine.test(lines[at] as string)) {
      lines[at] = line;
      return lines.join('\n');
    }
  }
  lines.splice(range.start + 1, 0, line);
  return lines.join('\n');
}

/** The header line of `[section]` and the line after its last one. */
function sectionRange(lines: readonly string[], section: string): { start: number; end: number } | null {
  const [kind, name] = section.split(' ', 2) as [string, string | undefined];
  const header = new RegExp(`^\\s*\\[\\s*${kind}${name === undefined ? '' : `\\s+${escapeRegExp(name)}`}\\s*\\]\\s*$`, 'i');
  const start = lines.findIndex((line) => header.test(line));
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end] as string)) end++;
  return { start, end };
}

/** A value as git config writes it: quoted when it holds a comment character or edge spaces. */
function quote(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  return /[;#]|^\s|\s$/.test(value) ? `"${escaped}"` : escaped;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
