import { createRequire } from 'node:module';
import { requestUrl } from 'obsidian';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProvider } from '../../../src/core/llm/createProvider';
import { HttpTransportError, type HttpRequest, type HttpResponse, type HttpTransport } from '../../../src/core/ports/http';
import { createObsidianHttpTransport } from '../../../src/obsidian/obsidianHttpTransport';
import { rejectionOf } from '../../helpers/errors';
import { closedPortUrl, startModelServer, type ModelServer } from '../../helpers/modelServer';
import { setTestPlatform } from '../../helpers/obsidian/platform';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

// The renderer's `window`: Node's `require` (Electron's node integration) and the timers.
const nodeRequire = createRequire(import.meta.url);
let windowRequire: ReturnType<typeof vi.fn<(id: string) => unknown>>;
beforeEach(() => {
  server.requests.length = 0;
  windowRequire = vi.fn((id: string) => nodeRequire(id) as unknown);
  vi.stubGlobal('window', { require: windowRequire, setTimeout, clearTimeout });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setTestPlatform('desktop');
});

const TEXT = 'One, two, three, four, five — done.';

function chatRequest(options: { stream?: boolean } & Partial<HttpRequest> = {}): HttpRequest {
  const { stream = true, ...rest } = options;
  return {
    url: `${server.url}/v1/chat/completions`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], stream }),
    ...rest,
  };
}

async function chunksOf(response: HttpResponse): Promise<string[]> {
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for await (const chunk of response.body) chunks.push(decoder.decode(chunk));
  return chunks;
}

async function failureOf(action: () => Promise<unknown>): Promise<HttpTransportError> {
  return rejectionOf(action, HttpTransportError);
}

