import { InvalidArgumentError } from '../errors/InvalidArgumentError';
import type { HttpTransport } from '../ports/http';
import { createAnthropicProvider } from './anthropic';
import type { RetryOptions } from './httpErrors';
import { createOpenAiCompatibleProvider } from './openaiCompatible';
import type { LlmProvider, ProviderSettings } from './types';

/**
 * The provider for `settings.kind`: `openai` for OpenAI and every server that speaks its Chat
 * Completions format (Ollama, LM Studio, llama.cpp…), `anthropic` for Anthropic's Messages API.
 *
 * @param retry how to wait between retries; tests pass a recording `sleep`.
 */
export function createProvider(settings: ProviderSettings, transport: HttpTransport, retry: RetryOptions = {}): LlmProvider {
  switch (settings.kind) {
    case 'openai':
      return createOpenAiCompatibleProvider(settings, transport, retry);
    case 'anthropic':
      return createAnthropicProvider(settings, transport, retry);
  }
  // Settings are read from a file the user may have edited.
  throw new InvalidArgumentError('settings.kind', '"openai" or "anthropic"', JSON.stringify((settings as { kind: unknown }).kind));
}
