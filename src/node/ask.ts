import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ActionJournal, actionLogPath, createActionRunner, DEFAULT_ACTION_LOG_SIZE } from '../core/agent/actions';
import type { AgentBudgets } from '../core/agent/budgets';
import type { MemOptions } from '../core/mem';
import { createAgentMemory, DEFAULT_MEMORY_PROMPT_TOKENS } from '../core/memory/agentMemory';
import type { VaultRegistry } from '../core/ports';
import { runAgent, type AgentEvent, type AgentOutcome } from '../core/agent/runAgent';
import { buildSystemPrompt } from '../core/agent/systemPrompt';
import { createProvider } from '../core/llm/createProvider';
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
    const agentsPath = join(vault, 'AGENTS.md');
    const notes = (await walkFiles(opened.port, '', (folder) => !folder.startsWith('.'))).filter((path) => path.endsWith('.md'));
    const memory = createAgentMemory(opened.mem, opened.context);
    const protocol = options.provider.protocol ?? 'code';
    const systemPrompt = buildSystemPrompt({
      agentsMd: existsSync(agentsPath) ? await readFile(agentsPath, 'utf8') : null,
      customInstructions: options.instructions ?? null,
      runtime: { now: new Date(), vaultName: basename(vault), noteCount: notes.length },
      protocol,
      memories: await memory.preamble(request, options.memoryPromptTokens ?? DEFAULT_MEMORY_PROMPT_TOKENS).catch(() => null),
    });
    const journal = new ActionJournal(opened.port, actionLogPath(dataDirOf(opened.context.options.configDir)), options.actionLogSize ?? DEFAULT_ACTION_LOG_SIZE);
    const outcome = await runAgent(request, [], {
      provider: createProvider(options.provider, createNodeHttpTransport()),
      runner: sandbox,
      git: opened.git,
      writeSet: opened.writeSet,
      session: opened.session,
      systemPrompt,
      protocol,
      actions: createActionRunner(opened.mem, journal),
      turnContext: () => memory.workingMemory(),
    }, { runId: `run-${randomUUID().slice(0, 8)}`, budgets: options.budgets, signal: options.signal, onEvent: options.onEvent });
    // The provider's errors carry no secrets already; this keeps any other path from printing them.
    const secrets = [options.provider.apiKey, ...secretsInUrl(options.provider.baseUrl)];
    return outcome.error === null ? outcome : { ...outcome, error: redactSecrets(outcome.error, secrets) };
  } finally {
    sandbox.dispose();
    await opened.close();
  }
}
