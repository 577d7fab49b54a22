import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gitCli, GIT_ENV } from './gitCli';

/**
 * git's own smart-HTTP server, `git http-backend`, run as CGI behind a Node HTTP server on
 * 127.0.0.1 — the remote every sync test pushes to and fetches from. Optional HTTP Basic auth
 * (wrong or missing credentials get a 401), a hook to act before a request is answered (another
 * device pushing meanwhile), and `stop()` to make it unreachable.
 */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; a repository is at `${base}/<name>.git`. */
  base: string;
  /** The folder holding the bare repositories. */
  root: string;
  /** Creates a bare repository (branch `main`, pushes over HTTP allowed); returns its URL and folder. */
  createRepo(name: string): Promise<{ url: string; dir: string }>;
  /** Makes the repository's `pre-receive` hook refuse every push (with `reason` on stderr). */
  refusePushes(dir: string, reason: string): Promise<void>;
  /** Replaces `beforeRequest` (null: none). */
  intercept(hook: GitHttpServerOptions['beforeRequest'] | null): void;
  /** Every request answered so far: method, path and query. */
  requests: { method: string; path: string; query: string }[];
  /** Closes the server; its port then refuses connections. */
  stop(): Promise<void>;
}

export interface GitHttpServerOptions {
  /** The folder to keep bare repositories in. */
  root: string;
  /** Require these credentials (HTTP Basic). */
  auth?: { username: string; password: string };
  /** Runs before each request is passed to git (after the auth check). */
  beforeRequest?: (request: { method: string; path: string; query: string }) => Promise<void> | void;
}

export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  let beforeRequest = options.beforeRequest ?? null;
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request = { method: req.method ?? 'GET', path: url.pathname, query: url.search.slice(1) };
    let user = '';
    if (options.auth !== undefined) {
      const expected = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        req.resume();
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
        res.end('authentication required\n');
        return;
      }
      user = options.auth.username;
    }
    await beforeRequest?.(request);
    requests.push(request);
    await runBackend(options.root, req, res, request, user);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    root: options.root,
    requests,
    async createRepo(name) {
      const dir = join(options.root, `${name}.git`);
      await mkdir(dir, { recursive: true });
      gitCli(dir, 'init', '--quiet', '--bare', '--initial-branch=main');
      gitCli(dir, 'config', 'http.receivepack', 'true');
      return { url: `${base}/${name}.git`, dir };
    },
    intercept(hook) {
      beforeRequest = hook ?? null;
    },
    async refusePushes(dir, reason) {
      const hook = join(dir, 'hooks', 'pre-receive');
      await mkdir(join(dir, 'hooks'), { recursive: true });
      await writeFile(hook, `#!/bin/sh\necho ${JSON.stringify(reason)} >&2\nexit 1\n`);
      await chmod(hook, 0o755);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One CGI call of `git http-backend`: the request body on its stdin, its headers then body back. */
function runBackend(root: string, req: IncomingMessage, res: ServerResponse, request: { method: string; path: string; query: string }, user: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(request.path),
        QUERY_STRING: request.query,
        REQUEST_METHOD: request.method,
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] === undefined ? {} : { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }),
        ...(req.headers['git-protocol'] === undefined ? {} : { GIT_PROTOCOL: String(req.headers['git-protocol']) }),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    req.pipe(child.stdin);
    let header = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      header = Buffer.concat([header, chunk]);
      const crlf = header.indexOf('\r\n\r\n');
      const lf = header.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
      if (end < 0) return;
      const gap = end === crlf ? 4 : 2;
      const lines = header.subarray(0, end).toString('latin1').split(/\r?\n/);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      headersDone = true;
      const rest = header.subarray(end + gap);
      if (rest.length > 0) res.write(rest);
    });
    child.on('error', reject);
    child.on('close', () => {
      if (!headersDone) res.writeHead(502);
      res.end();
      resolve();
    });
  });
}

/**
 * Runs the `git` CLI asynchronously — needed for anything that talks to a `GitHttpServer` in the
 * same process (a synchronous child would block the server it waits for). `auth` is sent as an
 * HTTP header given on the command line, so it is stored in no config file.
 */
export function gitAsync(dir: string, args: string[], auth?: { username: string; password: string }): Promise<string> {
  const header = auth === undefined ? [] : ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`];
  return new Promise((resolve, reject) => {
    execFile('git', [...header, '-C', dir, ...args], { encoding: 'utf8', env: { ...GIT_ENV, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`git ${args.join(' ')} failed: ${stderr}`));
    });
  });
}
