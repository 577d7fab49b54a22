import { ProviderError, type ProviderErrorKind } from '../errors/ProviderError';
import type { HttpTransport } from '../ports/http';
import { redactSecrets, secretsInUrl } from '../text/redactSecrets';
import { createProvider } from './createProvider';
import type { ProviderSettings } from './types';

export type ConnectionResult =
  | {
      ok: true;
      /** The model that answered, as the settings name it. */
      model: string;
      /** What it answered, shortened. */
      reply: string;
      elapsedMs: number;
    }
  | {
      ok: false;
      /** The same kinds as `ProviderError`: `auth`, `model-not-found`, `unreachable`… */
      kind: ProviderErrorKind;
      /** What happened and what to change, for the user. */
      message: string;
      /** The HTTP status, when the server answered. */
      status?: number;
    };

export interface TestConnectionOptions {
  /** Give up after this long. Default 20 s (a local server may be loading its model). */
  timeoutMs?: number;
  signal?: AbortSignal;
  now?: () => number;
}

const PROMPT = 'Reply with the single word OK.';
const MAX_REPLY_CHARS = 80;

/**
 * Sends one tiny request through the provider the settings describe (no retries, a few tokens)
 * and says whether it worked, or why not in the terms of `ProviderError`. Never throws.
 *
 * @example
 * const result = await testConnection({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' }, transport);
 * if (!result.ok) console.log(result.kind, result.message);
 */
export async function testConnection(settings: ProviderSettings, transport: HttpTransport, options: TestConnectionOptions = {}): Promise<ConnectionResult> {
  const now = options.now ?? Date.now;
  if (settings.model.trim() === '') {
    return { ok: false, kind: 'bad-request', message: 'No model is set. Enter the model name in Recursa\'s settings.' };
  }
  const begun = now();
  try {
    const provider = createProvider({ ...settings, maxRetries: 0, timeoutMs: options.timeoutMs ?? 20_000 }, transport);
    // Sent as the agent sends its own requests: OpenAI's reasoning models refuse `max_tokens` and
    // any temperature but the default, so only Anthropic (which requires it) gets a token limit.
    const completion = await provider.complete(
      { system: '', messages: [{ role: 'user', content: PROMPT }], ...(settings.kind === 'anthropic' ? { maxTokens: 16 } : {}) },
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const reply = completion.text.replace(/\s+/g, ' ').trim();
    return {
      ok: true,
      model: provider.model,
      reply: reply.length > MAX_REPLY_CHARS ? `${reply.slice(0, MAX_REPLY_CHARS - 1)}…` : reply,
      elapsedMs: Math.max(0, now() - begun),
    };
  } catch (error) {
    if (error instanceof ProviderError) {
      return { ok: false, kind: error.kind, message: error.message, ...(error.data.status === undefined ? {} : { status: error.data.status }) };
    }
    // Settings the provider refuses (an unknown kind) or a bug: still an answer, never a throw.
    const detail = redactSecrets(error instanceof Error ? error.message : String(error), [settings.apiKey, ...secretsInUrl(settings.baseUrl)]);
    return { ok: false, kind: 'bad-request', message: `The connection could not be tested: ${detail}` };
  }
}