describe('createObsidianHttpTransport', () => {
  describe('on desktop', () => {
    it('streams over Node: a streamed reply arrives in several chunks', async () => {
      const transport = createObsidianHttpTransport();
      expect(transport.streams).toBe(true);
      server.script([{ text: TEXT, chunkSizes: [4], delayMs: 10 }]);
      const response = await transport.request(chatRequest());
      const chunks = await chunksOf(response);
      expect(chunks.length).toBeGreaterThan(3);
      expect(chunks.join('')).toContain('data: [DONE]');
      expect(windowRequire.mock.calls.map(([id]) => id)).toEqual(['http', 'https']);
    });

    it('loads Node’s modules at the first use, not when created', () => {
      const transport = createObsidianHttpTransport();
      expect(windowRequire).not.toHaveBeenCalled();
      void transport.streams;
      void transport.streams;
      expect(windowRequire).toHaveBeenCalledTimes(2);
    });

    it('passes the status and headers through', async () => {
      server.script([{ status: 429, retryAfter: 7 }]);
      const response = await createObsidianHttpTransport().request(chatRequest());
      expect(response.status).toBe(429);
      expect(response.headers).toMatchObject({ 'retry-after': '7', 'content-type': 'application/json' });
      expect(JSON.parse((await chunksOf(response)).join(''))).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    });

    it('ends the body with an aborted error when the signal aborts mid-stream', async () => {
      server.script([{ text: TEXT, chunkSizes: [1], delayMs: 30 }]);
      const controller = new AbortController();
      const response = await createObsidianHttpTransport().request(chatRequest({ signal: controller.signal }));
      const error = await failureOf(async () => {
        for await (const chunk of response.body) {
          expect(chunk.length).toBeGreaterThan(0);
          controller.abort();
        }
      });
      expect(error).toMatchObject({ kind: 'aborted', name: 'AbortError' });
    });

    it('times out when nothing arrives', async () => {
      server.script([{ hang: true }]);
      const error = await failureOf(() => createObsidianHttpTransport().request(chatRequest({ timeoutMs: 100 })));
      expect(error.kind).toBe('timeout');
    });

    it('reports a closed port as unreachable', async () => {
      const error = await failureOf(async () => createObsidianHttpTransport().request(chatRequest({ url: `${await closedPortUrl()}/v1/chat/completions` })));
      expect(error.kind).toBe('unreachable');
    });

    describe('when Node’s modules cannot be loaded', () => {
      it('falls back to requestUrl, which does not stream', async () => {
        vi.stubGlobal('window', { require: () => { throw new Error('Cannot find module'); }, setTimeout, clearTimeout });
        const transport = createObsidianHttpTransport();
        expect(transport.streams).toBe(false);
        server.script([{ text: TEXT, chunkSizes: [4], delayMs: 5 }]);
        const chunks = await chunksOf(await transport.request(chatRequest()));
        expect(chunks).toHaveLength(1);
        expect(chunks[0]).toContain('data: [DONE]');
      });

      it('falls back when the window has no require', () => {
        vi.stubGlobal('window', { setTimeout, clearTimeout });
        expect(createObsidianHttpTransport().streams).toBe(false);
      });
    });
  });

  describe('on mobile', () => {
    let transport: HttpTransport;
    beforeEach(() => {
      setTestPlatform('phone');
      transport = createObsidianHttpTransport();
    });

    it('uses requestUrl and never asks for Node’s modules', async () => {
      expect(transport.streams).toBe(false);
      server.script([{ text: TEXT }]);
      await chunksOf(await transport.request(chatRequest()));
      expect(windowRequire).not.toHaveBeenCalled();
    });

    it('yields a streamed reply as one chunk, once it is complete', async () => {
      server.script([{ text: TEXT, chunkSizes: [4], delayMs: 5 }]);
      const response = await transport.request(chatRequest());
      expect(response.status).toBe(200);
      const chunks = await chunksOf(response);
      expect(chunks).toHaveLength(1);
      expect(chunks[0]).toMatch(/^data: .*data: \[DONE\]\n\n$/s);
    });

    it('sends the method, headers and body', async () => {
      server.script([{ text: 'ok' }]);
      await transport.request(chatRequest({ stream: false, headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' } }));
      expect(server.requests[0]).toMatchObject({
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
        body: { model: 'gpt-test', stream: false },
      });
    });

    it('returns an error status as a response, with its headers and body', async () => {
      server.script([{ status: 503, retryAfter: 2 }]);
      const response = await transport.request(chatRequest());
      expect(response.status).toBe(503);
      expect(response.headers).toMatchObject({ 'retry-after': '2', 'content-type': 'application/json' });
      expect(JSON.parse((await chunksOf(response)).join(''))).toMatchObject({ error: { type: 'server_error' } });
    });

    it('rejects with aborted as soon as the signal aborts, though requestUrl runs on', async () => {
      server.script([{ hang: true }]);
      const controller = new AbortController();
      const pending = transport.request(chatRequest({ signal: controller.signal }));
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      const started = Date.now();
      controller.abort();
      const error = await failureOf(() => pending);
      expect(error).toMatchObject({ kind: 'aborted', name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('rejects with aborted without sending when the signal has already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await failureOf(() => transport.request(chatRequest({ signal: controller.signal })));
      expect(error.kind).toBe('aborted');
      expect(server.requests).toHaveLength(0);
    });

    it('rejects the body read with aborted when the signal aborts before it', async () => {
      server.script([{ text: 'ok' }]);
      const controller = new AbortController();
      const response = await transport.request(chatRequest({ signal: controller.signal }));
      controller.abort();
      expect((await failureOf(() => chunksOf(response))).kind).toBe('aborted');
    });

    it('times out when the response takes too long', async () => {
      server.script([{ hang: true }]);
      const error = await failureOf(() => transport.request(chatRequest({ timeoutMs: 100 })));
      expect(error.kind).toBe('timeout');
      expect(error.message).toContain('100 ms');
    });

    it('reports a closed port as unreachable', async () => {
      const error = await failureOf(async () => transport.request(chatRequest({ url: `${await closedPortUrl()}/v1/chat/completions` })));
      expect(error.kind).toBe('unreachable');
      expect(error.message).toContain('ERR_CONNECTION_REFUSED');
    });

    it('reports a dropped connection as broken', async () => {
      server.script([{ dropConnection: true }]);
      expect((await failureOf(() => transport.request(chatRequest()))).kind).toBe('broken');
    });

    it('refuses what is not an http(s) URL as unreachable', async () => {
      expect((await failureOf(() => transport.request(chatRequest({ url: 'not a url' })))).kind).toBe('unreachable');
      expect((await failureOf(() => transport.request(chatRequest({ url: 'file:///etc/passwd' })))).kind).toBe('unreachable');
    });
  });

  describe.each([
    ['desktop', 'several times', (count: number) => expect(count).toBeGreaterThan(3)],
    ['phone', 'once', (count: number) => expect(count).toBe(1)],
  ] as const)('with the providers, on %s', (platform, times, checkCount) => {
    beforeEach(() => setTestPlatform(platform));

    it.each(['openai', 'anthropic'] as const)(`completes a %s request, calling onText ${times}`, async (kind) => {
      server.script([{ text: TEXT, chunkSizes: [4], delayMs: 5, usage: { inputTokens: 12, outputTokens: 9 } }]);
      const baseUrl = kind === 'openai' ? `${server.url}/v1` : server.url;
      const provider = createProvider({ kind, baseUrl, model: 'test-model', apiKey: 'sk-test', maxRetries: 0 }, createObsidianHttpTransport());
      const deltas: string[] = [];
      const completion = await provider.complete({ system: 'Be terse.', messages: [{ role: 'user', content: 'Count.' }] }, { onText: (delta) => deltas.push(delta) });
      expect(completion).toMatchObject({ text: TEXT, usage: { inputTokens: 12, outputTokens: 9 } });
      checkCount(deltas.length);
      expect(deltas.join('')).toBe(TEXT);
    });
  });
});

describe('the test requestUrl', () => {
  it('throws on a status of 400 or more unless told not to, like Obsidian’s', async () => {
    server.script([{ status: 404 }, { status: 404 }]);
    const url = `${server.url}/v1/chat/completions`;
    await expect(requestUrl({ url, method: 'POST', body: '{}' })).rejects.toMatchObject({ message: 'Request failed, status 404', status: 404 });
    const response = await requestUrl({ url, method: 'POST', body: '{}', throw: false });
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('offers the body as text, bytes and JSON, on the response and on the promise', async () => {
    server.script([{ raw: '{"a":1}' }, { raw: '{"a":2}' }]);
    const url = `${server.url}/v1/messages`;
    const response = await requestUrl({ url, method: 'POST', contentType: 'application/json', body: '{}' });
    expect([response.text, new TextDecoder().decode(response.arrayBuffer), response.json]).toEqual(['{"a":1}', '{"a":1}', { a: 1 }]);
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(await requestUrl({ url, method: 'POST', body: '{}' }).json).toEqual({ a: 2 });
  });
});
