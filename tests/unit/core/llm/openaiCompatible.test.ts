import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../src/core/errors';
import { createOpenAiCompatibleProvider } from '../../../../src/core/llm/openaiCompatible';
import type { CompletionRequest, LlmProvider, ProviderSettings } from '../../../../src/core/llm/types';
import type { HttpTransport } from '../../../../src/core/ports/http';
import { createNodeHttpTransport } from '../../../../src/node/nodeHttpTransport';
import { rejectionOf } from '../../../helpers/errors';
import { startModelServer, withoutStreaming, type ModelServer } from '../../../helpers/modelServer';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function provider(settings: Partial<ProviderSettings> = {}, transport: HttpTransport = createNodeHttpTransport()): LlmProvider {
  return createOpenAiCompatibleProvider({ kind: 'openai', baseUrl: `${server.url}/v1`, model: 'gpt-test', apiKey: 'sk-test', maxRetries: 0, ...settings }, transport);
}

const REQUEST: CompletionRequest = {
  system: 'You are terse.',
  messages: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
    { role: 'user', content: 'Count to five.' },
  ],
};
const TEXT = 'One, two, three, four, five — done. ✅';

describe('createOpenAiCompatibleProvider', () => {
  describe('when the transport streams', () => {
    it('passes each delta to onText as it arrives, and they join to the text', async () => {
      server.script([{ text: TEXT, chunkSizes: [3, 1, 5], usage: { inputTokens: 17, outputTokens: 11 } }]);
      const deltas: string[] = [];
      const completion = await provider().complete(REQUEST, { onText: (delta) => deltas.push(delta) });
      expect(completion).toEqual({ text: TEXT, usage: { inputTokens: 17, outputTokens: 11 }, finishReason: 'stop' });
      expect(deltas.length).toBeGreaterThan(5);
      expect(deltas.join('')).toBe(TEXT);
    });

    it('sends the system prompt first, the conversation after, and asks for a stream with usage', async () => {
      server.script([{ text: 'ok' }]);
      await provider().complete({ ...REQUEST, maxTokens: 50, temperature: 0.2, stop: ['\n\n'] });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json', accept: 'text/event-stream' },
      });
      expect(server.requests[0]?.body).toEqual({
        model: 'gpt-test',
        messages: [{ role: 'system', content: 'You are terse.' }, ...REQUEST.messages],
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 50,
        temperature: 0.2,
        stop: ['\n\n'],
      });
    });

    it('reports the finish reason the server gave', async () => {
      server.script([{ text: 'cut sho', finishReason: 'length' }]);
      expect(await provider().complete(REQUEST)).toMatchObject({ text: 'cut sho', finishReason: 'length' });
    });

    it('reads a plain JSON answer when the server ignores stream: true', async () => {
      server.script([
        { raw: JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }] }), contentType: 'application/json' },
      ]);
      const deltas: string[] = [];
      expect(await provider().complete(REQUEST, { onText: (delta) => deltas.push(delta) })).toEqual({ text: 'whole', usage: null, finishReason: 'stop' });
      expect(deltas).toEqual(['whole']);
    });

    it('accepts a stream that ends after a finish reason without [DONE]', async () => {
      const chunk = (delta: object, finish: string | null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      server.script([{ raw: chunk({ content: 'Hi' }, null) + chunk({}, 'stop'), contentType: 'text/event-stream' }]);
      expect(await provider().complete(REQUEST)).toEqual({ text: 'Hi', usage: null, finishReason: 'stop' });
    });
  });

  describe('when the transport cannot stream', () => {
    it('asks for the whole answer and calls onText once with it', async () => {
      server.script([{ text: TEXT, usage: { inputTokens: 4, outputTokens: 9 }, finishReason: 'length' }]);
      const deltas: string[] = [];
      const completion = await provider({}, withoutStreaming(createNodeHttpTransport())).complete(REQUEST, { onText: (delta) => deltas.push(delta) });
      expect(completion).toEqual({ text: TEXT, usage: { inputTokens: 4, outputTokens: 9 }, finishReason: 'length' });
      expect(deltas).toEqual([TEXT]);
      const body = server.requests[0]?.body as Record<string, unknown>;
      expect(body.stream).toBe(false);
      expect(body).not.toHaveProperty('stream_options');
      expect(server.requests[0]?.headers.accept).toBe('application/json');
    });
  });

  describe('when no key is set (Ollama, LM Studio, llama.cpp)', () => {
    it('sends no authorization header', async () => {
      server.script([{ text: 'local' }]);
      await provider({ apiKey: undefined }).complete(REQUEST);
      expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
      server.script([{ text: 'local' }]);
      await provider({ apiKey: '  ' }).complete(REQUEST);
      expect(server.requests[1]?.headers).not.toHaveProperty('authorization');
    });
  });

  it('sends no system message for an empty system prompt, and tolerates a trailing slash', async () => {
    server.script([{ text: 'ok' }]);
    await provider({ baseUrl: `${server.url}/v1/` }).complete({ system: '', messages: [{ role: 'user', content: 'Hi' }] });
    expect(server.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { messages: [{ role: 'user', content: 'Hi' }] } });
    expect(server.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('names itself and its model', () => {
    expect(provider()).toMatchObject({ name: 'openai', model: 'gpt-test' });
  });

  describe('when the answer is not an OpenAI answer', () => {
    it.each([
      ['a web page', { raw: '<!doctype html><title>Login</title>', contentType: 'text/html; charset=utf-8' }, 'a web page'],
      ['an event that is not JSON', { raw: 'data: hello\n\n', contentType: 'text/event-stream' }, 'not JSON'],
      ['a chunk without choices', { raw: 'data: {"id":"x"}\n\n', contentType: 'text/event-stream' }, '`choices`'],
      ['a stream that stops early', { raw: 'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n', contentType: 'text/event-stream' }, 'ended before'],
    ])('fails with bad-response for %s', async (_name, reply, wording) => {
      server.script([reply]);
      const error = await rejectionOf(() => provider().complete(REQUEST), ProviderError);
      expect(error.data).toMatchObject({ kind: 'bad-response', url: `${server.url}/v1` });
      expect(error.message).toContain(wording);
      expect(error.message).toContain("Check the base URL and the provider kind in Recursa's settings");
    });

    it('fails with bad-response for a whole answer that is not JSON', async () => {
      server.script([{ raw: 'Internal redirect', contentType: 'text/plain' }]);
      const error = await rejectionOf(() => provider({}, withoutStreaming(createNodeHttpTransport())).complete(REQUEST), ProviderError);
      expect(error.data.kind).toBe('bad-response');
      expect(error.message).toContain('It began: "Internal redirect"');
    });
  });

  it('turns an error sent inside the stream into a ProviderError', async () => {
    server.script([{ text: 'Par', streamError: { type: 'server_error', message: 'The model crashed' } }]);
    const deltas: string[] = [];
    const error = await rejectionOf(() => provider({ maxRetries: 3 }).complete(REQUEST, { onText: (delta) => deltas.push(delta) }), ProviderError);
    expect(error.data).toMatchObject({ kind: 'server', serverMessage: 'The model crashed' });
    expect(deltas).toEqual(['Par']);
    // Text had reached the user, so it was not retried.
    expect(server.requests).toHaveLength(1);
  });
});
