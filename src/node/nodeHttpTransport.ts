import type { HttpTransport } from '../core/ports/http';
import { createHttpModuleTransport } from '../desktop/httpModuleTransport';

/**
 * The HTTP port over Node's `http`/`https`: the body streams as it arrives. `signal` ends the
 * request at once (before or during the body); `timeoutMs` is an idle timeout, covering the
 * connection, the wait for headers and each gap between body chunks. Failures are
 * `HttpTransportError`s: `unreachable` (refused, unknown host, TLS), `timeout`, `aborted`, and
 * `broken` when the connection dies before the response is complete.
 */
export function createNodeHttpTransport(): HttpTransport {
  return createHttpModuleTransport({ http: process.getBuiltinModule('node:http'), https: process.getBuiltinModule('node:https') });
}
