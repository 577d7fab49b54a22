import type { App } from 'obsidian';
import { ActionJournal, actionLogPath, createActionRunner, DEFAULT_ACTION_LOG_SIZE } from '../core/agent/actions';
import { AgentService } from '../core/agent/AgentService';
import type { AgentBudgets } from '../core/agent/budgets';
import { ConversationStore } from '../core/agent/ConversationStore';
import type { GitService } from '../core/git/GitService';
import { createProvider } from '../core/llm/createProvider';
import type { ProviderSettings } from '../core/llm/types';
import type { MemInstance } from '../core/mem/createMem';
import type { MemSession } from '../core/mem/MemContext';
import { createAgentMemory } from '../core/memory/agentMemory';
import type { WriteSet } from '../core/mem/WriteSet';
import { readTextIfExists, type VaultPort } from '../core/ports';
import type { Sandbox } from '../core/sandbox/Sandbox';
import { createObsidianHttpTransport } from './obsidianHttpTransport';

export interface PluginAgentParts {
  app: App;
  port: VaultPort;
  sandbox: Sandbox;
  git: GitService | null;
  writeSet: WriteSet;
  session: MemSession;
  /** The plugin's own folder (`.obsidian/plugins/recursa`): conversations live there, outside the vault's history. */
  pluginDir: string;
  /**
   * The vault's `mem` and its context: with it the prompt carries memories and the working memory,
   * and the action protocol can run. Without it neither is available.
   */
  mem?: MemInstance;
}

export interface AgentSettings {
  provider: ProviderSettings;
  customInstructions?: string;
  budgets?: Partial<AgentBudgets>;
  /** Token budget of the memories placed in the prompt when a conversation starts. Default 1500. */
  memoryPromptTokens?: number;
  /** Actions the action log keeps (protocol `actions`). Default 1000. */
  actionLogSize?: number;
}

/** The agent inside Obsidian: the user's provider over Obsidian's HTTP, this vault, its sandbox and history. */
export function createAgent(parts: PluginAgentParts, settings: AgentSettings): AgentService {
  const mem = parts.mem;
  const journal = new ActionJournal(parts.port, actionLogPath(parts.pluginDir), settings.actionLogSize ?? DEFAULT_ACTION_LOG_SIZE);
  return new AgentService({
    protocol: mem === undefined ? 'code' : (settings.provider.protocol ?? 'code'),
    actions: mem === undefined ? undefined : createActionRunner(mem.mem, journal),
    memory: mem === undefined ? undefined : createAgentMemory(mem.mem, mem.context),
    memoryPromptTokens: settings.memoryPromptTokens,
    provider: createProvider(settings.provider, createObsidianHttpTransport()),
    runner: parts.sandbox,
    git: parts.git,
    writeSet: parts.writeSet,
    session: parts.session,
    conversations: new ConversationStore(parts.port, `${parts.pluginDir}/conversations`),
    budgets: settings.budgets,
    newId: () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    promptLayers: async () => ({
      agentsMd: await readTextIfExists(parts.port, 'AGENTS.md'),
      customInstructions: settings.customInstructions ?? null,
      runtime: { now: new Date(), vaultName: parts.app.vault.getName(), noteCount: parts.app.vault.getMarkdownFiles().length },
    }),
  });
}
