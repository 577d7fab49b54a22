import type { Agent } from 'node:http';
import type { Agent as SecureAgent } from 'node:https';
import { InvalidArgumentError } from '../core/errors';
import type { GitService, GitServiceOptions } from '../core/git/GitService';
import { DEFAULT_MEM_OPTIONS } from '../core/mem';
import { VaultStack } from '../core/stack/VaultStack';
import { configuredRemoteUrl, readRemoteUrl, setRemoteUrl, stripCredentials } from '../core/sync/remoteConfig';
import { syncVaultHistory, type SyncProgress, type SyncResult, type SyncStep } from '../core/sync/syncRepository';
import { createGitHttpClient } from '../desktop/gitHttpClient';
import { nodeDeflate } from './nodeDeflate';
import { NodeVaultPort } from './NodeVaultPort';

export interface SyncVaultOptions {
  /**
   * The remote's URL; stored as remote `origin` in `.git/config` without any `user:password@`
   * (those are used for this sync only). Default: the `origin` already configured.
   */
  remote?: string;
  /** The user name for HTTP Basic authentication (any non-empty name works for most hosts with a token). */
  username?: string;
  /** A personal access token (or password). Never stored. */
  token?: string;
  /** The vault's Obsidian config folder (ignore rules of a new repository). Default `.obsidian`. */
  configDir?: string;
  /** Git options of the vault's history (lock waits, the clock). */
  git?: Partial<Omit<GitServiceOptions, 'configDir'>>;
  /** Called at each step of the sync (for crash tests). */
  onStep?: (step: SyncStep) => void | Promise<void>;
  /** Progress of long fetches and pushes. */
  onProgress?: (progress: SyncProgress) => void;
}

/**
 * Syncs a vault folder's history with its git remote over HTTP(S): fetch, merge (never a rebase),
 * push (never forced). The folder becomes a repository if it is not one.
 *
 * @example
 * const result = await syncVault('/path/to/vault', { remote: 'https://example.com/me/notes.git', username: 'me', token });
 * // { ok: true, fetched: 2, pushed: 1, merged: true, conflicts: [], copies: [], uncommitted: [] }
 * @throws SyncError `AuthFailed`, `Unreachable`, `Rejected`, `Conflict`, `GitBusy` (see `syncVaultHistory`);
 *   InvalidArgument when no remote is given and none is configured.
 */
export async function syncVault(dir: string, options: SyncVaultOptions = {}): Promise<SyncResult> {
  const port = await NodeVaultPort.open(dir, { watch: false });
  let stack: VaultStack | null = null;
  let agents: { http: Agent; https: SecureAgent } | null = null;
  try {
    // Arguments are refused before the vault is touched (no repository made, no snapshot taken).
    const given = options.remote === undefined ? null : stripCredentials(options.remote);
    if (given !== null && !/^https?:\/\//i.test(given.url)) throw new InvalidArgumentError('remote', 'an http:// or https:// URL', given.url);
    if (given === null && (await configuredRemoteUrl(port, 'origin')) === null) throw noRemote();
    // The stack without the index, the sandbox or the agent: sync needs the history alone.
    stack = await VaultStack.open(port, {
      mem: { configDir: options.configDir ?? DEFAULT_MEM_OPTIONS.configDir },
      git: { deflate: nodeDeflate, ...options.git },
      graph: false,
      session: { runId: 'sync' },
    });
    const git = stack.git as GitService;
    await git.whenSnapshotDone();
    const url = await git.runExclusive(async (repo) => {
      if (given !== null) {
        await setRemoteUrl(repo, 'origin', given.url, (await repo.head()).branch);
        return given.url;
      }
      return readRemoteUrl(repo, 'origin');
    });
    if (url === null) throw noRemote();
    const username = options.username ?? (given?.username || undefined);
    const password = options.token ?? (given?.password || undefined);
    const modules = { http: process.getBuiltinModule('node:http'), https: process.getBuiltinModule('node:https') };
    // One keep-alive pool per sync, closed at the end: a sync makes several requests, and idle
    // sockets left open would keep a command-line process waiting for the server to drop them.
    agents = { http: new modules.http.Agent({ keepAlive: true }), https: new modules.https.Agent({ keepAlive: true }) };
    const http = createGitHttpClient(modules, { agents });
    return await syncVaultHistory(git, {
      url,
      http,
      credentials: password === undefined && username === undefined ? null : { username: username ?? 'recursa', password: password ?? '' },
      onStep: options.onStep,
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      now: options.git?.now,
    });
  } finally {
    agents?.http.destroy();
    agents?.https.destroy();
    await stack?.close();
    port.close();
  }
}

function noRemote(): InvalidArgumentError {
  return new InvalidArgumentError('remote', 'a remote URL (the vault has no remote "origin" yet)', '(none)');
}
