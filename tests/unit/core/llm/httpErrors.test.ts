import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../src/core/errors';
import { createProvider } from '../../../../src/core/llm/createProvider';
import { badResponse, errorFromStatus, MAX_RETRY_AFTER_MS, parseRetryAfter, providerContext, retryDelay, toProviderError } from '../../../../src/core/llm/httpErrors';
import type { CompletionRequest, LlmProvider, ProviderSettings } from '../../../../src/core/llm/types';
import type { HttpTransport } from '../../../../src/core/ports/http';
import { createNodeHttpTransport } from '../../../../src/node/nodeHttpTransport';
import { rejectionOf } from '../../../helpers/errors';
import { closedPortUrl, startModelServer, withoutStreaming, type ModelServer } from '../../../helpers/modelServer';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.close();
});

const REQUEST: CompletionRequest = { system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] };

/** Each provider, with the base URL it is given for the model server. */
const PROVIDERS = [
  { kind: 'openai', baseUrl: (url: string) => `${url}/v1` },
  { kind: 'anthropic', baseUrl: (url: string) => url },
] as const;

describe.each(PROVIDERS)('the $kind provider, when a request fails', ({ kind, baseUrl }) => {
  let waits: number[];
  beforeEach(() => {
    server.requests.length = 0;
    waits = [];
  });

  /** The provider with a sleep that records each wait and returns at once, and jitter fixed at its middle. */
  function provider(settings: Partial<ProviderSettings> = {}, transport: HttpTransport = createNodeHttpTransport()): LlmProvider {
    const sleep = (ms: number): Promise<void> => {
      waits.push(ms);
      return Promise.resolve();
    };
    return createProvider({ kind, baseUrl: baseUrl(server.url), model: 'test-model', apiKey: 'sk-test', ...settings }, transport, { sleep, random: () => 0.5 });
  }

  async function failure(settings: Partial<ProviderSettings> = {}, transport?: HttpTransport, signal?: AbortSignal): Promise<ProviderError> {
    return rejectionOf(() => provider(settings, transport).complete(REQUEST, { signal }), ProviderError);
  }

  describe('with a status the server chose', () => {
    it('says the key was refused on 401, and where to fix it', async () => {
      server.script([{ status: 401 }]);
      const error = await failure();
      expect(error.code).toBe('Provider');
      expect(error.data).toMatchObject({ kind: 'auth', status: 401, url: baseUrl(server.url), provider: kind });
      expect(error.message).toMatch(new RegExp(`^The API key was refused \\(401\\) by ${baseUrl(server.url)}\\. Check the key in Recursa's settings\\.`));
      expect(server.requests).toHaveLength(1);
    });

    it('says a key is needed on 401 when none is set', async () => {
      server.script([{ status: 401 }]);
      const error = await failure({ apiKey: '' });
      expect(error.data.kind).toBe('auth');
      expect(error.message).toContain(`${baseUrl(server.url)} requires an API key (401). Add one in Recursa's settings.`);
    });

    it('treats 403 as an auth failure and quotes the server', async () => {
      server.script([{ status: 403 }]);
      const error = await failure();
      expect(error.data).toMatchObject({ kind: 'auth', status: 403 });
      expect(error.message).toContain('The server said: "');
    });

    it('names the model on 404', async () => {
      server.script([{ status: 404 }]);
      const error = await failure();
      expect(error.data).toMatchObject({ kind: 'model-not-found', status: 404, model: 'test-model' });
      expect(error.message).toContain(`The model "test-model" was not found at ${baseUrl(server.url)} (404). Check the model name`);
      expect(server.requests).toHaveLength(1);
    });

    it('knows a missing model from a 400 whose body says so (Ollama, LM Studio)', async () => {
      server.script([{ status: 400, body: { error: { message: 'model "test-model" not found, try pulling it first' } } }]);
      const error = await failure();
      expect(error.data).toMatchObject({ kind: 'model-not-found', status: 400 });
    });

    it("quotes the server's message on 400, shortened", async () => {
      server.script([{ status: 400 }]);
      const error = await failure();
      expect(error.data.kind).toBe('bad-request');
      expect(error.message).toMatch(/rejected the request \(400\): ".*temperature.*"\. Check the model and its settings/);
      server.script([{ status: 400, body: { error: { message: `bad ${'x'.repeat(500)}` } } }]);
      const long = await failure();
      expect(long.data.serverMessage).toHaveLength(200);
      expect(long.data.serverMessage?.endsWith('…')).toBe(true);
    });

    it('quotes a plain-text error body, but not an HTML page', async () => {
      server.script([{ status: 400, body: 'context too long' }]);
      expect((await failure()).message).toContain('"context too long"');
      server.script([{ raw: '<html><body>Bad gateway</body></html>', status: 502, contentType: 'text/html' }]);
      const error = await failure({ maxRetries: 0 });
      expect(error.data).toMatchObject({ kind: 'server', status: 502 });
      expect(error.data).not.toHaveProperty('serverMessage');
    });

    it('never retries a 4xx other than 429', async () => {
      server.script([{ status: 400 }, { status: 401 }, { status: 403 }, { status: 404 }]);
      for (let i = 0; i < 4; i++) await failure();
      expect(server.requests).toHaveLength(4);
      expect(waits).toEqual([]);
    });
  });

  describe('with 429', () => {
    it('waits as retry-after says, in seconds or as an HTTP date, then succeeds', async () => {
      const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
      server.script([{ status: 429, retryAfter: 2 }, { status: 429, retryAfter: inFiveSeconds }, { text: 'finally' }]);
      const completion = await provider().complete(REQUEST);
      expect(completion.text).toBe('finally');
      expect(server.requests).toHaveLength(3);
      expect(waits[0]).toBe(2_000);
      expect(waits[1]).toBeGreaterThan(3_000);
      expect(waits[1]).toBeLessThanOrEqual(5_000);
    });

    it(`waits at most ${MAX_RETRY_AFTER_MS / 1000} s whatever retry-after says`, async () => {
      server.script([{ status: 429, retryAfter: 3600 }, { text: 'ok' }]);
      await provider().complete(REQUEST);
      expect(waits).toEqual([MAX_RETRY_AFTER_MS]);
    });

    it('backs off without retry-after, and gives up after maxRetries with a rate-limit error', async () => {
      server.script([{ status: 429 }, { status: 429 }, { status: 429 }]);
      const error = await failure({ maxRetries: 2 });
      expect(error.data).toMatchObject({ kind: 'rate-limit', status: 429 });
      expect(error.message).toContain(`${baseUrl(server.url)} is limiting requests (429). Wait a minute and try again`);
      expect(server.requests).toHaveLength(3);
      expect(waits).toEqual([375, 750]);
    });
  });

  describe('with 5xx', () => {
    it('backs off exponentially with jitter, then succeeds', async () => {
      server.script([{ status: 500 }, { status: 503 }, { status: 529 }, { text: 'recovered' }]);
      expect((await provider().complete(REQUEST)).text).toBe('recovered');
      expect(waits).toEqual([375, 750, 1500]);
    });

    it('gives up after the default 3 retries with a server error', async () => {
      server.script([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }]);
      const error = await failure();
      expect(error.data).toMatchObject({ kind: 'server', status: 503 });
      expect(error.message).toContain(`${baseUrl(server.url)} had a server error (503). Try again in a moment.`);
      expect(server.requests).toHaveLength(4);
      expect(waits).toHaveLength(3);
    });
  });

  describe('when the connection fails', () => {
    it('says the host is unreachable, naming the URL, after retrying', async () => {
      const url = await closedPortUrl();
      const error = await rejectionOf(
        () => createProvider({ kind, baseUrl: baseUrl(url), model: 'm', maxRetries: 2 }, createNodeHttpTransport(), { sleep: async (ms) => void waits.push(ms) }).complete(REQUEST),
        ProviderError,
      );
      expect(error.data).toMatchObject({ kind: 'unreachable', url: baseUrl(url), transport: 'unreachable' });
      expect(error.message).toBe(
        `Could not reach ${baseUrl(url)} (connection refused by ${url.slice('http://'.length)}). Check the base URL in Recursa's settings and that the server is running.`,
      );
      expect(waits).toHaveLength(2);
    });

    it('says unreachable when another transport fails with a plain error', async () => {
      const transport: HttpTransport = { streams: false, request: () => Promise.reject(new Error('net::ERR_NAME_NOT_RESOLVED')) };
      const error = await failure({ maxRetries: 0 }, transport);
      expect(error.data.kind).toBe('unreachable');
      expect(error.message).toContain('(net::ERR_NAME_NOT_RESOLVED)');
    });

    it('retries a dropped connection', async () => {
      server.script([{ dropConnection: true }, { text: 'second try' }]);
      expect((await provider().complete(REQUEST)).text).toBe('second try');
      expect(waits).toHaveLength(1);
    });

    it('reports a dropped connection as a server failure once retries are spent', async () => {
      server.script([{ dropConnection: true }]);
      const error = await failure({ maxRetries: 0 });
      expect(error.data).toMatchObject({ kind: 'server', transport: 'broken' });
      expect(error.message).toContain(`The connection to ${baseUrl(server.url)} broke`);
    });

    it('does not retry a stream that broke after text reached the user', async () => {
      server.script([{ text: 'abcdefgh', chunkSizes: [2], dropAfterChunks: 2 }]);
      const deltas: string[] = [];
      const error = await rejectionOf(() => provider().complete(REQUEST, { onText: (delta) => deltas.push(delta) }), ProviderError);
      expect(error.data).toMatchObject({ kind: 'server', transport: 'broken' });
      expect(deltas.join('')).toBe('abcd');
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('when the server is too slow', () => {
    it('times out when no response comes, without retrying', async () => {
      server.script([{ hang: true }]);
      const started = Date.now();
      const error = await failure({ timeoutMs: 200 });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error.data).toMatchObject({ kind: 'timeout', transport: 'timeout' });
      expect(error.message).toBe(
        `No answer from ${baseUrl(server.url)} in time (nothing arrived for 200 ms). The server may be busy or still loading the model; try again, or raise the timeout in Recursa's settings.`,
      );
      expect(server.requests).toHaveLength(1);
    });

    it('times out when a stream stalls between chunks', async () => {
      server.script([{ text: 'slow answer', delayMs: 1_000 }]);
      const error = await failure({ timeoutMs: 150 });
      expect(error.data.kind).toBe('timeout');
    });

    it('times out without streaming too', async () => {
      server.script([{ hang: true }]);
      const error = await failure({ timeoutMs: 150 }, withoutStreaming(createNodeHttpTransport()));
      expect(error.data.kind).toBe('timeout');
    });
  });

  describe('when the caller aborts', () => {
    it('stops a stream at once', async () => {
      server.script([{ text: 'a long answer that keeps coming', chunkSizes: [3], delayMs: 50 }]);
      const controller = new AbortController();
      const deltas: string[] = [];
      const started = Date.now();
      const error = await rejectionOf(
        () =>
          provider().complete(REQUEST, {
            signal: controller.signal,
            onText: (delta) => {
              deltas.push(delta);
              if (deltas.length === 2) controller.abort();
            },
          }),
        ProviderError,
      );
      expect(error.data.kind).toBe('cancelled');
      expect(error.message).toBe(`The request to ${baseUrl(server.url)} was cancelled.`);
      expect(deltas).toEqual(['a l', 'ong']);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('stops waiting for a retry at once', async () => {
      server.script([{ status: 429, retryAfter: 30 }]);
      const controller = new AbortController();
      // The real timer, not the recorder: the wait itself must end on abort.
      const real = createProvider({ kind, baseUrl: baseUrl(server.url), model: 'm', apiKey: 'k' }, createNodeHttpTransport());
      const started = Date.now();
      setTimeout(() => controller.abort(), 100);
      const error = await rejectionOf(() => real.complete(REQUEST, { signal: controller.signal }), ProviderError);
      expect(error.data.kind).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(server.requests).toHaveLength(1);
    });

    it('sends nothing when the signal is already aborted', async () => {
      const error = await failure({}, undefined, AbortSignal.abort());
      expect(error.data.kind).toBe('cancelled');
      expect(server.requests).toHaveLength(0);
    });

    it('lets the caller\'s own error from onText through, unretried', async () => {
      server.script([{ text: 'abcdef', chunkSizes: [2] }]);
      const own = new Error('the view was closed');
      const thrown = await provider()
        .complete(REQUEST, {
          onText: () => {
            throw own;
          },
        })
        .catch((error: unknown) => error);
      expect(thrown).toBe(own);
      expect(server.requests).toHaveLength(1);
    });

    it('cancels while the server hangs', async () => {
      server.script([{ hang: true }]);
      const error = await failure({}, undefined, AbortSignal.timeout(100));
      expect(error.data.kind).toBe('cancelled');
    });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds, fractions, HTTP dates and retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after': '7' }, now)).toBe(7_000);
    expect(parseRetryAfter({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:12 GMT' }, now)).toBe(12_000);
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }, now)).toBe(1_500);
  });

  it('gives 0 for a date in the past, and nothing for no header or nonsense', () => {
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const error = (kind: ProviderError['kind'], details: ConstructorParameters<typeof ProviderError>[2] = {}): ProviderError => new ProviderError(kind, 'x', details);

  it('doubles the back-off each retry, up to a cap, with jitter between half and all of it', () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => retryDelay(error('server'), retry, () => 0.999_999))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([0, 1, 2].map((retry) => retryDelay(error('unreachable'), retry, () => 0))).toEqual([250, 500, 1000]);
  });

  it('retries nothing else, and not a 429 that says trying again cannot help', () => {
    for (const kind of ['auth', 'timeout', 'model-not-found', 'bad-request', 'bad-response', 'cancelled'] as const) {
      expect(retryDelay(error(kind), 0)).toBeNull();
    }
    expect(retryDelay(error('rate-limit', { retryable: false }), 0)).toBeNull();
  });

  it('does not retry a 429 for an exhausted quota', async () => {
    server.requests.length = 0;
    server.script([{ status: 429, body: { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } } }]);
    const provider = createProvider({ kind: 'openai', baseUrl: `${server.url}/v1`, model: 'm', apiKey: 'k' }, createNodeHttpTransport());
    const failure = await rejectionOf(() => provider.complete(REQUEST), ProviderError);
    expect(failure.data).toMatchObject({ kind: 'rate-limit', retryable: false });
    expect(failure.message).toContain('lack of quota');
    expect(server.requests).toHaveLength(1);
  });
});

describe('the errors keep secrets out', () => {
  it('masks the base URL and removes the key and URL credentials from every message and fact', () => {
    const context = providerContext('openai', 'http://me:pa55word@[::1]:8080/v1?api_key=qk-123', 'm', 'sk-the-key-42');
    expect(context.baseUrl).toBe('http://***@[::1]:8080/v1?api_key=***');
    expect(context.hasKey).toBe(true);
    const echoed = JSON.stringify({ error: { message: 'bad key sk-the-key-42 for me:pa55word (qk-123)' } });
    for (const status of [401, 404, 429, 500]) {
      const error = errorFromStatus(status, echoed, {}, context);
      const everything = `${error.message}\n${error.stack ?? ''}\n${JSON.stringify(error)}`;
      for (const secret of ['sk-the-key-42', 'pa55word', 'qk-123']) expect(everything, String(status)).not.toContain(secret);
      expect(error.message).toContain('http://***@[::1]:8080/v1');
      expect(error.data.url).toBe('http://***@[::1]:8080/v1?api_key=***');
    }
    expect(badResponse(context, 'a web page', '<p>key=sk-the-key-42</p>').message).not.toContain('sk-the-key-42');
    expect(toProviderError(new Error('connect failed for http://me:pa55word@[::1]:8080'), context).message).not.toContain('pa55word');
  });
});
