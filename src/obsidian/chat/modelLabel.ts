import { PROVIDER_PRESETS, type RecursaSettings } from '../settings/pluginSettings';

/** What answers in the chat, as the empty state shows it: `OpenAI · gpt-4o-mini`. */
export function modelLabel(settings: Pick<RecursaSettings, 'provider' | 'providers'>): string {
  const model = settings.providers[settings.provider].model.trim();
  const provider = PROVIDER_PRESETS[settings.provider].label;
  return model === '' ? `${provider} · no model chosen` : `${provider} · ${model}`;
}
