import type { HttpClient } from 'isomorphic-git';

/**
 * The HTTP client sync hands isomorphic-git (its `HttpClient`): `request({ url, method, headers,
 * body })` resolving to `{ url, method, statusCode, statusMessage, headers, body }`, bodies as
 * async iterables of bytes. Each runtime provides one: Node's `http`/`https` headless and on
 * desktop, Obsidian's `requestUrl` elsewhere. A request that cannot reach the server should
 * reject with an `HttpTransportError` (`../ports/http`), which sync reports as `Unreachable`.
 */
export type GitHttpClient = HttpClient;
