// Loaded only on desktop, and only once the MCP server is turned on (`PluginMcpServer` imports it
// dynamically): the SDK and the HTTP server cost nothing at start-up or on mobile.
import type { AgentService } from '../../core/agent/AgentService';
import { createMcpServer } from '../../core/mcp/createMcpServer';
import { createVaultMcpBackend } from '../../core/mcp/createVaultMcpBackend';
import type { VaultStack } from '../../core/stack/VaultStack';
import type { KeyedMutex } from '../../core/util/KeyedMutex';
import { startMcpHttpServer, type McpHttpServerOptions, type RunningMcpHttpServer } from '../../desktop/mcpHttpServer';

export interface PluginMcpServerOptions {
  /** Node's `http`, from Electron's `window.require`. */
  http: McpHttpServerOptions['http'];
  /** The plugin's stack: the same `mem`, git queue, index and sandbox as the chat. */
  stack: VaultStack;
  /** The agent with the plugin's settings of the moment; null when none can be made. */
  agent: () => AgentService | null;
  /** The queue the chat's runs wait in too. */
  writes: KeyedMutex;
  /** Why writing calls must wait (a chat run's changes under review), or null. */
  writesPaused: () => Promise<string | null>;
  port: number;
  token: string;
  readOnly: boolean;
  version: string;
  /** Hides secrets (the API key) in the agent's errors. */
  redact: (text: string) => string;
  onError: (error: unknown) => void;
}

const NO_AGENT = 'ask needs a model, and none is set up in Obsidian: choose one in Settings → Recursa → Model. execute, search, read, remember and recall work without one.';

/** Serves the plugin's vault over Streamable HTTP at `http://127.0.0.1:<port>/mcp`. */
export async function startPluginMcpServer(options: PluginMcpServerOptions): Promise<RunningMcpHttpServer> {
  const { stack } = options;
  const sandbox = stack.sandbox;
  if (sandbox === null) throw new Error('the vault has no sandbox to run code in');
  const backend = createVaultMcpBackend(
    {
      sandbox,
      get mem() {
        return stack.mem;
      },
      writeSet: stack.writeSet,
      git: stack.git,
      session: stack.session,
      get agent() {
        return options.agent();
      },
    },
    { noAgentMessage: NO_AGENT, redact: options.redact, writes: options.writes, writesPaused: options.writesPaused },
  );
  return startMcpHttpServer({
    http: options.http,
    port: options.port,
    token: options.token,
    newServer: () => createMcpServer(backend, { readOnly: options.readOnly, version: options.version }),
    onError: options.onError,
  });
}
