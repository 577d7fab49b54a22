import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { isRecursaError } from '../core/errors';
import { redactSecrets, secretsInUrl } from '../core/text/redactSecrets';
import { VERSION } from './cliHelp';
import { modelRequested, providerFromFlags } from './providerFlags';
// The server's modules (the SDK, the vault, the sandbox) are imported once the arguments are
// accepted, so a usage error or --help answers at once.

const SYNOPSIS = [
  'recursa mcp --vault DIR [--provider openai|anthropic] [--base-url URL] [--model M] [--protocol code|actions] [--read-only]',
  'recursa mcp --vault DIR --http --port N [--read-only] [model flags as above]',
  'recursa mcp --bridge URL',
];

/** `recursa help mcp`. */
export const MCP_HELP = `Usage: ${SYNOPSIS.join('\n       ')}

Serves the vault to MCP clients (Claude Code, Claude Desktop, Cursor, any MCP client). The vault is
opened once and kept warm while the server runs. Tools: ask, execute, remember, recall, search,
read (with --read-only: recall, search, read); resource: recursa://mem-reference (the mem API).
Commits made for a client carry the trailers Recursa-Run and Recursa-Client: <client name>.

  stdio (default)  MCP on standard input and output; the API key of the model comes from
                   RECURSA_API_KEY; log lines go to standard error.
  --http           Streamable HTTP at http://127.0.0.1:N/mcp (this machine only). Every request
                   needs "Authorization: Bearer <token>" with the token from RECURSA_MCP_TOKEN (at
                   least 16 characters; e.g. openssl rand -hex 32); pages from other origins get 403.
  --bridge URL     stdio to the client, forwarded to a running HTTP server (Obsidian's, with the
                   plugin's MCP server on), with the token from RECURSA_MCP_TOKEN.
Without a model (--model or RECURSA_MODEL), every tool but ask works.

  --vault DIR        the vault folder
  --provider NAME    openai (any OpenAI-compatible server) or anthropic; default openai
  --base-url URL     default https://api.openai.com/v1 or https://api.anthropic.com
  --model M          the model ask uses
  --protocol P       code (TypeScript, the default) or actions (XML actions, for small models)
  --memory-folder F  the memory folder (default Memories/)
  --read-only        offer only recall, search and read
  --http             serve Streamable HTTP instead of stdio
  --port N           the port for --http (0: any free port, told on standard error)
  --bridge URL       forward stdio to the server at URL
  -h, --help         this text

Exit code: 0 when the client closes the connection (or on Ctrl-C), 1 when the server could not
start or the bridge cannot reach its server (one JSON error object on standard error — standard
output belongs to the protocol), 2 for bad arguments.
`;

const USAGE_HINT = `Usage: ${SYNOPSIS.join('\n       ')}\nRun "recursa help mcp" for more.`;

