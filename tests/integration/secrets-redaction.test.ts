import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors';
import { createProvider } from '../../src/core/llm/createProvider';
import { testConnection } from '../../src/core/llm/testConnection';
import type { ProviderSettings } from '../../src/core/llm/types';
import { createNodeHttpTransport } from '../../src/node/nodeHttpTransport';
import { runCli } from '../helpers/cliProcess';
import { closedPortUrl, startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir, useTempDir } from '../helpers/tempVault';

const PASSWORD = 'sekret-pw-4711';
const API_KEY = 'sk-live-key-0123456789';

/** The base URL with credentials in it, for a server at `url` (`http://127.0.0.1:<port>`). */
function withCredentials(url: string, path = ''): string {
  return `${url.replace('http://', `http://user:${PASSWORD}@`)}${path}`;
}

/** Nothing that was given as a secret, in any form, may be in `text`. */
function expectNoSecret(text: string): void {
  for (const secret of [PASSWORD, API_KEY, encodeURIComponent(PASSWORD), Buffer.from(`user:${PASSWORD}`).toString('base64')]) expect(text).not.toContain(secret);
}

/** A 401 whose body echoes the key and the password, as some servers do. */
const ECHOING_401 = { status: 401 as const, body: { error: { message: `Incorrect API key provided: ${API_KEY} (user:${PASSWORD})`, type: 'invalid_request_error' } } };

