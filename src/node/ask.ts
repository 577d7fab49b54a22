import type { AgentBudgets } from '../core/agent/budgets';
import type { MemOptions } from '../core/mem';
import type { VaultRegistry } from '../core/ports';
import type { AgentEvent, AgentOutcome } from '../core/agent/runAgent';
import type { ProviderSettings } from '../core/llm/types';
import { redactSecrets, secretsInUrl } from '../core/text/redactSecrets';
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

/**
 * Runs one request through the agent loop against a vault folder, headless: the model named in
 * `options.provider`, the sandbox, `mem` and git — the same parts the plugin uses.
 *
 * @example
 * const outcome = await ask('/path/to/vault', 'Summarise my inbox', { provider: { kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' } });
 */
export async function ask(vault: string, request: string, options: AskOptions): Promise<AgentOutcome> {
  const opened = await openVault(vault, { watch: false, ...options.memory, vaultRegistry: options.vaultRegistry ?? null });
  try {
    const agent = opened.agent({
      provider: options.provider,
      customInstructions: options.instructions,
      budgets: options.budgets,
      memoryPromptTokens: options.memoryPromptTokens,
      actionLogSize: options.actionLogSize,
    });
    const { outcome } = await agent.ask(request, { signal: options.signal, onEvent: options.onEvent });
    // The provider's errors carry no secrets already; this keeps any other path from printing them.
    const secrets = [options.provider.apiKey, ...secretsInUrl(options.provider.baseUrl)];
    return outcome.error === null ? outcome : { ...outcome, error: redactSecrets(outcome.error, secrets) };
  } finally {
    await opened.close();
  }
}
