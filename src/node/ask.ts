import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AgentBudgets } from '../core/agent/budgets';
import { runAgent, type AgentEvent, type AgentOutcome } from '../core/agent/runAgent';
import { buildSystemPrompt } from '../core/agent/systemPrompt';
import { createProvider } from '../core/llm/createProvider';
import type { ProviderSettings } from '../core/llm/types';
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
}

/**
 * Runs one request through the agent loop against a vault folder, headless: the model named in
 * `options.provider`, the sandbox, `mem` and git — the same parts the plugin uses.
 *
 * @example
 * const outcome = await ask('/path/to/vault', 'Summarise my inbox', { provider: { kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' } });
 */
export async function ask(vault: string, request: string, options: AskOptions): Promise<AgentOutcome> {
  const opened = await openVault(vault, { watch: false });
  const sandbox = new Sandbox(() => createNodeSandboxWorker(), opened.mem);
  try {
    const agentsPath = join(vault, 'AGENTS.md');
    const notes = (await walkFiles(opened.port, '', (folder) => !folder.startsWith('.'))).filter((path) => path.endsWith('.md'));
    const systemPrompt = buildSystemPrompt({
      agentsMd: existsSync(agentsPath) ? await readFile(agentsPath, 'utf8') : null,
      customInstructions: options.instructions ?? null,
      runtime: { now: new Date(), vaultName: basename(vault), noteCount: notes.length },
    });
    return await runAgent(request, [], {
      provider: createProvider(options.provider, createNodeHttpTransport()),
      runner: sandbox,
      git: opened.git,
      writeSet: opened.writeSet,
      session: opened.session,
      systemPrompt,
    }, { runId: `run-${randomUUID().slice(0, 8)}`, budgets: options.budgets, signal: options.signal, onEvent: options.onEvent });
  } finally {
    sandbox.dispose();
    await opened.close();
  }
}