/**
 * `recursa mcp`: serves MCP over stdio or Streamable HTTP, or bridges stdio to a running HTTP
 * server. Resolves with the exit code once the server has stopped.
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  const env = process.env;
  const secrets: string[] = [env.RECURSA_API_KEY ?? '', env.RECURSA_MCP_TOKEN ?? '', ...secretsInUrl(env.RECURSA_BASE_URL)];
  const log = (line: string): void => void process.stderr.write(redactSecrets(`${line}\n`, secrets));
  const usageError = (message: string): number => {
    log(`recursa: ${message}\n${USAGE_HINT}`);
    return 2;
  };
  const failure = (error: unknown): number => {
    const code = isRecursaError(error) ? error.code : typeof (error as { code?: unknown } | null)?.code === 'string' ? (error as { code: string }).code : 'Failed';
    log(JSON.stringify({ ok: false, error: { code, message: error instanceof Error ? error.message : String(error) } }));
    return 1;
  };

  let values;
  try {
    ({ values } = parseArgs({
      args: argv[0] === 'mcp' ? argv.slice(1) : argv,
      allowPositionals: false,
      options: {
        vault: { type: 'string' },
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        model: { type: 'string' },
        protocol: { type: 'string' },
        'memory-folder': { type: 'string' },
        'read-only': { type: 'boolean' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        bridge: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  secrets.push(...secretsInUrl(values['base-url']), ...secretsInUrl(values.bridge));
  if (values.help === true) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  const token = env.RECURSA_MCP_TOKEN ?? '';

  if (values.bridge !== undefined) {
    const others = (['vault', 'provider', 'base-url', 'model', 'protocol', 'memory-folder', 'read-only', 'http', 'port'] as const).filter((name) => values[name] !== undefined);
    if (others.length > 0) return usageError(`--bridge forwards to a server that has its own settings: leave out ${others.map((name) => `--${name}`).join(', ')}`);
    let url: URL;
    try {
      url = new URL(values.bridge);
    } catch {
      return usageError(`--bridge wants the server's URL, e.g. http://127.0.0.1:8765/mcp; got "${values.bridge}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return usageError(`--bridge wants an http:// URL; got "${values.bridge}"`);
    if (token === '') return usageError('--bridge needs the server\'s token in RECURSA_MCP_TOKEN');
    const { runBridge } = await import('./mcp/bridge');
    return runBridge({ url, token, log: (line) => log(`recursa: ${line}`) });
  }

  if (values.vault === undefined) return usageError('--vault DIR is required');
  if (values.port !== undefined && values.http !== true) return usageError('--port belongs to --http');
  let port = 0;
  if (values.http === true) {
    if (values.port === undefined) return usageError('--http needs --port N');
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) return usageError('--port wants a whole number from 0 to 65535');
    if (token === '') return usageError('--http needs a token in RECURSA_MCP_TOKEN (every request must send it as "Authorization: Bearer <token>"); make one with: openssl rand -hex 32');
    if (token.length < 16) return usageError('RECURSA_MCP_TOKEN is too short: use at least 16 characters (openssl rand -hex 32 makes a good one)');
  }
  let agent = null;
  if (modelRequested(values, env)) {
    const parsed = providerFromFlags(values, env);
    if (!parsed.ok) return usageError(parsed.message);
    agent = { provider: parsed.provider };
  }
  const readOnly = values['read-only'] === true;

  let opened;
  try {
    const { openMcpBackend } = await import('./mcp/openMcpBackend');
    const { createNodeVaultRegistry } = await import('./nodeVaultRegistry');
    opened = await openMcpBackend(values.vault, {
      agent,
      noAgentMessage: 'ask needs a model, and this server was started without one: add --model M (and --base-url URL, --provider, the key in RECURSA_API_KEY) to the server\'s command. execute, search, read, remember and recall work without one.',
      vaultRegistry: createNodeVaultRegistry({ home: env.RECURSA_HOME ?? homedir() }),
      vault: values['memory-folder'] === undefined ? {} : { memoryFolder: values['memory-folder'] },
    });
  } catch (error) {
    return failure(error);
  }
  const { backend } = opened;
  const { createMcpServer } = await import('../core/mcp/createMcpServer');
  const newServer = () => createMcpServer(backend, { readOnly, version: VERSION });
  const mode = readOnly ? ' (read-only)' : '';

  let stop: () => Promise<void>;
  const stopped = new Promise<void>((resolve) => {
    stop = async () => resolve();
  });
  const signals = (): void => {
    void stop();
  };
  process.once('SIGINT', signals);
  process.once('SIGTERM', signals);
  try {
    if (values.http === true) {
      const http = await import('node:http');
      const { startMcpHttpServer } = await import('../desktop/mcpHttpServer');
      let running;
      try {
        running = await startMcpHttpServer({ http, port, token, newServer, onError: (error) => log(`recursa: ${error instanceof Error ? error.message : String(error)}`) });
      } catch (error) {
        return failure(error);
      }
      log(`recursa: serving MCP for ${values.vault}${mode} at ${running.url}`);
      await stopped;
      await running.close();
    } else {
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const server = newServer();
      const transport = new StdioServerTransport();
      transport.onclose = signals;
      process.stdin.once('end', signals);
      await server.connect(transport);
      log(`recursa: serving MCP over stdio for ${values.vault}${mode}`);
      await stopped;
      await server.close().catch(() => undefined);
    }
    return 0;
  } finally {
    process.off('SIGINT', signals);
    process.off('SIGTERM', signals);
    await opened.close().catch(() => undefined);
  }
}
