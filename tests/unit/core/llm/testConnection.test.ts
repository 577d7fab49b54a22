import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../../../src/core/llm/testConnection';
import type { ProviderSettings } from '../../../../src/core/llm/types';
import { createNodeHttpTransport } from '../../../../src/node/nodeHttpTransport';
import { closedPortUrl, startModelServer, withoutStreaming, type ModelServer } from '../../../helpers/modelServer';

describe('testConnection', () => {
  let server: ModelServer;
  const transport = createNodeHttpTransport();
  const openai = (): ProviderSettings => ({ kind: 'openai', baseUrl: `${server.url}/v1`, model: 'test-model', apiKey: 'sk-test' });
  const anthropic = (): ProviderSettings => ({ kind: 'anthropic', baseUrl: server.url, model: 'claude-test', apiKey: 'sk-ant-test' });

  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    server.script([]);
    server.requests.length = 0;
  });

  describe('when the provider answers', () => {
    it('is ok, with the model and its reply, after one tiny streamed request', async () => {
      server.script([{ text: 'OK', chunkSizes: [1] }]);
      const result = await testConnection(openai(), transport);
      expect(result).toMatchObject({ ok: true, model: 'test-model', reply: 'OK' });
      expect(result.ok && result.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({
        path: '/v1/chat/completions',
        headers: { authorization: 'Bearer sk-test' },
        body: { model: 'test-model', stream: true, messages: [{ role: 'user', content: 'Reply with the single word OK.' }] },
      });
      // As the agent's own requests: no parameter a reasoning model would refuse.
      expect(server.requests[0]?.body).not.toHaveProperty('max_tokens');
      expect(server.requests[0]?.body).not.toHaveProperty('temperature');
    });

    it('works for Anthropic and without streaming (Obsidian\'s requestUrl)', async () => {
      server.script([{ text: 'OK.' }]);
      expect(await testConnection(anthropic(), withoutStreaming(transport))).toMatchObject({ ok: true, model: 'claude-test', reply: 'OK.' });
      expect(server.requests[0]).toMatchObject({ path: '/v1/messages', headers: { 'x-api-key': 'sk-ant-test' }, body: { stream: false, max_tokens: 16 } });
    });

    it('shortens a long reply', async () => {
      server.script([{ text: `${'word '.repeat(100)}` }]);
      const result = await testConnection(openai(), transport);
      expect(result.ok && result.reply.length).toBe(80);
    });
  });

  describe('when the key is refused', () => {
    it('fails with auth and says to check the key', async () => {
      server.script([{ status: 401 }]);
      const result = await testConnection(openai(), transport);
      expect(result).toMatchObject({ ok: false, kind: 'auth', status: 401 });
      expect(!result.ok && result.message).toContain('Check the key');
    });

    it('says a key is needed when none was given', async () => {
      server.script([{ status: 401 }]);
      const result = await testConnection({ ...anthropic(), apiKey: undefined }, transport);
      expect(result).toMatchObject({ ok: false, kind: 'auth', status: 401 });
      expect(!result.ok && result.message).toContain('requires an API key');
      expect(server.requests[0]?.headers).not.toHaveProperty('x-api-key');
    });
  });

  describe('when the model does not exist', () => {
    it('fails with model-not-found and names the model', async () => {
      server.script([{ status: 404 }]);
      const result = await testConnection(openai(), transport);
      expect(result).toMatchObject({ ok: false, kind: 'model-not-found', status: 404 });
      expect(!result.ok && result.message).toContain('"test-model"');
    });
  });

  describe('when nothing listens at the base URL', () => {
    it('fails with unreachable and names the URL', async () => {
      const url = await closedPortUrl();
      const result = await testConnection({ kind: 'openai', baseUrl: `${url}/v1`, model: 'm' }, transport);
      expect(result).toMatchObject({ ok: false, kind: 'unreachable' });
      expect(!result.ok && result.message).toContain(url);
    });
  });

  describe('when the server fails or hangs', () => {
    it('does not retry a server error', async () => {
      server.script([{ status: 500 }, { text: 'OK' }]);
      expect(await testConnection(openai(), transport)).toMatchObject({ ok: false, kind: 'server', status: 500 });
      expect(server.requests).toHaveLength(1);
    });

    it('gives up after the timeout', async () => {
      server.script([{ hang: true }]);
      const begun = Date.now();
      expect(await testConnection(openai(), transport, { timeoutMs: 300 })).toMatchObject({ ok: false, kind: 'timeout' });
      expect(Date.now() - begun).toBeLessThan(5_000);
    });

    it('stops when cancelled', async () => {
      server.script([{ hang: true }]);
      const controller = new AbortController();
      const pending = testConnection(openai(), transport, { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      expect(await pending).toMatchObject({ ok: false, kind: 'cancelled' });
    });
  });

  describe('when the settings are unusable', () => {
    it('fails without a request when no model is set', async () => {
      expect(await testConnection({ ...openai(), model: '  ' }, transport)).toMatchObject({ ok: false, kind: 'bad-request' });
      expect(server.requests).toHaveLength(0);
    });

    it('fails, without throwing, for an unknown provider kind', async () => {
      const result = await testConnection({ ...openai(), kind: 'gemini' } as unknown as ProviderSettings, transport);
      expect(result).toMatchObject({ ok: false, kind: 'bad-request' });
      expect(server.requests).toHaveLength(0);
    });
  });
});
