import { Platform } from 'obsidian';
import type { AgentService } from '../../core/agent/AgentService';
import { WRITES_KEY } from '../../core/mcp/createVaultMcpBackend';
import type { VaultStack } from '../../core/stack/VaultStack';
import { KeyedMutex } from '../../core/util/KeyedMutex';
import type { RunningMcpHttpServer } from '../../desktop/mcpHttpServer';
import { desktopRequire } from '../desktopRequire';
import type { McpSettings, SecretStore } from '../settings/pluginSettings';
import { mcpToken, regenerateMcpToken } from './mcpToken';
import type { PluginMcpServerOptions } from './startPluginMcpServer';

/** What the settings tab shows about the server. */
export type McpServerStatus =
  | { state: 'off' }
  /** Mobile, or a desktop without Node's `http`: the feature is absent. */
  | { state: 'unavailable' }
  /** On, waiting for the vault to open. */
  | { state: 'waiting' }
  | { state: 'starting'; port: number }
  | { state: 'running'; url: string; port: number; readOnly: boolean; sessions: number }
  | { state: 'failed'; port: number; message: string };

export interface PluginMcpServerHost {
  /** The plugin's stack; null until the vault is open. */
  stack: () => VaultStack | null;
  /** The agent with the settings of the moment (not guarded by `guardAgent`: the server queues its own calls). */
  agent: () => AgentService | null;
  /** Why writing calls must wait (a chat run's changes under review), or null. Default: never. */
  writesPaused?: () => Promise<string | null>;
  /** Where the token is kept (`app.secretStorage`). */
  secrets: SecretStore;
  version: string;
  /** Secrets to hide in the agent's errors (the API key of the moment). */
  redact: (text: string) => string;
  /** Told about failures while serving (a broken connection, say); never gets the token. */
  onError?: (error: unknown) => void;
}

interface Running {
  server: RunningMcpHttpServer;
  port: number;
  readOnly: boolean;
  token: string;
}

/**
 * The MCP server inside Obsidian, on desktop: started and stopped as the setting says, on the
 * same stack, git queue and index as the chat. Its code (the SDK, the HTTP server) is loaded
 * the first time it starts, never at start-up or on mobile.
 *
 * The chat's runs and the server's calls that write take turns on one queue (`guardAgent`), so
 * each commit holds exactly one run's work and names the right run and client.
 */
export class PluginMcpServer {
  /** Shared with the chat (see `guardAgent`). */
  readonly writes = new KeyedMutex();
  private running: Running | null = null;
  private current: McpServerStatus = { state: 'off' };
  private settings: McpSettings | null = null;
  private work: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private stopped = false;

  constructor(private readonly host: PluginMcpServerHost) {}

  /** Whether this Obsidian can serve MCP at all (the desktop app, with Node's `http`). */
  static available(): boolean {
    return Platform.isDesktopApp && desktopRequire() !== null;
  }

  status(): McpServerStatus {
    if (this.current.state === 'running' && this.running !== null) return { ...this.current, sessions: this.running.server.sessionCount() };
    return this.current;
  }

  /** Calls `listener` whenever the status changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The token clients must send (made and kept in secret storage on first use). */
  token(): string {
    return mcpToken(this.host.secrets);
  }

  /** A new token; the running server is restarted with it, so the old one stops working at once. */
  async regenerateToken(): Promise<string> {
    const token = regenerateMcpToken(this.host.secrets);
    await this.refresh();
    return token;
  }

  /** Starts, stops or restarts the server to match `settings` (and the vault being open). */
  apply(settings: McpSettings): Promise<void> {
    this.settings = settings;
    return this.refresh();
  }

  /** Stops for good (the plugin unloads). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.refresh();
  }

  /** The chat's agent, whose runs wait for the server's calls that write (and the other way round). */
  guardAgent(agent: AgentService | null): AgentService | null {
    if (agent === null) return null;
    const guarded = Object.create(agent) as AgentService;
    guarded.ask = (request, options) => this.writes.run(WRITES_KEY, () => agent.ask(request, options));
    return guarded;
  }

  private refresh(): Promise<void> {
    this.work = this.work.then(() => this.reconcile()).catch((error: unknown) => this.host.onError?.(error));
    return this.work;
  }

  private async reconcile(): Promise<void> {
    const settings = this.settings;
    const wanted = !this.stopped && settings !== null && settings.enabled;
    if (!wanted) {
      await this.close();
      this.set({ state: 'off' });
      return;
    }
    if (!PluginMcpServer.available()) {
      this.set({ state: 'unavailable' });
      return;
    }
    const stack = this.host.stack();
    if (stack === null) {
      await this.close();
      this.set({ state: 'waiting' });
      return;
    }
    const token = this.token();
    const same = this.running !== null && this.running.port === settings.port && this.running.readOnly === settings.readOnly && this.running.token === token;
    if (same) return;
    await this.close();
    this.set({ state: 'starting', port: settings.port });
    try {
      const http = (desktopRequire() as (id: string) => unknown)('http') as PluginMcpServerOptions['http'];
      const { startPluginMcpServer } = await import('./startPluginMcpServer');
      const server = await startPluginMcpServer({
        http,
        stack,
        agent: this.host.agent,
        writes: this.writes,
        writesPaused: this.host.writesPaused ?? (() => Promise.resolve(null)),
        port: settings.port,
        token,
        readOnly: settings.readOnly,
        version: this.host.version,
        redact: this.host.redact,
        onError: (error) => this.host.onError?.(error),
      });
      this.running = { server, port: settings.port, readOnly: settings.readOnly, token };
      this.set({ state: 'running', url: server.url, port: settings.port, readOnly: settings.readOnly, sessions: 0 });
    } catch (error) {
      this.set({ state: 'failed', port: settings.port, message: startFailure(error, settings.port) });
    }
  }

  private async close(): Promise<void> {
    const running = this.running;
    this.running = null;
    await running?.server.close().catch((error: unknown) => this.host.onError?.(error));
  }

  private set(status: McpServerStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener();
  }
}

/** Why the server did not start, and what to do; never the token. */
function startFailure(error: unknown, port: number): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is taken by another program. Choose another port.`;
  if (code === 'EACCES') return `Port ${port} is not allowed here. Choose a port above 1024.`;
  return `The server could not start: ${error instanceof Error ? error.message : String(error)}`;
}