async function failureOf(settings: ProviderSettings): Promise<ProviderError> {
  const provider = createProvider({ ...settings, maxRetries: 0, timeoutMs: 5000 }, createNodeHttpTransport());
  const error = await provider.complete({ system: '', messages: [{ role: 'user', content: 'hi' }] }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Everything an error could show: message, stack, its data as JSON. */
function everythingOf(error: ProviderError): string {
  return `${error.message}\n${error.stack ?? ''}\n${JSON.stringify(error)}\n${JSON.stringify(error.data)}`;
}

describe('secrets in the base URL and the API key never reach messages', () => {
  let server: ModelServer;
  let refused: string;
  beforeAll(async () => {
    server = await startModelServer();
    refused = await closedPortUrl();
  });
  afterAll(async () => server.close());

  describe('provider errors (OpenAI-compatible and Anthropic)', () => {
    for (const kind of ['openai', 'anthropic'] as const) {
      const path = kind === 'openai' ? '/v1' : '';

      it(`${kind}: a refused key names the masked URL and says to check the key`, async () => {
        server.script([ECHOING_401]);
        server.requests.length = 0;
        const error = await failureOf({ kind, baseUrl: withCredentials(server.url, path), apiKey: API_KEY, model: 'm' });
        expect(server.requests).toHaveLength(1);
        expect(error.kind).toBe('auth');
        expect(error.message).toContain(`http://***@127.0.0.1:`);
        expect(error.message).toContain("Check the key in Recursa's settings");
        expect(error.message).toContain('Incorrect API key provided: ***');
        expectNoSecret(everythingOf(error));
      });

      it(`${kind}: a server error says to try again`, async () => {
        server.script([{ status: 500, body: { error: { message: `upstream said Authorization: Bearer ${API_KEY}` } } }]);
        const error = await failureOf({ kind, baseUrl: withCredentials(server.url, path), apiKey: API_KEY, model: 'm' });
        expect(error.kind).toBe('server');
        expect(error.message).toContain('Try again in a moment');
        expectNoSecret(everythingOf(error));
      });

      it(`${kind}: a refused connection says to check the base URL`, async () => {
        const error = await failureOf({ kind, baseUrl: withCredentials(refused, path), apiKey: API_KEY, model: 'm' });
        expect(error.kind).toBe('unreachable');
        expect(error.message).toContain("Check the base URL in Recursa's settings");
        expect(error.message).toContain('http://***@127.0.0.1:');
        expectNoSecret(everythingOf(error));
      });
    }

    it('sends the URL credentials as Basic auth when there is no key, and never in the request line', async () => {
      server.script([{ text: 'OK' }]);
      server.requests.length = 0;
      const result = await testConnection({ kind: 'openai', baseUrl: withCredentials(server.url, '/v1'), model: 'm' }, createNodeHttpTransport());
      expect(result.ok).toBe(true);
      expect(server.requests[0]?.path).toBe('/v1/chat/completions');
      expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`user:${PASSWORD}`).toString('base64')}`);
    });

    it('the connection test reports the failure without the secrets, a key in the query included', async () => {
      // The query string ends up before the API path: the server finds no such endpoint.
      const result = await testConnection({ kind: 'openai', baseUrl: withCredentials(server.url, '/v1?api_key=query-secret-99'), apiKey: API_KEY, model: 'm' }, createNodeHttpTransport());
      expect(result).toMatchObject({ ok: false, kind: 'model-not-found', status: 404 });
      const message = result.ok ? '' : result.message;
      expect(message).toContain("Check the model name and the base URL in Recursa's settings");
      expect(message).toContain('http://***@127.0.0.1:');
      expect(message).toContain('api_key=***');
      expectNoSecret(message);
      expect(message).not.toContain('query-secret-99');
    });
  });

  describe('the command line (dist/cli.mjs, a real child process)', () => {
    const temp = useTempDir();
    let home: { dir: string; remove: () => Promise<void> };
    beforeAll(async () => {
      home = await makeTempDir('recursa-home-');
    });
    afterAll(async () => home.remove());

    /** Runs the CLI; `output` is everything it printed, standard output and error. */
    async function recursa(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; output: string; stderr: string }> {
      const { status, stdout, stderr } = await runCli(args, home.dir, env);
      return { status, output: `${stdout}\n${stderr}`, stderr };
    }

    it('a refused key: exit 1, the message says to check the key, no secret printed', async () => {
      server.script([ECHOING_401]);
      const { status, output, stderr } = await recursa(['ask', '--vault', temp.dir, '--base-url', withCredentials(server.url, '/v1'), '--api-key', API_KEY, '--model', 'm', 'Hello']);
      expect(status).toBe(1);
      expect(stderr).toContain('Check --api-key (or RECURSA_API_KEY)');
      expect(stderr).toContain('http://***@127.0.0.1:');
      expectNoSecret(output);
    });

    it('a server error, with the settings from RECURSA_* variables: says to try again, no secret printed', async () => {
      server.script([500, 500, 500, 500].map((status) => ({ status: status as 500, body: { error: { message: `key ${API_KEY} failed` } } })));
      const { status, output, stderr } = await recursa(['ask', '--vault', temp.dir, 'Hello'], {
        RECURSA_BASE_URL: withCredentials(server.url, '/v1'),
        RECURSA_API_KEY: API_KEY,
        RECURSA_MODEL: 'm',
      });
      expect(status).toBe(1);
      expect(stderr).toContain('Try again');
      expectNoSecret(output);
    });

    it('a refused connection: says to check the base URL, no secret printed', async () => {
      const { status, output, stderr } = await recursa(['ask', '--vault', temp.dir, '--base-url', withCredentials(refused, '/v1'), '--api-key', API_KEY, '--model', 'm', 'Hello']);
      expect(status).toBe(1);
      expect(stderr).toContain('Check --base-url (or RECURSA_BASE_URL)');
      expectNoSecret(output);
    });

    it('bad arguments next to secrets: the usage error prints none of them', async () => {
      const { status, output } = await recursa(['ask', '--vault', temp.dir, '--base-url', withCredentials(server.url, '/v1'), '--api-key', API_KEY, '--model', 'm', '--provider', `gemini-${PASSWORD}`, 'Hello']);
      expect(status).toBe(2);
      expect(output).toContain('unknown provider');
      expectNoSecret(output);
    });
  });
});
