// Types only from Node: both the command line and the Obsidian plugin on desktop use this file, and
// the plugin's bundle must not import Node builtins (it also runs on mobile). The caller hands over
// the `http` module it loaded. The SDK's web-standard transport is used (not its Node wrapper,
// which imports `node:http2` and `node:stream` through `@hono/node-server`); `toWebRequest` and
// `sendWebResponse` below are the small bridge between the two.
import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkAccess } from './mcpHttpAccess';

export interface McpHttpServerOptions {
  /** Node's `http` module (the plugin loads it at run time on desktop). */
  http: Pick<typeof http, 'createServer'>;
  /** The port on 127.0.0.1; 0 takes any free one (see `port` of the result). */
  port: number;
  /** The bearer token every request must carry. */
  token: string;
  /** A new MCP server for each session (they may share one backend). */
  newServer: () => McpServer;
  /** Told about failures no client can be told about (a broken connection, say). Default: ignored. */
  onError?: (error: unknown) => void;
}

export interface RunningMcpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  port: number;
  /** Sessions open now. */
  sessionCount: () => number;
  /** Ends every session and stops listening. */
  close: () => Promise<void>;
}

/** The one address the server listens on: this machine only. */
export const MCP_HOST = '127.0.0.1';
/** The endpoint's path. */
export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

/**
 * Serves MCP over Streamable HTTP at `http://127.0.0.1:<port>/mcp`, with stateful sessions
 * (`Mcp-Session-Id`), so several clients can be connected at once. Every request must come from
 * this machine's origins (`Origin`, when present, and `Host`; else 403) and carry
 * `Authorization: Bearer <token>` (else 401).
 *
 * @example
 * const running = await startMcpHttpServer({ http, port: 8765, token, newServer: () => createMcpServer(backend, { version }) });
 */
export async function startMcpHttpServer(options: McpHttpServerOptions): Promise<RunningMcpHttpServer> {
  const sessions = new Map<string, Session>();
  const onError = options.onError ?? (() => undefined);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.socket.setNoDelay(true);
    const url = new URL(req.url ?? '/', `http://${MCP_HOST}`);
    if (url.pathname !== MCP_PATH) return sendError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    const refusal = await checkAccess({ origin: header(req, 'origin'), host: header(req, 'host'), authorization: header(req, 'authorization') }, options.token);
    if (refusal !== null) return sendError(res, refusal.status, refusal.message, refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') return sendError(res, 405, 'Use POST, GET or DELETE.', { allow: 'POST, GET, DELETE' });

    let body: unknown;
    if (req.method === 'POST') {
      const text = await readBody(req);
      if (text === null) return sendError(res, 413, `The request is over ${MAX_BODY_BYTES / 1024 / 1024} MiB.`);
      try {
        body = JSON.parse(text);
      } catch {
        return sendError(res, 400, 'The body is not JSON.', {}, -32700);
      }
    }
    const request = toWebRequest(req, url);
    const sessionId = header(req, 'mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (session === undefined) return sendError(res, 404, 'Session not found (the server restarted, or it was closed): start a new session with initialize.');
      return sendWebResponse(res, await session.transport.handleRequest(request, { parsedBody: body }));
    }
    const initializing = req.method === 'POST' && (Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body));
    if (!initializing) return sendError(res, 400, 'No session: send initialize first, then the Mcp-Session-Id header it returns with every request.');

    const server = options.newServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return sendWebResponse(res, await transport.handleRequest(request, { parsedBody: body }));
  };

  const httpServer = options.http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) sendError(res, 500, `The server failed: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, MCP_HOST, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  httpServer.on('error', onError);
  const address = httpServer.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${MCP_HOST}:${port}${MCP_PATH}`,
    port,
    sessionCount: () => sessions.size,
    close: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.server.close().catch(onError)));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads the body, or null once it is over the limit. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** The request as the web-standard transport reads it: method, URL and headers (the body goes as `parsedBody`). */
function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(url.href, { method: req.method ?? 'GET', headers });
}

/** Writes a web `Response` to Node's response, streaming its body (SSE) as it comes. */
async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } finally {
    res.end();
  }
}

function sendError(res: ServerResponse, status: number, message: string, extraHeaders: Record<string, string> = {}, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extraHeaders });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
