import { describe, expect, it } from 'vitest';
import { agentSettingsOf, DEFAULT_SETTINGS, readSettings } from '../../../src/obsidian/pluginSettings';

describe('readSettings', () => {
  it('gives the defaults for nothing saved or something unreadable', () => {
    expect(readSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(readSettings('garbage')).toEqual(DEFAULT_SETTINGS);
    expect(readSettings({ provider: 7, apiKeySecret: 3, budgets: 'x' })).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps what was saved over the defaults', () => {
    const settings = readSettings({ provider: { baseUrl: 'https://api.example.com/v1' }, apiKeySecret: 'openai-key', budgets: { maxTurns: 3 } });
    expect(settings.provider).toEqual({ ...DEFAULT_SETTINGS.provider, baseUrl: 'https://api.example.com/v1' });
    expect(settings.apiKeySecret).toBe('openai-key');
    expect(settings.budgets).toEqual({ maxTurns: 3 });
  });
});

describe('agentSettingsOf', () => {
  it('reads the API key from secret storage at the moment of use', () => {
    const settings = readSettings({ apiKeySecret: 'openai-key' });
    expect(agentSettingsOf(settings, (id) => (id === 'openai-key' ? 'sk-secret' : null)).provider.apiKey).toBe('sk-secret');
    expect(agentSettingsOf(settings, () => null).provider.apiKey).toBeUndefined();
    expect(agentSettingsOf(readSettings(null), () => 'never asked').provider.apiKey).toBeUndefined();
  });
});
