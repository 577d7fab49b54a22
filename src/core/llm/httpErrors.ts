import { ProviderError, type ProviderErrorDetails, type ProviderErrorKind } from '../errors/ProviderError';
import { PLUGIN_SETTING_HINTS, type SettingHints } from './settingHints';
import { redactSecrets, secretsInUrl } from '../text/redactSecrets';
import { HttpTransportError, type HttpRequest, type HttpResponse, type HttpTransport } from '../ports/http';
import { parseSse, type SseEvent } from './sse';
import type { Completion, CompletionOptions } from './types';

/** What a provider is talking to, for error messages. */
export interface ProviderContext {
  /** `openai`, `anthropic`. */
  provider: string;
  /** The base URL as the user set it (messages name it so they can find the setting). */
  baseUrl: string;
  model: string;
  hasKey: boolean;
  /** What must never appear in an error: the API key, the base URL's user name and password. */
  secrets?: readonly string[];
  /** Where the user changes the settings the messages point to. Default: the plugin's settings. */
  hints?: SettingHints;
}

/**
 * The context for messages about `baseUrl`: the URL as shown has its credentials and secret
 * parameters masked, and the key and those credentials are redacted wherever they turn up
 * (a server may echo them).
 */
export function providerContext(provider: string, baseUrl: string, model: string, apiKey: string, hints: SettingHints = PLUGIN_SETTING_HINTS): ProviderContext {
  const secrets = [apiKey, ...secretsInUrl(baseUrl)];
  return { provider, baseUrl: redactSecrets(baseUrl, secrets), model, hasKey: apiKey !== '', secrets, hints };
}

function hintsOf(context: ProviderContext): SettingHints {
  return context.hints ?? PLUGIN_SETTING_HINTS;
}

/** How a provider waits between retries; every field has a default (tests replace them). */
export interface RetryOptions {
  /** Waits `ms`; must reject at once when `signal` aborts. Default: a timer. Tests pass a recorder. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default `Math.random`. */
  random?: () => number;
}

/** The longest a `retry-after` makes us wait; a server asking for more gets this. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The first back-off after a 5xx or a failed connection; each next one doubles, up to `MAX_BACKOFF_MS`. */
export const BASE_BACKOFF_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/** The timeout when the settings give none. */
export const DEFAULT_TIMEOUT_MS = 120_000;

const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_QUOTED_CHARS = 200;

/** Waits `ms` milliseconds; rejects with an `AbortError` as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new HttpTransportError('aborted', 'aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new HttpTransportError('aborted', 'aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds or fails for good. A 429 waits as the server's `retry-after`
 * says (at most `MAX_RETRY_AFTER_MS`), else backs off like a 5xx; a 5xx or a failed connection
 * backs off exponentially with jitter; each at most `maxRetries` times. Other failures (4xx,
 * timeouts, bad answers) are thrown at once, and so is any failure after `canRetry()` turns false
 * (text was already shown to the user). Aborting `signal` ends a wait at once with `cancelled`.
 * Errors that are neither a `ProviderError` nor an `HttpTransportError` pass through untouched.
 */
export async function withRetries<T>(
  context: ProviderContext,
  attempt: () => Promise<T>,
  options: RetryOptions & {
    /** Default 3. */
    maxRetries?: number;
    signal?: AbortSignal;
    /** Asked before each retry; false makes the failure final. */
    canRetry?: () => boolean;
  },
): Promise<T> {
  const maxRetries = options.maxRetries ?? 3;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  for (let retry = 0; ; retry++) {
    if (options.signal?.aborted) throw cancelled(context);
    try {
      return await attempt();
    } catch (error) {
      // Anything else is a bug or the caller's own error (from `onText`): not ours to retry or reword.
      if (!(error instanceof ProviderError || error instanceof HttpTransportError || options.signal?.aborted)) throw error;
      const failure = toProviderError(error, context, options.signal);
      const delay = retry < maxRetries && (options.canRetry?.() ?? true) ? retryDelay(failure, retry, random) : null;
      if (delay === null) throw failure;
      try {
        await sleep(delay, options.signal);
      } catch (sleepError) {
        throw toProviderError(sleepError, context, options.signal);
      }
    }
  }
}

/** How long to wait before retry number `retry` (0-based) after `error`; null: do not retry. */
export function retryDelay(error: ProviderError, retry: number, random: () => number = Math.random): number | null {
  const backoff = (): number => Math.round(Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry) * (0.5 + random() / 2));
  if (error.data.retryable === false) return null;
  switch (error.kind) {
    case 'rate-limit':
      return error.data.retryAfterMs === undefined ? backoff() : Math.min(error.data.retryAfterMs, MAX_RETRY_AFTER_MS);
    case 'server':
    case 'unreachable':
      return backoff();
    default:
      return null;
  }
}

/** One completion over HTTP, as a provider describes it to `postCompletion`. */
export interface CompletionCall {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Whether the body asked for a stream (the server may still answer with plain JSON). */
  stream: boolean;
  timeoutMs: number;
  maxRetries: number;
  /** Reads a streamed answer, calling `onText` with each piece of text. */
  readStream(events: AsyncIterable<SseEvent>, onText: (delta: string) => void): Promise<Completion>;
  /** Reads a whole JSON answer. */
  readJson(json: unknown): Completion;
}

