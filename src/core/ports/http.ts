/**
 * HTTP as core sees it: one request, a status, headers, and a body that may arrive in pieces.
 * Each runtime provides one — Node's `http`/`https` headless; in Obsidian, Node's `http` on
 * desktop (it streams and has no CORS limit) and `requestUrl` elsewhere (no streaming).
 */
export interface HttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Aborting ends the request at once; the promise (or the body iteration) rejects with an `AbortError`-named error. */
  signal?: AbortSignal;
  /** Give up when no response (or no further chunk) arrives for this long. */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body as it arrives: several chunks when the transport streams, one when it cannot. */
  body: AsyncIterable<Uint8Array>;
}

export interface HttpTransport {
  /** Whether `body` arrives as the server sends it (false: all at once, at the end). */
  readonly streams: boolean;
  request(request: HttpRequest): Promise<HttpResponse>;
}

/**
 * Why a request failed before any response: the host could not be reached, the connection broke,
 * or it took too long. Providers turn these into messages a user can act on.
 */
export class HttpTransportError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'aborted' | 'broken',
    message: string,
  ) {
    super(message);
    this.name = kind === 'aborted' ? 'AbortError' : 'HttpTransportError';
  }
}
