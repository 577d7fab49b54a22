import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyText } from '../../../src/core/llm/httpErrors';
import { createNodeHttpTransport } from '../../../src/node/nodeHttpTransport';
import { startModelServer, type ModelServer } from '../../helpers/modelServer';

// The official clients are the reference for the wire formats: whatever they accept from the
// model server, they would accept from the real services, so the provider tests that run against
// it test against the real formats.

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

const TEXT = 'Bonjour, wörld! 👋 Here is a longer answer, cut into pieces.';

describe('the model server, read by the official OpenAI client', () => {
  const client = (): OpenAI => new OpenAI({ apiKey: 'sk-dummy', baseURL: `${server.url}/v1`, maxRetries: 0 });

  it('streams chunks whose deltas join to the text, then usage and [DONE]', async () => {
    server.script([{ text: TEXT, chunkSizes: [1, 3, 7], usage: { inputTokens: 21, outputTokens: 13 } }]);
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finishReason: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: 'gpt-4o-mini' });
      text += chunk.choices[0]?.delta.content ?? '';
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(TEXT);
    expect(finishReason).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 13, total_tokens: 34 });
  });

  it('satisfies the stream helper that accumulates a chat completion', async () => {
    server.script([{ text: TEXT, finishReason: 'length', usage: { inputTokens: 5, outputTokens: 6 } }]);
    const stream = client().chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const completion = await stream.finalChatCompletion();
    expect(deltas.join('')).toBe(TEXT);
    expect(completion.choices[0]).toMatchObject({ message: { role: 'assistant', content: TEXT }, finish_reason: 'length' });
    expect(completion.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 6 });
  });

  it('answers a non-streaming request with one chat.completion', async () => {
    server.script([{ text: TEXT, usage: { inputTokens: 8, outputTokens: 9 } }]);
    const completion = await client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion).toMatchObject({ object: 'chat.completion', model: 'gpt-4o', usage: { prompt_tokens: 8, completion_tokens: 9 } });
    expect(completion.choices[0]).toMatchObject({ message: { content: TEXT }, finish_reason: 'stop' });
    expect(server.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', headers: { authorization: 'Bearer sk-dummy' } });
  });

  it.each([
    [401, OpenAI.AuthenticationError, 'invalid_api_key'],
    [404, OpenAI.NotFoundError, 'model_not_found'],
    [429, OpenAI.RateLimitError, 'rate_limit_exceeded'],
    [500, OpenAI.InternalServerError, null],
  ] as const)('sends a %i as OpenAI does', async (status, type, code) => {
    server.script([{ status }]);
    const error = await client()
      .chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, code });
  });

  it('sends an error inside a stream as OpenAI does', async () => {
    server.script([{ text: 'partial', streamError: { type: 'server_error', message: 'The model crashed' } }]);
    const stream = await client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const error = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('The model crashed');
  });
});

describe('the model server, read by the official Anthropic client', () => {
  const client = (): Anthropic => new Anthropic({ apiKey: 'dummy-key', baseURL: server.url, maxRetries: 0 });

  it('streams the events in the documented order', async () => {
    server.script([{ text: TEXT, chunkSizes: [2, 5], usage: { inputTokens: 30, outputTokens: 12 } }]);
    const stream = await client().messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      if (types.at(-1) !== event.type) types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    // The client drops `ping` events; the raw framing test below sees them.
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(text).toBe(TEXT);
  });

  it('frames each event as `event:` and `data:` lines and a blank line, with a ping', async () => {
    server.script([{ text: 'Hi there' }]);
    const response = await createNodeHttpTransport().request({
      url: `${server.url}/v1/messages`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], stream: true }),
    });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const frames = (await readBodyText(response.body)).split('\n\n');
    expect(frames.pop()).toBe('');
    for (const frame of frames) expect(frame).toMatch(/^event: ([a-z_]+)\ndata: \{"type":"\1"[^\n]*\}$/);
    expect(frames.map((frame) => /^event: (\w+)/.exec(frame)?.[1])).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('satisfies the stream helper that accumulates a message', async () => {
    server.script([{ text: TEXT, finishReason: 'length', usage: { inputTokens: 30, outputTokens: 12 } }]);
    const stream = client().messages.stream({
      model: 'claude-test',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const message = await stream.finalMessage();
    expect(deltas.join('')).toBe(TEXT);
    expect(message).toMatchObject({ role: 'assistant', model: 'claude-test', stop_reason: 'max_tokens', content: [{ type: 'text', text: TEXT }] });
    expect(message.usage).toMatchObject({ input_tokens: 30, output_tokens: 12 });
    expect(server.requests.at(-1)).toMatchObject({
      path: '/v1/messages',
      // SDK 1.x sends the key as a bearer token and names API version 2026-10-21; the server accepts any.
      headers: { authorization: 'Bearer dummy-key' },
      body: { system: 'Be brief.', stream: true },
    });
  });

  it('answers a non-streaming request with one message', async () => {
    server.script([{ text: TEXT, usage: { inputTokens: 3, outputTokens: 4 } }]);
    const message = await client().messages.create({ model: 'claude-test-small', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message).toMatchObject({ type: 'message', stop_reason: 'end_turn', content: [{ type: 'text', text: TEXT }], usage: { input_tokens: 3, output_tokens: 4 } });
  });

  it.each([
    [401, Anthropic.AuthenticationError, 'authentication_error'],
    [404, Anthropic.NotFoundError, 'not_found_error'],
    [429, Anthropic.RateLimitError, 'rate_limit_error'],
    [529, Anthropic.APIError, 'overloaded_error'],
  ] as const)('sends a %i as Anthropic does', async (status, type, errorType) => {
    server.script([{ status }]);
    const error = await client()
      .messages.create({ model: 'claude-nope', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, error: { type: 'error', error: { type: errorType } } });
  });

  it('sends an error event inside a stream as Anthropic does', async () => {
    server.script([{ text: 'partial', streamError: { type: 'overloaded_error', message: 'Overloaded' } }]);
    const stream = client().messages.stream({ model: 'claude-test', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] });
    const error = await stream.finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as Error).message).toContain('Overloaded');
  });
});
