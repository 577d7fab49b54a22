import type { AgentBudgets } from '../core/agent/budgets';
import type { ProviderSettings } from '../core/llm/types';
import type { AgentSettings } from './createAgent';

/** What the plugin keeps in `data.json`. (The API key is never here: it lives in secret storage.) */
export interface RecursaSettings {
  provider: Omit<ProviderSettings, 'apiKey'>;
  /** The id of the API key in `app.secretStorage`; '' for providers that need none. */
  apiKeySecret: string;
  customInstructions: string;
  budgets: Partial<AgentBudgets>;
}

/** A local Ollama, which needs no key, until the user picks a provider. */
export const DEFAULT_SETTINGS: RecursaSettings = {
  provider: { kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' },
  apiKeySecret: '',
  customInstructions: '',
  budgets: {},
};

/** The saved settings over the defaults; anything unreadable falls back to its default. */
export function readSettings(data: unknown): RecursaSettings {
  const saved = typeof data === 'object' && data !== null ? (data as Partial<RecursaSettings>) : {};
  const provider = typeof saved.provider === 'object' && saved.provider !== null ? saved.provider : {};
  return {
    provider: { ...DEFAULT_SETTINGS.provider, ...provider },
    apiKeySecret: typeof saved.apiKeySecret === 'string' ? saved.apiKeySecret : DEFAULT_SETTINGS.apiKeySecret,
    customInstructions: typeof saved.customInstructions === 'string' ? saved.customInstructions : DEFAULT_SETTINGS.customInstructions,
    budgets: typeof saved.budgets === 'object' && saved.budgets !== null ? { ...saved.budgets } : {},
  };
}

/** The agent's settings, with the key read from secret storage at the moment of use. */
export function agentSettingsOf(settings: RecursaSettings, getSecret: (id: string) => string | null): AgentSettings {
  const apiKey = settings.apiKeySecret === '' ? null : getSecret(settings.apiKeySecret);
  return {
    provider: { ...settings.provider, ...(apiKey === null ? {} : { apiKey }) },
    customInstructions: settings.customInstructions,
    budgets: settings.budgets,
  };
}