/**
 * POSTs a completion request with retries, and reads the answer as a stream (SSE) or as one JSON
 * document, whichever the server sent. A failure is retried only while no text has reached
 * `onText`, so the user never sees a piece of text twice.
 */
export async function postCompletion(
  transport: HttpTransport,
  context: ProviderContext,
  call: CompletionCall,
  options: CompletionOptions,
  hooks: RetryOptions,
): Promise<Completion> {
  const { signal } = options;
  let delivered = false;
  const onText = (delta: string): void => {
    // Events already parsed from the last chunk must not reach the caller after it cancelled.
    if (signal?.aborted) throw cancelled(context);
    if (delta === '') return;
    delivered = true;
    options.onText?.(delta);
  };
  const attempt = async (): Promise<Completion> => {
    const response = await send(
      transport,
      { url: call.url, method: 'POST', headers: call.headers, body: call.body, signal, timeoutMs: call.timeoutMs },
      context,
    );
    const contentType = (response.headers['content-type'] ?? '').toLowerCase();
    if (contentType.includes('text/html')) {
      throw badResponse(context, 'a web page', await readBodyText(response.body, 2048));
    }
    if (call.stream && !contentType.includes('json')) return call.readStream(parseSse(response.body), onText);
    const text = await readBodyText(response.body);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badResponse(context, 'something that is not JSON', text);
    }
    const completion = call.readJson(json);
    onText(completion.text);
    return completion;
  };
  return withRetries(context, attempt, { ...hooks, maxRetries: call.maxRetries, signal, canRetry: () => !delivered });
}

/** Parses one SSE `data:` payload, which must be JSON. */
export function parseEventJson(data: string, context: ProviderContext): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw badResponse(context, 'a stream event that is not JSON', data);
  }
}

/** The `ProviderError` for an error the server reported inside a stream (after a 200). */
export function errorFromStreamEvent(json: unknown, context: ProviderContext): ProviderError {
  const error = field(json, 'error');
  const code = field(error, 'code');
  const type = field(error, 'type');
  const status = (typeof code === 'string' ? STREAM_ERROR_STATUS[code] : undefined) ?? (typeof type === 'string' ? STREAM_ERROR_STATUS[type] : undefined) ?? 500;
  return errorFromStatus(status, JSON.stringify(json), {}, context);
}

/** The HTTP status each error type stands for (Anthropic's types, and OpenAI's codes where they differ). */
const STREAM_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  invalid_api_key: 401,
  permission_error: 403,
  not_found_error: 404,
  model_not_found: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  api_error: 500,
  server_error: 500,
  overloaded_error: 529,
};

/**
 * Sends `request`, and returns the response when its status is 2xx; any other status becomes the
 * matching `ProviderError` (the body is read for the server's message), and so does a transport
 * failure.
 */
export async function send(transport: HttpTransport, request: HttpRequest, context: ProviderContext): Promise<HttpResponse> {
  let response: HttpResponse;
  try {
    response = await transport.request(request);
  } catch (error) {
    throw toProviderError(error, context, request.signal);
  }
  if (response.status >= 200 && response.status < 300) return response;
  let body = '';
  try {
    body = await readBodyText(response.body, MAX_ERROR_BODY_BYTES);
  } catch {
    // The status says enough; a body that breaks off only loses the server's wording.
    if (request.signal?.aborted) throw cancelled(context);
  }
  throw errorFromStatus(response.status, body, response.headers, context);
}

/** The whole body as text (UTF-8), or its first `maxBytes` bytes. */
export async function readBodyText(body: AsyncIterable<Uint8Array>, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let bytes = 0;
  for await (const chunk of body) {
    const room = maxBytes - bytes;
    text += decoder.decode(chunk.length > room ? chunk.subarray(0, room) : chunk, { stream: true });
    bytes += chunk.length;
    if (bytes >= maxBytes) break;
  }
  return text + decoder.decode();
}

