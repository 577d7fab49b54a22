import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentService } from '../helpers/agentService';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { useTempDir } from '../helpers/tempVault';

describe('conversations with the agent', () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  const service = (dir: string): ReturnType<typeof openAgentService> => openAgentService(dir, server.url);

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
