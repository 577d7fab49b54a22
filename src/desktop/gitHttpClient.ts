// Types only: the command line (Node) and the Obsidian plugin on desktop (Electron) both may use
// this file, and the plugin's bundle must not import Node builtins. Each caller hands over the
// modules it loaded.
import type http from 'node:http';
import type https from 'node:https';
import { HttpTransportError } from '../core/ports/http';
import { collectBody } from '../core/sync/httpBody';
import type { GitHttpClient } from '../core/sync/gitHttpClient';
import { redactSecrets } from '../core/text/redactSecrets';
import type { NodeHttpModules } from './httpModuleTransport';

export interface GitHttpClientOptions {
  /** Give up when nothing arrives for this long (connecting, headers, each body chunk). Default 60 s. */
  idleTimeoutMs?: number;
  /**
   * The connection pools to use (keep-alive agents the caller destroys when done, so the process
   * is not kept waiting on idle sockets). Default: the modules' global agents.
   */
  agents?: { http?: http.Agent; https?: https.Agent };
}

/**
 * isomorphic-git's HTTP client (`GitHttpClient`) over Node's `http`/`https` modules: the request
 * body is sent whole (with a `content-length`, which some git hosts require), the response body
 * streams. A connection that fails rejects with an `HttpTransportError`, its message free of
 * credentials; redirects are not followed (git's smart HTTP servers answer in place).
 */
export function createGitHttpClient(modules: NodeHttpModules, options: GitHttpClientOptions = {}): GitHttpClient {
  const idleMs = options.idleTimeoutMs ?? 60_000;
  return {
    async request({ url, method = 'GET', headers = {}, body }) {
      const bytes = body === undefined ? null : await collectBody(body);
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new HttpTransportError('unreachable', `"${redactSecrets(url)}" is not a URL`);
      }
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new HttpTransportError('unreachable', `unsupported protocol ${target.protocol}`);
      const sent: Record<string, string> = { ...headers };
      if (bytes !== null) sent['content-length'] = String(bytes.byteLength);
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const secure = target.protocol === 'https:';
        const agent = secure ? options.agents?.https : options.agents?.http;
        const req = (secure ? modules.https : modules.http).request(target, { method, headers: sent, ...(agent === undefined ? {} : { agent }) });
        req.setTimeout(idleMs, () => req.destroy(new HttpTransportError('timeout', `nothing arrived from ${target.host} for ${idleMs / 1000} s`)));
        req.on('error', (error) => reject(transportError(error, target)));
        req.on('response', resolve);
        req.end(bytes ?? undefined);
      });
      return {
        url,
        method,
        statusCode: res.statusCode ?? 0,
        statusMessage: res.statusMessage ?? '',
        headers: lowerCaseHeaders(res.headers),
        body: chunks(res, target),
      };
    },
  };
}

async function* chunks(res: http.IncomingMessage, target: URL): AsyncIterableIterator<Uint8Array> {
  try {
    for await (const chunk of res) yield chunk as Uint8Array;
    if (!res.complete) throw new HttpTransportError('broken', 'the connection closed before the response was complete');
  } catch (error) {
    throw transportError(error, target);
  }
}

function transportError(error: unknown, target: URL): HttpTransportError {
  if (error instanceof HttpTransportError) return error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const where = target.host;
  switch (code) {
    case 'ECONNREFUSED':
      return new HttpTransportError('unreachable', `connection refused by ${where}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new HttpTransportError('unreachable', `host not found: ${target.hostname}`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new HttpTransportError('broken', `${where} closed the connection`);
    default:
      return new HttpTransportError('unreachable', redactSecrets(error instanceof Error ? error.message : String(error)));
  }
}

function lowerCaseHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}
