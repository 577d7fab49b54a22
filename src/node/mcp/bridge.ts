import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import http from 'node:http';
import https from 'node:https';
import type { Readable, Writable } from 'node:stream';

export interface BridgeOptions {
  /** The running server's endpoint, e.g. `http://127.0.0.1:8765/mcp`. */
  url: URL;
  token: string;
  /** One line for the user (standard error). */
  log: (line: string) => void;
  stdin?: Readable;
  stdout?: Writable;
}

/**
 * Speaks MCP over stdio to the client and forwards every message, unchanged, to a Streamable HTTP
 * server (the plugin's, inside Obsidian) and back. Resolves with the exit code: 0 when the client
 * closes standard input, 1 when the server cannot be reached (said in one line first).
 */
export async function runBridge(options: BridgeOptions): Promise<number> {
  const { url, token, log } = options;
  const down = `no MCP server answers at ${url.href}: start Obsidian with Recursa's MCP server turned on (Settings → Recursa → MCP server), or check the port.`;
  const status = await probe(url, token);
  if (status === null) {
    log(down);
    return 1;
  }
  if (status === 401 || status === 403) {
    log(`the MCP server at ${url.href} refused the token (HTTP ${status}): set RECURSA_MCP_TOKEN to the token shown in Recursa's MCP settings.`);
    return 1;
  }

  const remote = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const local = new StdioServerTransport(options.stdin, options.stdout);
  const stdin = options.stdin ?? process.stdin;
  /** Ids of the client's `initialize` requests: their answers carry the protocol version later requests must name. */
  const initializing = new Set<string | number>();

  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = (code: number): void => {
      if (finished) return;
      finished = true;
      stdin.off('end', onEnd);
      void Promise.allSettled([code === 0 ? remote.terminateSession() : Promise.resolve(), local.close()]).then(async () => {
        await remote.close().catch(() => undefined);
        resolve(code);
      });
    };
    const onEnd = (): void => finish(0);
    stdin.on('end', onEnd);

    local.onmessage = (message: JSONRPCMessage) => {
      if ('method' in message && message.method === 'initialize' && 'id' in message) initializing.add(message.id);
      remote.send(message).catch((error: unknown) => {
        if (isUnreachable(error)) {
          log(down);
          finish(1);
          return;
        }
        if ('id' in message && 'method' in message) {
          void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `The Recursa MCP server failed: ${error instanceof Error ? error.message : String(error)}` } });
        }
      });
    };
    remote.onmessage = (message: JSONRPCMessage) => {
      if ('id' in message && 'result' in message && initializing.delete(message.id)) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') remote.setProtocolVersion(version);
      }
      void local.send(message);
    };
    remote.onerror = (error) => {
      if (isUnreachable(error)) {
        log(down);
        finish(1);
      }
    };
    local.onclose = () => finish(0);
    void remote.start().then(() => local.start());
  });
}

/** The status of a GET to the endpoint (any answer means a server is there), or null when nothing answers. */
function probe(url: URL, token: string): Promise<number | null> {
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, timeout: 5000 }, (response) => {
      resolve(response.statusCode ?? null);
      response.destroy();
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', () => resolve(null));
    request.end();
  });
}

/** A failure to connect at all (nothing listens, the connection was refused or reset). */
function isUnreachable(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  return ['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'UND_ERR_SOCKET'].includes(code) || (error instanceof TypeError && error.message === 'fetch failed');
}
