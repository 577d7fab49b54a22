import type { App } from 'obsidian';
import { AgentService } from '../core/agent/AgentService';
import type { AgentBudgets } from '../core/agent/budgets';
import { ConversationStore } from '../core/agent/ConversationStore';
import type { GitService } from '../core/git/GitService';
import { createProvider } from '../core/llm/createProvider';
import type { ProviderSettings } from '../core/llm/types';
import type { MemSession } from '../core/mem/MemContext';
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
}

export interface AgentSettings {
  provider: ProviderSettings;
  customInstructions?: string;
  budgets?: Partial<AgentBudgets>;
}

/** The agent inside Obsidian: the user's provider over Obsidian's HTTP, this vault, its sandbox and history. */
export function createAgent(parts: PluginAgentParts, settings: AgentSettings): AgentService {
  return new AgentService({
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
