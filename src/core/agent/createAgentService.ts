import type { GitService } from '../git/GitService';
import { createProvider } from '../llm/createProvider';
import type { ProviderSettings } from '../llm/types';
import type { MemInstance } from '../mem/createMem';
import type { MemSession } from '../mem/MemContext';
import type { WriteSet } from '../mem/WriteSet';
import { createAgentMemory } from '../memory/agentMemory';
import type { HttpTransport, VaultPort } from '../ports';
import { readTextIfExists } from '../ports';
import type { Sandbox } from '../sandbox/Sandbox';
import { ActionJournal, actionLogPath, createActionRunner, DEFAULT_ACTION_LOG_SIZE } from './actions';
import { AgentService } from './AgentService';
import type { AgentBudgets } from './budgets';
import { ConversationStore } from './ConversationStore';

/** What the agent works with, whatever runs it (the plugin, the command line, an MCP server). */
export interface AgentServiceParts {
  port: VaultPort;
  sandbox: Sandbox;
  git: GitService | null;
  writeSet: WriteSet;
  session: MemSession;
  /** Recursa's own folder in the config folder (`.obsidian/plugins/recursa`): conversations and the action log live there. */
  dataDir: string;
  /** How the provider is reached: Obsidian's `requestUrl` or Node's `http`. */
  transport: HttpTransport;
  /** The vault's name and its number of notes, for the prompt's runtime context. */
  vaultName: string;
  noteCount: () => number | Promise<number>;
  /**
   * The vault's `mem` and its context: with it the prompt carries memories and the working memory,
   * and the action protocol can run. Without it neither is available.
   */
  mem?: Pick<MemInstance, 'mem' | 'context'>;
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

/**
 * The agent over one vault: the user's provider, the sandbox, `mem`, history and memory, with
 * conversations saved in Recursa's folder. The one place the agent is put together; the plugin
 * and the command line differ only in the parts they hand over.
 */
export function createAgentService(parts: AgentServiceParts, settings: AgentSettings): AgentService {
  const { mem } = parts;
  const journal = new ActionJournal(parts.port, actionLogPath(parts.dataDir), settings.actionLogSize ?? DEFAULT_ACTION_LOG_SIZE);
  return new AgentService({
    protocol: mem === undefined ? 'code' : (settings.provider.protocol ?? 'code'),
    actions: mem === undefined ? undefined : createActionRunner(mem.mem, journal),
    memory: mem === undefined ? undefined : createAgentMemory(mem.mem, mem.context),
    memoryPromptTokens: settings.memoryPromptTokens,
    provider: createProvider(settings.provider, parts.transport),
    runner: parts.sandbox,
    git: parts.git,
    writeSet: parts.writeSet,
    session: parts.session,
    conversations: new ConversationStore(parts.port, `${parts.dataDir}/conversations`),
    budgets: settings.budgets,
    newId: () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    promptLayers: async () => ({
      agentsMd: await readTextIfExists(parts.port, 'AGENTS.md'),
      customInstructions: settings.customInstructions ?? null,
      runtime: { now: new Date(), vaultName: parts.vaultName, noteCount: await parts.noteCount() },
    }),
  });
}
