import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentService } from '../../src/core/agent/AgentService';
import { ConversationStore } from '../../src/core/agent/ConversationStore';
import { createProvider } from '../../src/core/llm/createProvider';
import { Sandbox } from '../../src/core/sandbox/Sandbox';
import { createNodeHttpTransport } from '../../src/node/nodeHttpTransport';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault } from '../../src/node/openVault';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { useTempDir } from '../helpers/tempVault';

describe('conversations with the agent', () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  async function service(dir: string): Promise<{ agent: AgentService; close: () => Promise<void> }> {
    const opened = await openVault(dir, { watch: false });
    const sandbox = new Sandbox(() => createNodeSandboxWorker(), opened.mem);
    let counter = 0;
    const agent = new AgentService({
      provider: createProvider({ kind: 'openai', baseUrl: `${server.url}/v1`, model: 'scripted', maxRetries: 0 }, createNodeHttpTransport()),
      runner: sandbox,
      git: opened.git,
      writeSet: opened.writeSet,
      session: opened.session,
      conversations: new ConversationStore(opened.port, '.obsidian/plugins/recursa/conversations'),
      promptLayers: () => Promise.resolve({ runtime: { now: new Date(), vaultName: 'Test', noteCount: 0 } }),
      newId: () => `id${++counter}${Date.now().toString(36)}`,
    });
    return {
      agent,
      close: async () => {
        sandbox.dispose();
        await opened.close();
      },
    };
  }

  it('saves each conversation and resumes it after a restart, with the earlier turns sent again', async () => {
    server.script([{ text: '<think>Answering.</think><reply>Your favourite colour is noted: blue.</reply>' }]);
    const first = await service(temp.dir);
    const { conversation } = await first.agent.ask('My favourite colour is blue.');
    await first.close();
    expect(conversation).toMatchObject({ title: 'My favourite colour is blue.', messages: [{ role: 'user' }, { role: 'assistant' }] });

    server.script([{ text: '<think>Remembering.</think><reply>Blue.</reply>' }]);
    server.requests.length = 0;
    const second = await service(temp.dir);
    const resumed = await second.agent.ask('What is my favourite colour?', { conversationId: conversation.id });
    await second.close();
    expect(resumed.outcome.reply).toBe('Blue.');
    expect(resumed.conversation.messages).toHaveLength(4);
    expect(JSON.stringify(server.requests[0]?.body)).toContain('My favourite colour is blue.');
  });

  it('saves a conversation whose run failed, so the user can see and retry it', async () => {
    server.script([{ status: 500 }]);
    const opened = await service(temp.dir);
    const { conversation, outcome } = await opened.agent.ask('Hello?');
    await opened.close();
    expect(outcome.state).toBe('failed');
    expect(conversation.messages).toEqual([{ role: 'user', content: 'Hello?' }]);
  });
});
