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
import type { Completion, CompletionUsage, LlmProvider, ProviderSettings } from './types';

/** Where OpenAI's API lives, when the settings name no base URL. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * A provider for OpenAI's Chat Completions API and the servers that copy it (Ollama, LM Studio,
 * llama.cpp, vLLM, OpenRouter…): POSTs to `${baseUrl}/chat/completions`, with a bearer key only
 * when one is set. Streams when the transport can (usage is asked for with
 * `stream_options.include_usage`); otherwise asks for the whole answer and calls `onText` once.
 *
 * @param retry how to wait between retries; tests pass a recording `sleep`.
 */
export function createOpenAiCompatibleProvider(settings: ProviderSettings, transport: HttpTransport, retry: RetryOptions = {}): LlmProvider {
  const baseUrl = (settings.baseUrl.trim() || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const apiKey = settings.apiKey?.trim() ?? '';
  const context = providerContext('openai', baseUrl, settings.model, apiKey, settings.hints);

  return {
    name: 'openai',
    model: settings.model,
    complete(request, options = {}) {
      const stream = transport.streams;
      const messages = [
        ...(request.system === '' ? [] : [{ role: 'system', content: request.system }]),
        ...request.messages.map(({ role, content }) => ({ role, content })),
      ];
      const body = {
        model: settings.model,
        messages,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop: request.stop }),
      };
      return postCompletion(
        transport,
        context,
        {
          url: `${baseUrl}/chat/completions`,
          headers: {
            'content-type': 'application/json',
            accept: stream ? 'text/event-stream' : 'application/json',
            ...(apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }),
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

/** Reads `data: {chat.completion.chunk}` events up to `data: [DONE]`. */
async function readStream(events: AsyncIterable<SseEvent>, onText: (delta: string) => void, context: ProviderContext): Promise<Completion> {
  let text = '';
  let usage: CompletionUsage | null = null;
  let finishReason: string | null = null;
  let done = false;
  for await (const event of events) {
    if (event.data === '[DONE]') {
      done = true;
      break;
    }
    const chunk = parseEventJson(event.data, context);
    const error = field(chunk, 'error');
    if ((error !== undefined && error !== null) || event.event === 'error') throw errorFromStreamEvent(chunk, context);
    const choices = field(chunk, 'choices');
    if (!Array.isArray(choices)) throw badResponse(context, 'a stream chunk without `choices`', event.data);
    const choice: unknown = choices[0];
    const content = field(field(choice, 'delta'), 'content');
    if (typeof content === 'string' && content !== '') {
      text += content;
      onText(content);
    }
    const reason = field(choice, 'finish_reason');
    if (typeof reason === 'string') finishReason = reason;
    usage = readUsage(field(chunk, 'usage')) ?? usage;
  }
  // Some servers end the stream without `[DONE]`; a finish reason shows the answer is complete.
  if (!done && finishReason === null) throw badResponse(context, 'a stream that ended before the answer was complete');
  return { text, usage, finishReason };
}

/** Reads a whole `chat.completion`. */
function readJson(json: unknown, context: ProviderContext): Completion {
  const choices = field(json, 'choices');
  if (!Array.isArray(choices) || choices.length === 0) throw badResponse(context, 'JSON without `choices`', JSON.stringify(json));
  const choice: unknown = choices[0];
  const content = field(field(choice, 'message'), 'content');
  const reason = field(choice, 'finish_reason');
  return {
    text: typeof content === 'string' ? content : '',
    usage: readUsage(field(json, 'usage')),
    finishReason: typeof reason === 'string' ? reason : null,
  };
}

function readUsage(value: unknown): CompletionUsage | null {
  const input = field(value, 'prompt_tokens');
  const output = field(value, 'completion_tokens');
  return typeof input === 'number' && typeof output === 'number' ? { inputTokens: input, outputTokens: output } : null;
}
