import type { App } from 'obsidian';
import { createAgentService, type AgentServiceParts, type AgentSettings } from '../core/agent/createAgentService';
import type { AgentService } from '../core/agent/AgentService';
import { createObsidianHttpTransport } from './obsidianHttpTransport';

export type { AgentSettings } from '../core/agent/createAgentService';

export interface PluginAgentParts extends Omit<AgentServiceParts, 'dataDir' | 'transport' | 'vaultName' | 'noteCount'> {
  app: App;
  /** The plugin's own folder (`.obsidian/plugins/recursa`): conversations live there, outside the vault's history. */
  pluginDir: string;
}

/** The agent inside Obsidian: the user's provider over Obsidian's HTTP, this vault, its sandbox and history. */
export function createAgent(parts: PluginAgentParts, settings: AgentSettings): AgentService {
  const { app, pluginDir, ...rest } = parts;
  return createAgentService(
    {
      ...rest,
      dataDir: pluginDir,
      transport: createObsidianHttpTransport(),
      vaultName: app.vault.getName(),
      noteCount: () => app.vault.getMarkdownFiles().length,
    },
    settings,
  );
}
