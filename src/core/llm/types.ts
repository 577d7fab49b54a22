import type { SettingHints } from './settingHints';

/** One message of a conversation as providers see it. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  /** The system prompt; providers place it as their wire format wants (a message, or Anthropic's `system`). */
  system: string;
  messages: ChatMessage[];
  /** Most tokens the model may produce. */
  maxTokens?: number;
  temperature?: number;
  /** Strings that end the answer early. */
  stop?: string[];
}

export interface CompletionOptions {
  signal?: AbortSignal;
  /** Called with each piece of text as it streams (once with the whole text when the transport cannot stream). */
  onText?: (delta: string) => void;
}

export interface CompletionUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface Completion {
  text: string;
  /** Token counts the provider reported; null when it reported none. */
  usage: CompletionUsage | null;
  /** Why the model stopped, as the provider said it (`stop`, `length`, `end_turn`, `max_tokens`…). */
  finishReason: string | null;
}

/** An LLM behind one interface, whatever its wire format. */
export interface LlmProvider {
  /** e.g. `openai`, `anthropic`; for messages and logs. */
  readonly name: string;
  readonly model: string;
  complete(request: CompletionRequest, options?: CompletionOptions): Promise<Completion>;
}

/** Which provider settings the user chose. */
export interface ProviderSettings {
  kind: 'openai' | 'anthropic';
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`, `https://api.anthropic.com`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per-request timeout. Default 120 s. */
  timeoutMs?: number;
  /** Retries after 429 and 5xx. Default 3. */
  maxRetries?: number;
  /**
   * How the model acts: `code` (the default: TypeScript in `<typescript>`) or `actions` (simple XML
   * actions over working memory and storage, for small local models).
   */
  protocol?: 'code' | 'actions';
  /** Where the user sets these (messages point there). Default: the plugin's settings. */
  hints?: SettingHints;
}
