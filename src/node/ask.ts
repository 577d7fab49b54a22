import { basename } from 'node:path';
import type { AgentBudgets } from '../core/agent/budgets';
import { createAgentService } from '../core/agent/createAgentService';
import type { MemOptions } from '../core/mem';
import type { VaultRegistry } from '../core/ports';
import type { AgentEvent, AgentOutcome } from '../core/agent/runAgent';
import type { ProviderSettings } from '../core/llm/types';
import { redactSecrets, secretsInUrl } from '../core/text/redactSecrets';
import { walkFiles } from '../core/ports';
import { Sandbox } from '../core/sandbox/Sandbox';
import { createNodeHttpTransport } from './nodeHttpTransport';
import { createNodeSandboxWorker } from './nodeSandboxWorker';
import { openVault } from './openVault';

export interface AskOptions {
  provider: ProviderSettings;
  budgets?: Partial<AgentBudgets>;
  /** The user's custom instructions (a layer of the system prompt). */
  instructions?: string;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Memory settings of `mem`: `memoryFolder`, `workingMemoryNote` and the working-memory limits. */
  memory?: Partial<Pick<MemOptions, 'memoryFolder' | 'workingMemoryNote' | 'workingMemoryCharLimit' | 'workingMemoryChildLimit'>>;
  /** Token budget of the memories placed in the prompt. Default 1500; 0 leaves them out. */
  memoryPromptTokens?: number;
  /** Actions the action log keeps (protocol `actions`). Default 1000. */
  actionLogSize?: number;
  /** The registry of vaults on this device, for `recall({ scope: 'all' })`. Default: none. */
  vaultRegistry?: VaultRegistry | null;
}

/** Where the command line keeps what the plugin keeps in its folder: the same folder inside the vault. */
export function dataDirOf(configDir: string): string {
  return `${configDir}/plugins/recursa`;
}

/**
 * Runs one request through the agent loop against a vault folder, headless: the model named in
 * `options.provider`, the sandbox, `mem` and git — the same parts the plugin uses.
 *
 * @example
 * const outcome = await ask('/path/to/vault', 'Summarise my inbox', { provider: { kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' } });
 */
export async function ask(vault: string, request: string, options: AskOptions): Promise<AgentOutcome> {
  const opened = await openVault(vault, { watch: false, ...options.memory, vaultRegistry: options.vaultRegistry ?? null });
  const sandbox = new Sandbox(() => createNodeSandboxWorker(), opened.mem, { hostPaths: [opened.port.root] });
  try {
    const agent = createAgentService(
      {
        port: opened.port,
        sandbox,
        git: opened.git,
        writeSet: opened.writeSet,
        session: opened.session,
        mem: { mem: opened.mem, context: opened.context },
        dataDir: dataDirOf(opened.context.options.configDir),
        transport: createNodeHttpTransport(),
        vaultName: basename(opened.port.root),
        noteCount: async () => (await walkFiles(opened.port, '', (folder) => !folder.startsWith('.'))).filter((path) => path.endsWith('.md')).length,
      },
      {
        provider: options.provider,
        customInstructions: options.instructions,
        budgets: options.budgets,
        memoryPromptTokens: options.memoryPromptTokens,
        actionLogSize: options.actionLogSize,
      },
    );
    const { outcome } = await agent.ask(request, { signal: options.signal, onEvent: options.onEvent });
    // The provider's errors carry no secrets already; this keeps any other path from printing them.
    const secrets = [options.provider.apiKey, ...secretsInUrl(options.provider.baseUrl)];
    return outcome.error === null ? outcome : { ...outcome, error: redactSecrets(outcome.error, secrets) };
  } finally {
    sandbox.dispose();
    await opened.close();
  }
}
