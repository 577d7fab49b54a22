import { Platform, requestUrl } from 'obsidian';
import { HttpTransportError, type HttpRequest, type HttpResponse, type HttpTransport } from '../core/ports/http';
import { redactSecrets } from '../core/text/redactSecrets';
import { createHttpModuleTransport, type NodeHttpModules } from '../desktop/httpModuleTransport';
import { desktopRequire } from './desktopRequire';

/**
 * The HTTP port in Obsidian.
 *
 * On desktop it is Node's `http`/`https` from Electron's renderer, loaded at first use
 * (never at plugin load: mobile has no Node modules): the body streams and there is no CORS limit.
 *
 * On mobile, or when those modules cannot be loaded, it is Obsidian's `requestUrl`, which avoids
 * CORS but cannot stream or be cancelled: `streams` is false and the body arrives as one chunk once
 * the whole response is in. Every status comes back as a response. `timeoutMs` covers the whole
 * request, and aborting rejects at once with an `aborted` error; in both cases `requestUrl` itself
 * runs on and its answer is dropped. Failures before a response are `unreachable` (refused,
 * unknown host…), `timeout`, or `broken` (the connection closed before the response was complete).
 */
export function createObsidianHttpTransport(): HttpTransport {
  const fallback = createRequestUrlTransport();
  let chosen: HttpTransport | null = null;
  const current = (): HttpTransport => (chosen ??= loadNodeTransport() ?? fallback);
  return {
    // Providers read it before each request, to ask for a stream or not.
    get streams() {
      return current().streams;
    },
    request: (request) => current().request(request),
  };
}

/** Node's transport over the renderer's `http`/`https`: null on mobile, or when they cannot be loaded. */
function loadNodeTransport(): HttpTransport | null {
  if (!Platform.isDesktopApp) return null;
  const load = desktopRequire();
  if (load === null) return null;
  try {
    const modules = { http: load('http'), https: load('https') };
    if (!hasRequest(modules.http) || !hasRequest(modules.https)) return null;
    return createHttpModuleTransport(modules as NodeHttpModules);
  } catch {
    return null;
  }
}

function hasRequest(module: unknown): boolean {
  return typeof module === 'object' && module !== null && typeof (module as { request?: unknown }).request === 'function';
}

function createRequestUrlTransport(): HttpTransport {
  return { streams: false, request: requestWhole };
}

async function requestWhole(request: HttpRequest): Promise<HttpResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new HttpTransportError('unreachable', `"${redactSecrets(request.url)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpTransportError('unreachable', `unsupported protocol ${url.protocol}`);
  const { signal } = request;
  if (signal?.aborted) throw aborted();

  const pending = requestUrl({ url: request.url, method: request.method, headers: request.headers, body: request.body, throw: false });
  const response = await new Promise<Awaited<typeof pending>>((resolve, reject) => {
    let timer: number | undefined;
    let settled = false;
    /** Ends the wait once: the first of the answer, the abort and the timer wins. */
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      if (timer !== undefined) window.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const onAbort = (): void => {
      if (settle()) reject(aborted());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const { timeoutMs } = request;
    if (timeoutMs !== undefined) {
      timer = window.setTimeout(() => {
        if (settle()) reject(new HttpTransportError('timeout', `no response within ${formatMs(timeoutMs)}`));
      }, timeoutMs);
    }
    // requestUrl cannot be stopped: after an abort or a timeout, its answer is dropped here.
    pending.then(
      (value) => {
        if (settle()) resolve(value);
      },
      (error: unknown) => {
        if (settle()) reject(fromRequestUrlError(error, url));
      },
    );
  });

  return {
    status: response.status,
    headers: lowerCaseHeaders(response.headers),
    body: wholeBody(new Uint8Array(response.arrayBuffer), signal),
  };
}

/** The body as one chunk; an abort before it is read rejects the read, as a streamed body would. */
async function* wholeBody(bytes: Uint8Array, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array, void, undefined> {
  if (signal?.aborted) throw aborted();
  yield bytes;
}

/**
 * `requestUrl` rejects with the platform's own error: Chromium's on desktop
 * (`net::ERR_CONNECTION_REFUSED`, `net::ERR_CONNECTION_RESET`…), the WebView's on mobile.
 */
function fromRequestUrlError(error: unknown, url: URL): HttpTransportError {
  const detail = redactSecrets(error instanceof Error ? error.message : String(error));
  if (/TIMED_OUT|timed out|timeout/i.test(detail)) return new HttpTransportError('timeout', `connecting to ${url.host} timed out (${detail})`);
  if (/ERR_CONNECTION_(RESET|CLOSED|ABORTED)|ERR_EMPTY_RESPONSE|ERR_INCOMPLETE/.test(detail)) {
    return new HttpTransportError('broken', `the connection to ${url.host} closed before the response was complete (${detail})`);
  }
  return new HttpTransportError('unreachable', `could not reach ${url.host} (${detail})`);
}

function aborted(): HttpTransportError {
  return new HttpTransportError('aborted', 'the request was aborted');
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
