import { COMMAND_LINE_HINTS } from '../core/llm/settingHints';
import type { ProviderSettings } from '../core/llm/types';

/** Where each provider is reached when no base URL is given. */
export const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

/** The command-line values that name the model. */
export interface ProviderFlagValues {
  provider?: string;
  'base-url'?: string;
  model?: string;
  'api-key'?: string;
  protocol?: string;
}

/** The environment variables that stand in for the flags. */
export interface ProviderEnv {
  RECURSA_PROVIDER?: string;
  RECURSA_BASE_URL?: string;
  RECURSA_MODEL?: string;
  RECURSA_API_KEY?: string;
  RECURSA_PROTOCOL?: string;
}

export type ProviderFlagsResult = { ok: true; provider: ProviderSettings } | { ok: false; message: string };

/**
 * The provider settings from the flags, each falling back to its `RECURSA_*` variable: `--provider`
 * (openai, the default, or anthropic), `--base-url` (default: the provider's own), `--model`
 * (required), `--api-key` and `--protocol` (code, the default, or actions). A message for the
 * first bad or missing one otherwise.
 */
export function providerFromFlags(values: ProviderFlagValues, env: ProviderEnv): ProviderFlagsResult {
  const kind = values.provider ?? env.RECURSA_PROVIDER ?? 'openai';
  if (kind !== 'openai' && kind !== 'anthropic') return { ok: false, message: `unknown provider "${kind}" (use openai or anthropic)` };
  const model = values.model ?? env.RECURSA_MODEL;
  if (model === undefined || model.trim() === '') return { ok: false, message: '--model (or RECURSA_MODEL) is required' };
  const protocol = values.protocol ?? env.RECURSA_PROTOCOL ?? 'code';
  if (protocol !== 'code' && protocol !== 'actions') return { ok: false, message: `unknown protocol "${protocol}" (use code or actions)` };
  return {
    ok: true,
    provider: {
      kind,
      baseUrl: values['base-url'] ?? env.RECURSA_BASE_URL ?? DEFAULT_BASE_URL[kind],
      model,
      apiKey: values['api-key'] ?? env.RECURSA_API_KEY,
      protocol,
      hints: COMMAND_LINE_HINTS,
    },
  };
}

/** Whether any flag or variable names a model, i.e. the caller wants the agent. */
export function modelRequested(values: ProviderFlagValues, env: ProviderEnv): boolean {
  return values.model !== undefined || (env.RECURSA_MODEL ?? '') !== '' || values.provider !== undefined || values['base-url'] !== undefined;
}
