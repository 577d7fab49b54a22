import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../src/core/errors';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, createAnthropicProvider } from '../../../../src/core/llm/anthropic';
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
  return createAnthropicProvider({ kind: 'anthropic', baseUrl: server.url, model: 'claude-test', apiKey: 'sk-ant-test', maxRetries: 0, ...settings }, transport);
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

describe('createAnthropicProvider', () => {
  describe('when the transport streams', () => {
    it('passes each text delta to onText, and takes usage from message_start and message_delta', async () => {
      server.script([{ text: TEXT, chunkSizes: [2, 7], usage: { inputTokens: 31, outputTokens: 14 } }]);
      const deltas: string[] = [];
      const completion = await provider().complete(REQUEST, { onText: (delta) => deltas.push(delta) });
      expect(completion).toEqual({ text: TEXT, usage: { inputTokens: 31, outputTokens: 14 }, finishReason: 'end_turn' });
      expect(deltas.length).toBeGreaterThan(5);
      expect(deltas.join('')).toBe(TEXT);
    });

    it('puts the system prompt in `system` and sends the version, the key and max_tokens', async () => {
      server.script([{ text: 'ok' }]);
      await provider().complete({ ...REQUEST, temperature: 0.5, stop: ['END'] });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({
        method: 'POST',
        path: '/v1/messages',
        headers: { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json', accept: 'text/event-stream' },
      });
      expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
      expect(server.requests[0]?.body).toEqual({
        model: 'claude-test',
        system: 'You are terse.',
        messages: REQUEST.messages,
        max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
        stream: true,
        stop_sequences: ['END'],
        temperature: 0.5,
      });
    });

    it('reports max_tokens when the answer was cut', async () => {
      server.script([{ text: 'cut sho', finishReason: 'length' }]);
      expect(await provider().complete({ ...REQUEST, maxTokens: 3 })).toMatchObject({ text: 'cut sho', finishReason: 'max_tokens' });
      expect(server.requests[0]?.body).toMatchObject({ max_tokens: 3 });
    });
  });

  describe('when the transport cannot stream', () => {
    it('asks for the whole message and calls onText once with it', async () => {
      server.script([{ text: TEXT, usage: { inputTokens: 6, outputTokens: 7 } }]);
      const deltas: string[] = [];
      const completion = await provider({}, withoutStreaming(createNodeHttpTransport())).complete(REQUEST, { onText: (delta) => deltas.push(delta) });
      expect(completion).toEqual({ text: TEXT, usage: { inputTokens: 6, outputTokens: 7 }, finishReason: 'end_turn' });
      expect(deltas).toEqual([TEXT]);
      expect(server.requests[0]?.body).toMatchObject({ stream: false });
      expect(server.requests[0]?.headers.accept).toBe('application/json');
    });
  });

  describe('when the base URL', () => {
    it.each([
      ['ends in /v1', '/v1'],
      ['ends in /v1/', '/v1/'],
      ['ends in a slash', '/'],
    ])('%s, posts to /v1/messages once', async (_name, suffix) => {
      server.script([{ text: 'ok' }]);
      await provider({ baseUrl: `${server.url}${suffix}` }).complete(REQUEST);
      expect(server.requests[0]?.path).toBe('/v1/messages');
    });
  });

  it('moves system messages from the conversation into `system`, which the API requires', async () => {
    server.script([{ text: 'ok' }]);
    await provider().complete({
      system: 'Base.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'system', content: 'Extra rule.' },
        { role: 'user', content: 'Go' },
      ],
    });
    expect(server.requests[0]?.body).toMatchObject({
      system: 'Base.\n\nExtra rule.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'user', content: 'Go' },
      ],
    });
  });

  it('sends no system field for an empty system prompt, and no key header without a key', async () => {
    server.script([{ text: 'ok' }]);
    await provider({ apiKey: undefined }).complete({ system: '', messages: [{ role: 'user', content: 'Hi' }] });
    expect(server.requests[0]?.body).not.toHaveProperty('system');
    expect(server.requests[0]?.headers).not.toHaveProperty('x-api-key');
  });

  it('names itself and its model', () => {
    expect(provider()).toMatchObject({ name: 'anthropic', model: 'claude-test' });
  });

  describe('when the stream carries an error event', () => {
    it.each([
      ['overloaded_error', 'server'],
      ['rate_limit_error', 'rate-limit'],
      ['invalid_request_error', 'bad-request'],
    ])('maps %s to %s', async (type, kind) => {
      server.script([{ text: 'Par', streamError: { type, message: 'Something happened' } }]);
      const error = await rejectionOf(() => provider().complete(REQUEST), ProviderError);
      expect(error.data).toMatchObject({ kind, serverMessage: 'Something happened' });
    });

    it('does not retry once text has reached the user', async () => {
      server.script([{ text: 'Partial', streamError: { type: 'overloaded_error', message: 'Overloaded' } }]);
      const deltas: string[] = [];
      await rejectionOf(() => provider({ maxRetries: 3 }).complete(REQUEST, { onText: (delta) => deltas.push(delta) }), ProviderError);
      expect(deltas.join('')).toBe('Partial');
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('when the answer is not an Anthropic answer', () => {
    it.each([
      ['a stream that stops before message_stop', 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":1}}}\n\n', 'ended before'],
      ['a stream without message_start', 'event: ping\ndata: {"type":"ping"}\n\n', 'without `message_start`'],
      ['an event that is not JSON', 'event: message_start\ndata: {oops\n\n', 'not JSON'],
    ])('fails with bad-response for %s', async (_name, raw, wording) => {
      server.script([{ raw, contentType: 'text/event-stream' }]);
      const error = await rejectionOf(() => provider().complete(REQUEST), ProviderError);
      expect(error.data.kind).toBe('bad-response');
      expect(error.message).toContain(wording);
      expect(error.message).toContain('not an Anthropic Messages answer');
    });

    it('fails with bad-response for JSON without content', async () => {
      server.script([{ raw: '{"type":"message"}' }]);
      const error = await rejectionOf(() => provider({}, withoutStreaming(createNodeHttpTransport())).complete(REQUEST), ProviderError);
      expect(error.data.kind).toBe('bad-response');
    });
  });
});
