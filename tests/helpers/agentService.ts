import { AgentService, type AgentServiceDeps } from '../../src/core/agent/AgentService';
import { ConversationStore } from '../../src/core/agent/ConversationStore';
import { createProvider } from '../../src/core/llm/createProvider';
import { Sandbox } from '../../src/core/sandbox/Sandbox';
import { createNodeHttpTransport } from '../../src/node/nodeHttpTransport';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault, type OpenedVault, type OpenVaultOptions } from '../../src/node/openVault';

/**
 * The agent as the plugin builds it, over a real vault folder and a real sandbox worker, talking
 * to the scripted model server at `serverUrl`; conversations are kept in the plugin's folder.
 * `extra` adds options (memory, protocol…) on top.
 */
export async function openAgentService(
  dir: string,
  serverUrl: string,
  options: { vault?: OpenVaultOptions; extra?: (opened: OpenedVault) => Partial<AgentServiceDeps> } = {},
): Promise<{ agent: AgentService; opened: OpenedVault; close: () => Promise<void> }> {
  const opened = await openVault(dir, { watch: false, ...options.vault });
  const sandbox = new Sandbox(() => createNodeSandboxWorker(), opened.mem);
  let counter = 0;
  const agent = new AgentService({
    provider: createProvider({ kind: 'openai', baseUrl: `${serverUrl}/v1`, model: 'scripted', maxRetries: 0 }, createNodeHttpTransport()),
    runner: sandbox,
    git: opened.git,
    writeSet: opened.writeSet,
    session: opened.session,
    conversations: new ConversationStore(opened.port, '.obsidian/plugins/recursa/conversations'),
    promptLayers: () => Promise.resolve({ runtime: { now: new Date(), vaultName: 'Test', noteCount: 0 } }),
    newId: () => `id${++counter}${Date.now().toString(36)}`,
    ...options.extra?.(opened),
  });
  return {
    agent,
    opened,
    close: async () => {
      sandbox.dispose();
      await opened.close();
    },
  };
}
