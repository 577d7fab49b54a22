import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGETS } from '../../../../src/core/agent/budgets';
import {
  defaultSettings,
  loadSettings,
  NUMBER_LIMITS,
  parseProtectedFolders,
  PROVIDER_PRESET_IDS,
  PROVIDER_PRESETS,
  readApiKey,
  readBaseUrl,
  resetCurrentProvider,
  selectProvider,
  settingsFromData,
  settingsToSave,
  toAgentSettings,
  toMemOptions,
  toProviderSettings,
  updateCurrentProvider,
  type RecursaSettings,
} from '../../../../src/obsidian/settings/pluginSettings';

/** A secret store as `app.secretStorage` behaves: ids to values. */
function secretStore(entries: Record<string, string>): { getSecret(id: string): string | null } {
  return { getSecret: (id) => entries[id] ?? null };
}

describe('defaultSettings', () => {
  it('starts on OpenAI with the code protocol, markers on, and the memory defaults', () => {
    const settings = defaultSettings();
    expect(settings.provider).toBe('openai');
    expect(settings.providers.openai).toEqual({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-5-mini', protocol: 'code', apiKeySecret: 'openai-api-key' });
    expect(settings.budgets).toEqual(DEFAULT_BUDGETS);
    expect(settings).toMatchObject({
      changeMarkers: true,
      logseqMode: 'auto',
      memoryFolder: 'Memories/',
      workingMemoryCharLimit: 2048,
      workingMemoryChildLimit: 8,
      protectedFolders: [],
      editProtectedFiles: false,
      customInstructions: '',
    });
  });

  it('has a preset for each provider the issue names, local ones without a key', () => {
    expect(PROVIDER_PRESET_IDS.map((id) => PROVIDER_PRESETS[id].label)).toEqual([
      'OpenAI',
      'OpenRouter',
      'Anthropic',
      'Ollama',
      'LM Studio',
      'Custom (OpenAI-compatible)',
    ]);
    expect(PROVIDER_PRESETS.anthropic).toMatchObject({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com' });
    expect(PROVIDER_PRESETS.ollama).toMatchObject({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', needsKey: false });
    expect(PROVIDER_PRESETS.lmstudio).toMatchObject({ kind: 'openai', baseUrl: 'http://localhost:1234/v1', needsKey: false });
    expect(PROVIDER_PRESETS.openrouter).toMatchObject({ kind: 'openai', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true });
  });

  it('returns a new object each time', () => {
    const a = defaultSettings();
    a.providers.openai.model = 'changed';
    a.protectedFolders.push('x');
    expect(defaultSettings().providers.openai.model).toBe('gpt-5-mini');
    expect(defaultSettings().protectedFolders).toEqual([]);
  });
});

describe('loadSettings', () => {
  describe('when there is no file yet', () => {
    it('gives the defaults, and asks to save them', () => {
      expect(loadSettings(null)).toEqual({ settings: defaultSettings(), plainTextKey: null, changed: true });
      expect(loadSettings(undefined).settings).toEqual(defaultSettings());
    });
  });

  describe('when the file is what the plugin saved', () => {
    it('reads it back unchanged', () => {
      const saved = updateCurrentProvider(selectProvider(defaultSettings(), 'ollama'), { model: 'qwen3:8b', protocol: 'actions' });
      saved.protectedFolders = ['Private', 'Journal/2024'];
      saved.budgets.maxTurns = 25;
      const loaded = loadSettings(JSON.parse(JSON.stringify(saved)));
      expect(loaded).toEqual({ settings: saved, plainTextKey: null, changed: false });
    });
  });

  describe('when fields are corrupt', () => {
    it('falls back field by field and keeps the good ones', () => {
      const { settings } = loadSettings({
        provider: 'skynet',
        providers: {
          openai: { baseUrl: 'ftp://example.com', model: 42, protocol: 'telepathy', apiKeySecret: 'Has Spaces!' },
          anthropic: { baseUrl: 'https://proxy.example.com/anthropic/', model: 'claude-x', protocol: 'actions', apiKeySecret: 'work-anthropic' },
        },
        budgets: { maxTurns: 'many', timeMs: -5, maxTokens: 1e99, contextTokens: '50000' },
        gitAuthor: { name: 'Eve <evil@x>\n', email: 42 },
        logseqMode: 'sometimes',
        protectedFolders: ['../etc', '/abs', 'Private/', 'Private', '.obsidian', '', 7, 'Work//Clients'],
        customInstructions: { text: 'no' },
        changeMarkers: 'yes',
        editProtectedFiles: 'yes',
        memoryFolder: '../outside',
        workingMemoryNote: 'Scratch/Working',
        workingMemoryCharLimit: 10,
        actionLogSize: Number.NaN,
        somethingElse: true,
      });
      const defaults = defaultSettings();
      expect(settings.provider).toBe('openai');
      expect(settings.providers.openai).toEqual(defaults.providers.openai);
      expect(settings.providers.anthropic).toEqual({ baseUrl: 'https://proxy.example.com/anthropic', model: 'claude-x', protocol: 'actions', apiKeySecret: 'work-anthropic' });
      expect(settings.budgets).toEqual({
        ...DEFAULT_BUDGETS,
        timeMs: NUMBER_LIMITS.timeMs.min,
        maxTokens: NUMBER_LIMITS.maxTokens.max,
        contextTokens: 50_000,
      });
      expect(settings.gitAuthor).toEqual({ name: 'Eve evil@x', email: 'recursa@localhost' });
      expect(settings.logseqMode).toBe('auto');
      expect(settings.protectedFolders).toEqual(['Private', 'Work/Clients']);
      expect(settings.customInstructions).toBe('');
      expect(settings.changeMarkers).toBe(true);
      expect(settings.editProtectedFiles).toBe(false);
      expect(settings.memoryFolder).toBe('Memories/');
      expect(settings.workingMemoryNote).toBe('Scratch/Working.md');
      expect(settings.workingMemoryCharLimit).toBe(NUMBER_LIMITS.workingMemoryCharLimit.min);
      expect(settings.actionLogSize).toBe(defaults.actionLogSize);
      expect(settings).not.toHaveProperty('somethingElse');
    });

    it('never throws and always returns settings it would read back unchanged', () => {
      fc.assert(
        fc.property(fc.oneof(fc.jsonValue(), fc.object({ withNullPrototype: true })), (raw) => {
          const { settings } = loadSettings(raw);
          const again = loadSettings(JSON.parse(JSON.stringify(settings)));
          expect(again.settings).toEqual(settings);
          expect(again.changed).toBe(false);
        }),
        { numRuns: 300 },
      );
    });

    it('survives hostile shapes: prototypes, getters that throw, huge arrays', () => {
      const throwing = Object.defineProperty({}, 'provider', {
        get() {
          throw new Error('boom');
        },
        enumerable: true,
      });
      expect(loadSettings(throwing)).toEqual({ settings: defaultSettings(), plainTextKey: null, changed: true });
      expect(loadSettings(JSON.parse('{"__proto__": {"provider": "anthropic"}, "constructor": 1}')).settings.provider).toBe('openai');
      expect(loadSettings({ protectedFolders: Array.from({ length: 50_000 }, (_, i) => `F${i}`) }).settings.protectedFolders).toHaveLength(1_000);
      expect(loadSettings([1, 2, 3]).settings).toEqual(defaultSettings());
      expect(loadSettings('a string').settings).toEqual(defaultSettings());
    });
  });

  describe('when the file holds an API key in plain text', () => {
    it('returns it for secret storage and drops it from the settings', () => {
      const loaded = loadSettings({ provider: 'anthropic', apiKey: ' sk-ant-secret ' });
      expect(loaded.plainTextKey).toEqual({ provider: 'anthropic', key: 'sk-ant-secret' });
      expect(loaded.changed).toBe(true);
      expect(JSON.stringify(loaded.settings)).not.toContain('sk-ant-secret');
    });

    it('finds a key put inside a provider entry', () => {
      const loaded = loadSettings({ providers: { openrouter: { model: 'x/y', apiKey: 'sk-or-123' } } });
      expect(loaded.plainTextKey).toEqual({ provider: 'openrouter', key: 'sk-or-123' });
      expect(JSON.stringify(loaded.settings)).not.toContain('sk-or-123');
      expect(loaded.settings.providers.openrouter.model).toBe('x/y');
    });
  });
});

describe('settingsToSave', () => {
  it('drops whatever a caller attached, a key included', () => {
    const settings = defaultSettings() as RecursaSettings & { apiKey?: string };
    settings.apiKey = 'sk-leak';
    (settings.providers.openai as { apiKey?: string }).apiKey = 'sk-leak-2';
    const text = JSON.stringify(settingsToSave(settings));
    expect(text).not.toContain('sk-leak');
    expect(JSON.parse(text)).toEqual(defaultSettings());
  });
});

describe('readBaseUrl', () => {
  it('accepts http and https URLs, without trailing slashes', () => {
    expect(readBaseUrl(' https://api.example.com/v1/ ')).toBe('https://api.example.com/v1');
    expect(readBaseUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it('refuses other schemes, garbage and URLs that carry credentials', () => {
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', '', 42, null, 'https://user:sk-secret@api.example.com/v1']) {
      expect(readBaseUrl(bad), String(bad)).toBeNull();
    }
  });
});

describe('parseProtectedFolders', () => {
  it('reads one folder per line or comma, normalized and without duplicates', () => {
    expect(parseProtectedFolders('Private\n Journal/ , Work\\Clients\n\nPrivate')).toEqual(['Private', 'Journal', 'Work/Clients']);
  });

  it('drops traversal, absolute paths and the folders that are always protected', () => {
    expect(parseProtectedFolders(['../x', '/etc', 'C:\\Windows', '.git', '.obsidian/plugins', 'ok'])).toEqual(['ok']);
  });
});

describe('selectProvider and updateCurrentProvider', () => {
  it('keeps each provider\'s own settings when switching back and forth', () => {
    let settings = updateCurrentProvider(defaultSettings(), { model: 'gpt-custom' });
    settings = selectProvider(settings, 'ollama');
    settings = updateCurrentProvider(settings, { model: 'mistral', protocol: 'actions' });
    settings = selectProvider(settings, 'openai');
    expect(settings.providers.openai.model).toBe('gpt-custom');
    expect(settings.providers.ollama).toMatchObject({ model: 'mistral', protocol: 'actions' });
  });

  it('resets the current provider to its preset', () => {
    const settings = resetCurrentProvider(updateCurrentProvider(selectProvider(defaultSettings(), 'lmstudio'), { baseUrl: 'http://x:1', model: 'm', protocol: 'actions' }));
    expect(settings.providers.lmstudio).toEqual({ baseUrl: 'http://localhost:1234/v1', model: 'qwen3-8b', protocol: 'actions', apiKeySecret: '' });
  });
});

describe('readApiKey', () => {
  it('reads the current provider\'s secret by its id', () => {
    const settings = selectProvider(defaultSettings(), 'anthropic');
    expect(readApiKey(settings, secretStore({ 'anthropic-api-key': ' sk-ant ', 'openai-api-key': 'sk-oa' }))).toBe('sk-ant');
  });

  it('is null without an id, without the secret, or when the store refuses the id', () => {
    expect(readApiKey(selectProvider(defaultSettings(), 'ollama'), secretStore({ '': 'x' }))).toBeNull();
    expect(readApiKey(defaultSettings(), secretStore({}))).toBeNull();
    expect(readApiKey(defaultSettings(), secretStore({ 'openai-api-key': '   ' }))).toBeNull();
    const refusing = {
      getSecret: (): string | null => {
        throw new Error('invalid id');
      },
    };
    expect(readApiKey(defaultSettings(), refusing)).toBeNull();
  });
});

describe('toAgentSettings', () => {
  it('gives createAgent the provider with the key and protocol, the instructions, the budgets and the memory sizes', () => {
    let settings = selectProvider(defaultSettings(), 'anthropic');
    settings = updateCurrentProvider(settings, { model: 'claude-opus', protocol: 'actions' });
    settings.customInstructions = '  Answer in French.  ';
    settings.budgets.maxTurns = 4;
    settings.memoryPromptTokens = 900;
    settings.actionLogSize = 50;
    expect(toAgentSettings(settings, 'sk-ant')).toEqual({
      provider: { kind: 'anthropic', baseUrl: 'https://api.anthropic.com', model: 'claude-opus', apiKey: 'sk-ant', protocol: 'actions' },
      customInstructions: 'Answer in French.',
      budgets: { ...DEFAULT_BUDGETS, maxTurns: 4 },
      memoryPromptTokens: 900,
      actionLogSize: 50,
    });
  });

  it('leaves the key out when there is none, and empty instructions out', () => {
    const agent = toAgentSettings(selectProvider(defaultSettings(), 'ollama'), null);
    expect(agent.provider).toEqual({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1', protocol: 'code' });
    expect(agent).not.toHaveProperty('customInstructions');
    expect(toProviderSettings(defaultSettings(), '')).not.toHaveProperty('apiKey');
  });
});

describe('toMemOptions', () => {
  it('passes protected folders and memory options, and leaves Logseq to the vault in auto mode', () => {
    const settings = defaultSettings();
    settings.protectedFolders = ['Private'];
    settings.editProtectedFiles = true;
    const options = toMemOptions(settings);
    expect(options).toEqual({
      protectedFolders: ['Private'],
      editProtectedFiles: true,
      memoryFolder: 'Memories/',
      workingMemoryNote: 'Memories/Working memory.md',
      workingMemoryCharLimit: 2048,
      workingMemoryChildLimit: 8,
    });
    expect(options).not.toHaveProperty('logseq');
  });

  it('forces Logseq mode on or off when the user chose', () => {
    expect(toMemOptions({ ...defaultSettings(), logseqMode: 'on' }).logseq).toBe(true);
    expect(toMemOptions({ ...defaultSettings(), logseqMode: 'off' }).logseq).toBe(false);
  });
});

describe('settingsFromData', () => {
  const keychain = () => {
    const secrets = new Map<string, string>();
    return { secrets, getSecret: (id: string) => secrets.get(id) ?? null, setSecret: (id: string, value: string) => void secrets.set(id, value) };
  };

  it('moves a plain-text key into secret storage under the provider\'s id, and asks to save', () => {
    const store = keychain();
    const { settings, needsSave } = settingsFromData({ provider: 'custom', providers: { custom: { apiKey: 'sk-custom' } } }, store);
    expect(needsSave).toBe(true);
    expect(settings.providers.custom.apiKeySecret).toBe('custom-api-key');
    expect(store.secrets.get('custom-api-key')).toBe('sk-custom');
    expect(JSON.stringify(settingsToSave(settings))).not.toContain('sk-custom');
  });

  it('uses the id the settings already name', () => {
    const store = keychain();
    const { settings } = settingsFromData({ providers: { openai: { apiKeySecret: 'work-key', apiKey: 'sk-1' } } }, store);
    expect(settings.providers.openai.apiKeySecret).toBe('work-key');
    expect(store.secrets.get('work-key')).toBe('sk-1');
  });

  it('leaves secret storage alone when the file holds no key, and saves only when the file was not what it would write', () => {
    const store = keychain();
    expect(settingsFromData(JSON.parse(JSON.stringify(defaultSettings())), store)).toEqual({ settings: defaultSettings(), needsSave: false });
    expect(settingsFromData(null, store).needsSave).toBe(true);
    expect(store.secrets.size).toBe(0);
  });
});
