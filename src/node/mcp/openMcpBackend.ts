import type { AgentSettings } from '../../core/agent/createAgentService';
import { createVaultMcpBackend } from '../../core/mcp/createVaultMcpBackend';
import type { McpBackend } from '../../core/mcp/McpBackend';
import type { VaultRegistry } from '../../core/ports';
import { redactSecrets, secretsInUrl } from '../../core/text/redactSecrets';
import { openVault, type OpenVaultOptions } from '../openVault';

export interface McpBackendOptions {
  /** The agent's settings for `ask`; without them `ask` answers with `noAgentMessage`. */
  agent?: AgentSettings | null;
  /** What `ask` says when there is no agent. */
  noAgentMessage?: string;
  /** The registry of vaults on this device, for `recall` with `scope: "global"`. Default: none. */
  vaultRegistry?: VaultRegistry | null;
  /** Memory settings (`memoryFolder`…) and the rest of `openVault`'s options. */
  vault?: Omit<OpenVaultOptions, 'vaultRegistry'>;
}

export interface OpenMcpBackend {
  backend: McpBackend;
  /** Waits for the work in flight to settle (the first snapshot, the index), then closes the vault. */
  close: () => Promise<void>;
}

/**
 * Opens the vault once and keeps it warm for the whole MCP session: `mem`, the sandbox's worker,
 * git, the index and the agent stay open between requests.
 *
 * The folder is watched (`watch: true`), so edits made meanwhile in Obsidian or elsewhere reach the
 * index and the change tracking of a server that runs for hours.
 */
export async function openMcpBackend(dir: string, options: McpBackendOptions = {}): Promise<OpenMcpBackend> {
  const opened = await openVault(dir, { watch: true, ...options.vault, vaultRegistry: options.vaultRegistry ?? null });
  const settings = options.agent ?? null;
  const secrets = settings === null ? [] : [settings.provider.apiKey, ...secretsInUrl(settings.provider.baseUrl)];
  const backend = createVaultMcpBackend(
    {
      sandbox: opened.sandbox,
      get mem() {
        return opened.mem;
      },
      writeSet: opened.writeSet,
      git: opened.git,
      session: opened.session,
      agent: settings === null ? null : opened.agent(settings),
    },
    { redact: (text) => redactSecrets(text, secrets), ...(options.noAgentMessage === undefined ? {} : { noAgentMessage: options.noAgentMessage }) },
  );
  return { backend, close: () => opened.close() };
}