/** The `ProviderError` for an HTTP status that is not 2xx, given the body and headers it came with. */
export function errorFromStatus(status: number, body: string, headers: Record<string, string>, context: ProviderContext): ProviderError {
  const { serverMessage, code } = parseErrorBody(body);
  const base = { status, url: context.baseUrl, model: context.model, provider: context.provider, serverMessage };
  const said = serverMessage === undefined ? '' : ` The server said: "${serverMessage}".`;
  const url = context.baseUrl;
  const hints = hintsOf(context);
  if (status === 401 || status === 403) {
    const message = context.hasKey
      ? `The API key was refused (${status}) by ${url}. ${hints.checkKey}${said}`
      : `${url} requires an API key (${status}). ${hints.addKey}${said}`;
    return providerError(context, 'auth', message, base);
  }
  if (status === 404 || (status >= 400 && status < 500 && status !== 429 && mentionsMissingModel(serverMessage, code))) {
    return providerError(context, 
      'model-not-found',
      `The model "${context.model}" was not found at ${url} (${status}). ${hints.checkModel}${said}`,
      base,
    );
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers);
    if (code === 'insufficient_quota') {
      return providerError(context, 
        'rate-limit',
        `${url} refused the request for lack of quota (429). Check your plan and billing with the provider.${said}`,
        { ...base, retryable: false },
      );
    }
    return providerError(context, 
      'rate-limit',
      `${url} is limiting requests (429). Wait a minute and try again, or check your plan's rate limits.${said}`,
      { ...base, retryAfterMs },
    );
  }
  if (status === 408) {
    return providerError(context, 'timeout', `${url} timed out waiting for the request (408). Try again.${said}`, base);
  }
  if (status >= 400 && status < 500) {
    return providerError(context, 
      'bad-request',
      `${url} rejected the request (${status})${serverMessage === undefined ? '' : `: "${serverMessage}"`}. ${hints.checkRequest}`,
      base,
    );
  }
  if (status >= 500) {
    return providerError(context, 'server', `${url} had a server error (${status}). Try again in a moment.${said}`, base);
  }
  return providerError(context, 'bad-response', `${url} answered with an unexpected status (${status}). ${hints.checkBaseUrl}.`, base);
}

/**
 * Any failure during a request as a `ProviderError`: one passes through; a transport failure gets
 * its kind; anything after `signal` aborted is `cancelled`.
 */
export function toProviderError(error: unknown, context: ProviderContext, signal?: AbortSignal): ProviderError {
  if (signal?.aborted) return cancelled(context);
  if (error instanceof ProviderError) return error;
  const base = { url: context.baseUrl, model: context.model, provider: context.provider };
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof HttpTransportError) {
    switch (error.kind) {
      case 'aborted':
        return cancelled(context);
      case 'timeout':
        return providerError(context, 
          'timeout',
          `No answer from ${context.baseUrl} in time (${detail}). The server may be busy or still loading the model; try again${hintsOf(context).raiseTimeout}.`,
          { ...base, transport: 'timeout' },
        );
      case 'broken':
        return providerError(context, 'server', `The connection to ${context.baseUrl} broke (${detail}). Try again in a moment.`, {
          ...base,
          transport: 'broken',
        });
      case 'unreachable':
        break;
    }
  }
  return providerError(context, 
    'unreachable',
    `Could not reach ${context.baseUrl} (${detail}). ${hintsOf(context).checkBaseUrl} and that the server is running.`,
    { ...base, transport: 'unreachable' },
  );
}

/** An answer that is not what the wire format promises: a web page, truncated JSON, a missing field. */
export function badResponse(context: ProviderContext, what: string, sample?: string): ProviderError {
  const shown = sample === undefined ? '' : ` It began: "${shorten(sample)}".`;
  return providerError(context, 
    'bad-response',
    `${context.baseUrl} sent ${what}, not ${context.provider === 'anthropic' ? 'an Anthropic Messages' : 'an OpenAI-compatible'} answer.${shown} ${hintsOf(context).checkProvider}`,
    { url: context.baseUrl, model: context.model, provider: context.provider },
  );
}

/** The error for a request the caller cancelled. */
export function cancelled(context: ProviderContext): ProviderError {
  return providerError(context, 'cancelled', `The request to ${context.baseUrl} was cancelled.`, {
    url: context.baseUrl,
    model: context.model,
    provider: context.provider,
  });
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date, in milliseconds (never negative). */
export function parseRetryAfter(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers['retry-after']?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The server's own message and error code, from OpenAI's, Anthropic's, Ollama's or FastAPI's error shape. */
function parseErrorBody(body: string): { serverMessage?: string; code?: string } {
  const text = body.trim();
  if (text === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page or a plain-text error; quote it only when it is short text.
    return text.startsWith('<') ? {} : { serverMessage: shorten(text) };
  }
  const error = field(json, 'error');
  const message = field(error, 'message') ?? (typeof error === 'string' ? error : undefined) ?? field(json, 'message') ?? field(json, 'detail');
  const code = field(error, 'code') ?? field(error, 'type');
  return {
    ...(typeof message === 'string' ? { serverMessage: shorten(message) } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

function mentionsMissingModel(message: string | undefined, code: string | undefined): boolean {
  if (code === 'model_not_found' || code === 'not_found_error') return true;
  if (message === undefined) return false;
  return /model/i.test(message) && /(not found|does not exist|doesn't exist|not exist|unknown|no such|not available)/i.test(message);
}

/** `value[name]` when `value` is an object, else undefined. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_QUOTED_CHARS ? flat : `${flat.slice(0, MAX_QUOTED_CHARS - 1)}…`;
}

/** A `ProviderError` whose message, URL and quoted server message carry none of the context's secrets. */
function providerError(context: ProviderContext, kind: ProviderErrorKind, message: string, details: ProviderErrorDetails): ProviderError {
  const secrets = context.secrets ?? [];
  return new ProviderError(kind, redactSecrets(message, secrets), {
    ...details,
    ...(details.url === undefined ? {} : { url: redactSecrets(details.url, secrets) }),
    ...(details.serverMessage === undefined ? {} : { serverMessage: redactSecrets(details.serverMessage, secrets) }),
  });
}
