import type { HttpTransport } from '../ports/http';
import {
  DEFAULT_TIMEOUT_MS,
  badResponse,
  errorFromStreamEvent,
  field,
  parseEventJson,
  postCompletion,
  providerContext,
  type ProviderContext,
  type RetryOptions,
} from './httpErrors';
import type { SseEvent } from './sse';
import type { Completion, LlmProvider, ProviderSettings } from './types';

/** Where Anthropic's API lives, when the settings name no base URL. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** The API version every request names; the wire format below is this version's. */
export const ANTHROPIC_VERSION = '2023-06-01';
/** `max_tokens` is required by the Messages API; this is sent when the request names none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * A provider for Anthropic's Messages API: POSTs to `${baseUrl}/v1/messages` (a base URL that
 * already ends in `/v1` is not given a second one), with `x-api-key` when a key is set and
 * `anthropic-version`. The system prompt goes in `system`; `system` messages inside the
 * conversation, which the API refuses there, are appended to it. Streams when the transport can;
 * otherwise asks for the whole answer and calls `onText` once.
 *
 * @param retry how to wait between retries; tests pass a recording `sleep`.
 */
export function createAnthropicProvider(settings: ProviderSettings, transport: HttpTransport, retry: RetryOptions = {}): LlmProvider {
  const baseUrl = (settings.baseUrl.trim() || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const apiKey = settings.apiKey?.trim() ?? '';
  const context = providerContext('anthropic', baseUrl, settings.model, apiKey, settings.hints);
  const url = baseUrl.endsWith('/v1') ? `${baseUrl}/messages` : `${baseUrl}/v1/messages`;

  return {
    name: 'anthropic',
    model: settings.model,
    complete(request, options = {}) {
      const stream = transport.streams;
      const system = [request.system, ...request.messages.filter((m) => m.role === 'system').map((m) => m.content)]
        .filter((part) => part !== '')
        .join('\n\n');
      const body = {
        model: settings.model,
        ...(system === '' ? {} : { system }),
        messages: request.messages.filter((m) => m.role !== 'system').map(({ role, content }) => ({ role, content })),
        max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
        stream,
        ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop_sequences: request.stop }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      };
      return postCompletion(
        transport,
        context,
        {
          url,
          headers: {
            'content-type': 'application/json',
            accept: stream ? 'text/event-stream' : 'application/json',
            'anthropic-version': ANTHROPIC_VERSION,
            ...(apiKey === '' ? {} : { 'x-api-key': apiKey }),
          },
          body: JSON.stringify(body),
          stream,
          timeoutMs: settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxRetries: settings.maxRetries ?? 3,
          readStream: (events, onText) => readStream(events, onText, context),
          readJson: (json) => readJson(json, context),
        },
        options,
        retry,
      );
    },
  };
}

/** Reads `message_start`, `content_block_delta`, `message_delta` up to `message_stop`. */
async function readStream(events: AsyncIterable<SseEvent>, onText: (delta: string) => void, context: ProviderContext): Promise<Completion> {
  let text = '';
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let finishReason: string | null = null;
  let started = false;
  for await (const event of events) {
    const json = parseEventJson(event.data, context);
    const type = field(json, 'type') ?? event.event;
    switch (type) {
      case 'message_start': {
        started = true;
        const usage = field(field(json, 'message'), 'usage');
        inputTokens = numberOr(field(usage, 'input_tokens'), inputTokens);
        outputTokens = numberOr(field(usage, 'output_tokens'), outputTokens);
        break;
      }
      case 'content_block_delta': {
        const delta = field(json, 'delta');
        const piece = field(delta, 'text');
        if (field(delta, 'type') === 'text_delta' && typeof piece === 'string' && piece !== '') {
          text += piece;
          onText(piece);
        }
        break;
      }
      case 'message_delta': {
        const reason = field(field(json, 'delta'), 'stop_reason');
        if (typeof reason === 'string') finishReason = reason;
        const usage = field(json, 'usage');
        inputTokens = numberOr(field(usage, 'input_tokens'), inputTokens);
        outputTokens = numberOr(field(usage, 'output_tokens'), outputTokens);
        break;
      }
      case 'message_stop':
        return { text, usage: usageOf(inputTokens, outputTokens), finishReason };
      case 'error':
        throw errorFromStreamEvent(json, context);
      default:
        // `ping`, `content_block_start`/`_stop`, and event types added after this version.
        break;
    }
  }
  throw badResponse(context, started ? 'a stream that ended before the answer was complete' : 'a stream without `message_start`');
}

/** Reads a whole `message`: the text blocks joined, usage, stop reason. */
function readJson(json: unknown, context: ProviderContext): Completion {
  const content = field(json, 'content');
  if (!Array.isArray(content)) throw badResponse(context, 'JSON without `content`', JSON.stringify(json));
  const text = content
    .filter((block) => field(block, 'type') === 'text')
    .map((block) => field(block, 'text'))
    .filter((piece): piece is string => typeof piece === 'string')
    .join('');
  const usage = field(json, 'usage');
  const reason = field(json, 'stop_reason');
  return {
    text,
    usage: usageOf(numberOr(field(usage, 'input_tokens'), null), numberOr(field(usage, 'output_tokens'), null)),
    finishReason: typeof reason === 'string' ? reason : null,
  };
}

function numberOr(value: unknown, fallback: number | null): number | null {
  return typeof value === 'number' ? value : fallback;
}

function usageOf(inputTokens: number | null, outputTokens: number | null): Completion['usage'] {
  return inputTokens === null || outputTokens === null ? null : { inputTokens, outputTokens };
}
