import { Platform, requestUrl } from 'obsidian';
import { HttpTransportError } from '../../core/ports/http';
import { collectBody, singleChunk } from '../../core/sync/httpBody';
import type { GitHttpClient } from '../../core/sync/gitHttpClient';
import { redactSecrets } from '../../core/text/redactSecrets';
import { createGitHttpClient } from '../../desktop/gitHttpClient';
import type { NodeHttpModules } from '../../desktop/httpModuleTransport';
import { desktopRequire } from '../desktopRequire';

/**
 * isomorphic-git's HTTP client in Obsidian. On desktop it is Node's `http`/`https` from Electron's
 * renderer (responses stream, loaded at first use); on mobile, or when those cannot be loaded, it
 * is `requestUrl`, which is not subject to CORS (git hosts send no CORS headers) but delivers each
 * response whole.
 */
export function createObsidianGitHttpClient(): GitHttpClient {
  let chosen: GitHttpClient | null = null;
  return { request: (request) => (chosen ??= loadNodeClient() ?? requestUrlClient).request(request) };
}

function loadNodeClient(): GitHttpClient | null {
  if (!Platform.isDesktopApp) return null;
  const load = desktopRequire();
  if (load === null) return null;
  try {
    const modules = { http: load('http'), https: load('https') } as Partial<NodeHttpModules>;
    if (typeof modules.http?.request !== 'function' || typeof modules.https?.request !== 'function') return null;
    return createGitHttpClient(modules as NodeHttpModules);
  } catch {
    return null;
  }
}

const requestUrlClient: GitHttpClient = {
  async request({ url, method = 'GET', headers = {}, body }) {
    const bytes = body === undefined ? undefined : await collectBody(body);
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      throw new HttpTransportError('unreachable', `"${redactSecrets(url)}" is not a URL`);
    }
    let response: Awaited<ReturnType<typeof requestUrl>>;
    try {
      // An ArrayBuffer of exactly the body: a view's underlying buffer may hold more bytes than the view.
      response = await requestUrl({ url, method, headers, body: bytes?.slice().buffer, throw: false });
    } catch (error) {
      throw new HttpTransportError('unreachable', `could not reach ${host} (${redactSecrets(error instanceof Error ? error.message : String(error))})`);
    }
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) responseHeaders[name.toLowerCase()] = value;
    return { url, method, statusCode: response.status, statusMessage: '', headers: responseHeaders, body: singleChunk(new Uint8Array(response.arrayBuffer)) };
  },
};

