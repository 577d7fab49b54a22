// Types only: both the command line (Node) and the Obsidian plugin on desktop (Electron) use this
// file, and the plugin's bundle must not import Node builtins (it also runs on mobile). Each caller
// hands over the modules it loaded.
import type http from 'node:http';
import type https from 'node:https';
import { HttpTransportError, type HttpRequest, type HttpResponse, type HttpTransport } from '../core/ports/http';
import { redactSecrets } from '../core/text/redactSecrets';

/** The parts of Node's `http` and `https` modules the transport uses. */
export interface NodeHttpModules {
  http: Pick<typeof http, 'request'>;
  https: Pick<typeof https, 'request'>;
}

/**
 * The HTTP port over Node's `http`/`https` modules the caller loaded (Node's own in the command
 * line, the ones the Obsidian plugin `require`s at run time on desktop). See `createNodeHttpTransport`.
 */
export function createHttpModuleTransport(modules: NodeHttpModules): HttpTransport {
  return { streams: true, request: (request) => nodeRequest(modules, request) };
}

function nodeRequest(modules: NodeHttpModules, request: HttpRequest): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      reject(new HttpTransportError('unreachable', `"${redactSecrets(request.url)}" is not a URL`));
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new HttpTransportError('unreachable', `unsupported protocol ${url.protocol}`));
      return;
    }
    if (request.signal?.aborted) {
      reject(new HttpTransportError('aborted', 'the request was aborted'));
      return;
    }

    const body = request.body === undefined ? undefined : new TextEncoder().encode(request.body);
    const headers: Record<string, string> = { ...request.headers };
    if (body !== undefined) headers['content-length'] = String(body.length);
    const req = (url.protocol === 'https:' ? modules.https : modules.http).request(url, { method: request.method, headers });

    let failure: HttpTransportError | null = null;
    const fail = (error: HttpTransportError): void => {
      if (failure !== null) return;
      failure = error;
      req.destroy(error);
    };
    const onAbort = (): void => fail(new HttpTransportError('aborted', 'the request was aborted'));
    const cleanup = (): void => request.signal?.removeEventListener('abort', onAbort);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = request.timeoutMs;
    if (timeoutMs !== undefined) {
      req.setTimeout(timeoutMs, () => fail(new HttpTransportError('timeout', `nothing arrived for ${formatMs(timeoutMs)}`)));
    }

    req.on('error', (error) => {
      cleanup();
      reject(failure ?? fromNodeError(error, url, false));
    });
    req.on('response', (res) => {
      res.on('close', cleanup);
      resolve({
        status: res.statusCode ?? 0,
        headers: lowerCaseHeaders(res.headers),
        body: readBody(res, req, () => failure, url),
      });
    });
    req.end(body);
  });
}

async function* readBody(
  res: http.IncomingMessage,
  req: http.ClientRequest,
  failure: () => HttpTransportError | null,
  url: URL,
): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    for await (const chunk of res) {
      const current = failure();
      if (current !== null) throw current;
      yield chunk as Uint8Array;
    }
    if (!res.complete) throw new HttpTransportError('broken', 'the connection closed before the response was complete');
  } catch (error) {
    throw failure() ?? fromNodeError(error, url, true);
  } finally {
    // The consumer may stop early (an abort, a `[DONE]` before the last bytes): free the socket.
    if (!res.complete) req.destroy();
  }
}

function fromNodeError(error: unknown, url: URL, afterResponse: boolean): HttpTransportError {
  if (error instanceof HttpTransportError) return error;
  const code = errorCode(error);
  const detail = redactSecrets(error instanceof Error ? error.message : String(error));
  switch (code) {
    case 'ECONNREFUSED':
      return new HttpTransportError('unreachable', `connection refused by ${url.host}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new HttpTransportError('unreachable', `host not found: ${url.hostname}`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return new HttpTransportError('unreachable', `no route to ${url.host}`);
    case 'ETIMEDOUT':
      return new HttpTransportError('timeout', `connecting to ${url.host} timed out`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new HttpTransportError('broken', afterResponse ? 'the connection closed before the response was complete' : 'the server closed the connection');
    default:
      return new HttpTransportError(afterResponse ? 'broken' : 'unreachable', detail);
  }
}

/** The error's `code`; for the AggregateError of a dual-stack connect, the first attempt's. */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return errorCode(error.errors[0]);
  return undefined;
}

function lowerCaseHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
