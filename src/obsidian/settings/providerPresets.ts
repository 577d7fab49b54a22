import type { ProviderSettings } from '../../core/llm/types';

/** The providers the settings offer, each with its wire format and defaults. */
export type ProviderPresetId = 'openai' | 'openrouter' | 'anthropic' | 'ollama' | 'lmstudio' | 'custom';

export interface ProviderPreset {
  id: ProviderPresetId;
  /** Shown in the dropdown. */
  label: string;
  /** The wire format (`createProvider`'s `kind`). */
  kind: ProviderSettings['kind'];
  baseUrl: string;
  model: string;
  /** Whether the provider refuses requests without a key (local servers do not need one). */
  needsKey: boolean;
  /** The secret a new install offers for this provider's key, in `app.secretStorage`. */
  secretId: string;
}

/** In dropdown order. */
export const PROVIDER_PRESET_IDS: readonly ProviderPresetId[] = ['openai', 'openrouter', 'anthropic', 'ollama', 'lmstudio', 'custom'];

export const PROVIDER_PRESETS: Readonly<Record<ProviderPresetId, ProviderPreset>> = {
  openai: {
    id: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-5-mini',
    needsKey: true,
    secretId: 'openai-api-key',
  },
  openrouter: {
    id: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'openai/gpt-5-mini',
    needsKey: true,
    secretId: 'openrouter-api-key',
  },
  anthropic: {
    id: 'anthropic',
    label: 'Anthropic',
    kind: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    model: 'claude-sonnet-4-5',
    needsKey: true,
    secretId: 'anthropic-api-key',
  },
  ollama: {
    id: 'ollama',
    label: 'Ollama',
    kind: 'openai',
    baseUrl: 'http://localhost:11434/v1',
    model: 'llama3.1',
    needsKey: false,
    secretId: '',
  },
  lmstudio: {
    id: 'lmstudio',
    label: 'LM Studio',
    kind: 'openai',
    baseUrl: 'http://localhost:1234/v1',
    model: 'qwen3-8b',
    needsKey: false,
    secretId: '',
  },
  custom: {
    id: 'custom',
    label: 'Custom (OpenAI-compatible)',
    kind: 'openai',
    baseUrl: 'http://localhost:8080/v1',
    model: '',
    needsKey: false,
    secretId: '',
  },
};

export function isProviderPresetId(value: unknown): value is ProviderPresetId {
  return typeof value === 'string' && (PROVIDER_PRESET_IDS as readonly string[]).includes(value);
}
