/**
 * What the plugin keeps in `data.json`, its defaults, and the one loader that turns whatever is in
 * that file (an older version, a hand edit, garbage) into valid settings without ever throwing.
 * The API key is never a field: the settings keep only the id of a secret in `app.secretStorage`.
 */
import { DEFAULT_BUDGETS, type AgentBudgets } from '../../core/agent/budgets';
import type { GitIdentity } from '../../core/git/commitObjects';
import type { ProviderSettings } from '../../core/llm/types';
import { DEFAULT_MEM_OPTIONS, type MemOptions } from '../../core/mem/options';
import { DEFAULT_PATH_POLICY, normalizeVaultPath } from '../../core/paths/pathPolicy';
import type { AgentSettings } from '../../core/agent/createAgentService';
import { isProviderPresetId, PROVIDER_PRESET_IDS, PROVIDER_PRESETS, type ProviderPresetId } from './providerPresets';

export { PROVIDER_PRESET_IDS, PROVIDER_PRESETS, type ProviderPreset, type ProviderPresetId } from './providerPresets';

/** How the model acts: TypeScript against `mem` (`code`), or the XML action protocol for small models (`actions`). */
export type AgentProtocol = 'code' | 'actions';

/** `auto` follows the vault (on when it has `logseq/config.edn`). */
export type LogseqMode = 'auto' | 'on' | 'off';

/** One provider's own settings, kept per preset so switching back and forth loses nothing. */
export interface ProviderConfig {
  baseUrl: string;
  model: string;
  protocol: AgentProtocol;
  /** The id of the API key in `app.secretStorage` ('' for none). Never the key itself. */
  apiKeySecret: string;
}

export interface RecursaSettings {
  /** The shape's version, for migrations. */
  version: typeof SETTINGS_VERSION;
  /** The provider in use. */
  provider: ProviderPresetId;
  providers: Record<ProviderPresetId, ProviderConfig>;
  budgets: AgentBudgets;
  /** Author and committer of the agent's commits. */
  gitAuthor: GitIdentity;
  logseqMode: LogseqMode;
  /** Vault folders the agent may not touch, vault-relative, normalized. */
  protectedFolders: string[];
  /** Let the agent change `.gitignore`, `.gitattributes`, `.gitmodules` and the vault's `AGENTS.md`. */
  editProtectedFiles: boolean;
  /** Added to the system prompt after the built-in rules and `AGENTS.md`. */
  customInstructions: string;
  /** Mark the lines the agent changed in the editor. */
  changeMarkers: boolean;
  /** Where `mem.remember` writes memory notes; ends with `/`. */
  memoryFolder: string;
  /** Tokens of memories placed in the prompt when a conversation starts. */
  memoryPromptTokens: number;
  /** The note that holds the working memory. */
  workingMemoryNote: string;
  /** Most characters the working memory may hold. */
  workingMemoryCharLimit: number;
  /** Most direct children of one working-memory node. */
  workingMemoryChildLimit: number;
  /** Entries the action log keeps. */
  actionLogSize: number;
  /** Show a run's changes for review (Keep or Undo per file) before they are committed. */
  reviewChanges: boolean;
  /** Syncing the vault's history with a git remote. */
  sync: SyncSettings;
  /** The MCP server inside Obsidian (desktop only). */
  mcp: McpSettings;
}

/** The MCP server's bearer token lives in `app.secretStorage` under this id. */
export const MCP_TOKEN_SECRET = 'recursa-mcp-token';

export interface SyncSettings {
  /** The remote's HTTPS URL, without credentials ('' for none). */
  remoteUrl: string;
  /** The user name sent with the token (most hosts accept any name with a token). */
  username: string;
  /** The id of the remote's token in `app.secretStorage` ('' for none). Never the token itself. */
  tokenSecret: string;
  /** Sync once the vault is open. */
  onStartup: boolean;
  /** Sync every this many minutes; 0 is never. */
  intervalMinutes: number;
}

export interface McpSettings {
  /** Serve MCP at `http://127.0.0.1:<port>/mcp` while Obsidian runs. */
  enabled: boolean;
  port: number;
  /** Offer clients only the tools that read (recall, search, read). */
  readOnly: boolean;
}

export const SETTINGS_VERSION = 1;

/** Bounds of each number setting; a loaded value outside them is clamped, one that is not a number falls back to the default. */
export const NUMBER_LIMITS = {
  maxTurns: { min: 1, max: 100 },
  timeMs: { min: 10_000, max: 60 * 60_000 },
  maxTokens: { min: 1_000, max: 10_000_000 },
  maxMemCalls: { min: 1, max: 100_000 },
  resultTokens: { min: 100, max: 100_000 },
  contextTokens: { min: 2_000, max: 2_000_000 },
  memoryPromptTokens: { min: 0, max: 100_000 },
  workingMemoryCharLimit: { min: 256, max: 100_000 },
  workingMemoryChildLimit: { min: 1, max: 100 },
  actionLogSize: { min: 1, max: 100_000 },
  syncIntervalMinutes: { min: 0, max: 24 * 60 },
  mcpPort: { min: 1024, max: 65_535 },
} as const satisfies Record<string, { min: number; max: number }>;

export type NumberSetting = keyof typeof NUMBER_LIMITS;

export const DEFAULT_GIT_AUTHOR: GitIdentity = { name: 'Recursa', email: 'recursa@localhost' };

function defaultProviders(): Record<ProviderPresetId, ProviderConfig> {
  const entries = PROVIDER_PRESET_IDS.map((id): [ProviderPresetId, ProviderConfig] => {
    const preset = PROVIDER_PRESETS[id];
    return [id, { baseUrl: preset.baseUrl, model: preset.model, protocol: 'code', apiKeySecret: preset.secretId }];
  });
  return Object.fromEntries(entries) as Record<ProviderPresetId, ProviderConfig>;
}

/** Fresh default settings (a new object each call, safe to change). */
export function defaultSettings(): RecursaSettings {
  return {
    version: SETTINGS_VERSION,
    provider: 'openai',
    providers: defaultProviders(),
    budgets: { ...DEFAULT_BUDGETS },
    gitAuthor: { ...DEFAULT_GIT_AUTHOR },
    logseqMode: 'auto',
    protectedFolders: [],
    editProtectedFiles: false,
    customInstructions: '',
    changeMarkers: true,
    memoryFolder: DEFAULT_MEM_OPTIONS.memoryFolder,
    memoryPromptTokens: 1_500,
    workingMemoryNote: DEFAULT_MEM_OPTIONS.workingMemoryNote,
    workingMemoryCharLimit: DEFAULT_MEM_OPTIONS.workingMemoryCharLimit,
    workingMemoryChildLimit: DEFAULT_MEM_OPTIONS.workingMemoryChildLimit,
    actionLogSize: 1_000,
    reviewChanges: false,
    sync: { remoteUrl: '', username: '', tokenSecret: '', onStartup: false, intervalMinutes: 0 },
    mcp: { enabled: false, port: DEFAULT_MCP_PORT, readOnly: false },
  };
}

/** The MCP server's port unless the user picks another. */
export const DEFAULT_MCP_PORT = 27_125;

/** What `loadSettings` found: the settings, and an API key the file held in plain text (to move into secret storage). */
export interface LoadedSettings {
  settings: RecursaSettings;
  /**
   * A key found in the file (an older version or a hand edit kept it there), with the preset it
   * belongs to. The caller stores it in `app.secretStorage` under the preset's secret id and saves
   * the settings at once, so the plain-text copy disappears.
   */
  plainTextKey: { provider: ProviderPresetId; key: string } | null;
  /** Whether the file differed from what will be saved (the caller saves when true). */
  changed: boolean;
}

/**
 * Reads settings from whatever `loadData()` returned: `null` for a new install, or a parsed
 * `data.json`. Each field is checked on its own; one that is missing, of the wrong type or
 * unusable takes its default, unknown fields are dropped, and nothing throws.
 */
export function loadSettings(raw: unknown): LoadedSettings {
  try {
    return readSettings(raw);
  } catch {
    // Only an object that is not plain data (a getter that throws) gets here; a parsed file cannot.
    return { settings: defaultSettings(), plainTextKey: null, changed: true };
  }
}

function readSettings(raw: unknown): LoadedSettings {
  const data = isRecord(raw) ? raw : {};
  const defaults = defaultSettings();
  const provider = isProviderPresetId(data.provider) ? data.provider : defaults.provider;
  const providers = readProviders(data.providers, defaults.providers);
  const settings: RecursaSettings = {
    version: SETTINGS_VERSION,
    provider,
    providers,
    budgets: readBudgets(data.budgets),
    gitAuthor: readIdentity(data.gitAuthor),
    logseqMode: data.logseqMode === 'on' || data.logseqMode === 'off' || data.logseqMode === 'auto' ? data.logseqMode : defaults.logseqMode,
    protectedFolders: parseProtectedFolders(data.protectedFolders),
    editProtectedFiles: data.editProtectedFiles === true,
    customInstructions: typeof data.customInstructions === 'string' ? data.customInstructions.slice(0, MAX_INSTRUCTIONS_CHARS) : '',
    changeMarkers: typeof data.changeMarkers === 'boolean' ? data.changeMarkers : defaults.changeMarkers,
    memoryFolder: readFolder(data.memoryFolder) ?? defaults.memoryFolder,
    memoryPromptTokens: readNumber(data.memoryPromptTokens, 'memoryPromptTokens', defaults.memoryPromptTokens),
    workingMemoryNote: readNotePath(data.workingMemoryNote) ?? defaults.workingMemoryNote,
    workingMemoryCharLimit: readNumber(data.workingMemoryCharLimit, 'workingMemoryCharLimit', defaults.workingMemoryCharLimit),
    workingMemoryChildLimit: readNumber(data.workingMemoryChildLimit, 'workingMemoryChildLimit', defaults.workingMemoryChildLimit),
    actionLogSize: readNumber(data.actionLogSize, 'actionLogSize', defaults.actionLogSize),
    reviewChanges: data.reviewChanges === true,
    sync: readSync(data.sync, defaults.sync),
    mcp: readMcp(data.mcp, defaults.mcp),
  };
  const plainTextKey = findPlainTextKey(data, provider);
  return { settings, plainTextKey, changed: plainTextKey !== null || JSON.stringify(raw) !== JSON.stringify(settings) };
}

function readSync(raw: unknown, defaults: SyncSettings): SyncSettings {
  const data = isRecord(raw) ? raw : {};
  return {
    remoteUrl: typeof data.remoteUrl === 'string' ? readRemoteUrlSetting(data.remoteUrl) ?? '' : defaults.remoteUrl,
    username: typeof data.username === 'string' ? data.username.trim().slice(0, 200) : defaults.username,
    tokenSecret: typeof data.tokenSecret === 'string' && (data.tokenSecret === '' || isValidSecretId(data.tokenSecret)) ? data.tokenSecret : defaults.tokenSecret,
    onStartup: data.onStartup === true,
    intervalMinutes: readNumber(data.intervalMinutes, 'syncIntervalMinutes', defaults.intervalMinutes),
  };
}

function readMcp(raw: unknown, defaults: McpSettings): McpSettings {
  const data = isRecord(raw) ? raw : {};
  return { enabled: data.enabled === true, port: readNumber(data.port, 'mcpPort', defaults.port), readOnly: data.readOnly === true };
}

/**
 * A git remote's URL as the settings keep it: http(s) only, trimmed, and never with credentials
 * (a `user:token@` part is dropped: the token belongs in secret storage). Null when it is not one.
 */
export function readRemoteUrlSetting(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return '';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.username = '';
  url.password = '';
  return url.toString();
}

/** The settings as `saveData` should write them: a plain copy that holds no key, by construction. */
export function settingsToSave(settings: RecursaSettings): RecursaSettings {
  // Re-reading drops anything a caller may have attached (an `apiKey` put there by mistake).
  return loadSettings(JSON.parse(JSON.stringify(settings)) as unknown).settings;
}

/** The longest custom instructions kept (they go into every prompt). */
export const MAX_INSTRUCTIONS_CHARS = 20_000;

/** Secret ids as `SecretStorage.setSecret` accepts them: lower-case letters and digits, with dashes between. */
const SECRET_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isValidSecretId(id: string): boolean {
  return id.length <= 64 && SECRET_ID.test(id);
}

function readProviders(raw: unknown, defaults: Record<ProviderPresetId, ProviderConfig>): Record<ProviderPresetId, ProviderConfig> {
  const data = isRecord(raw) ? raw : {};
  const result = {} as Record<ProviderPresetId, ProviderConfig>;
  for (const id of PROVIDER_PRESET_IDS) {
    const entry = isRecord(data[id]) ? data[id] : {};
    const fallback = defaults[id];
    result[id] = {
      baseUrl: readBaseUrl(entry.baseUrl) ?? fallback.baseUrl,
      model: typeof entry.model === 'string' && entry.model.trim().length <= 200 ? entry.model.trim() : fallback.model,
      protocol: entry.protocol === 'actions' || entry.protocol === 'code' ? entry.protocol : fallback.protocol,
      apiKeySecret:
        typeof entry.apiKeySecret === 'string' && (entry.apiKeySecret === '' || isValidSecretId(entry.apiKeySecret)) ? entry.apiKeySecret : fallback.apiKeySecret,
    };
  }
  return result;
}

/** An `http:`/`https:` URL without trailing slashes, or null. */
export function readBaseUrl(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().replace(/\/+$/, '');
  if (text.length > 2_000) return null;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // Credentials in the URL would be a key saved in plain text.
    if (url.username !== '' || url.password !== '') return null;
    return text;
  } catch {
    return null;
  }
}

function readBudgets(raw: unknown): AgentBudgets {
  const data = isRecord(raw) ? raw : {};
  const budgets = { ...DEFAULT_BUDGETS };
  for (const key of Object.keys(DEFAULT_BUDGETS) as (keyof AgentBudgets)[]) {
    budgets[key] = readNumber(data[key], key, DEFAULT_BUDGETS[key]);
  }
  return budgets;
}

/** A whole number within `NUMBER_LIMITS[name]`; a non-number gives `fallback`. Numeric strings count (a hand-edited file). */
export function readNumber(raw: unknown, name: NumberSetting, fallback: number): number {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.replace(/[_\s]/g, '')) : Number.NaN;
  if (!Number.isFinite(value)) return fallback;
  const { min, max } = NUMBER_LIMITS[name];
  return Math.min(max, Math.max(min, Math.round(value)));
}

function readIdentity(raw: unknown): GitIdentity {
  const data = isRecord(raw) ? raw : {};
  // What git forbids in an identity is removed here as well as at commit time.
  const clean = (value: unknown): string => (typeof value === 'string' ? value.replace(/[<>\r\n\0]/g, '').trim().slice(0, 200) : '');
  return { name: clean(data.name) || DEFAULT_GIT_AUTHOR.name, email: clean(data.email) || DEFAULT_GIT_AUTHOR.email };
}

/**
 * Protected folders from a list or from text (one per line, or separated by commas): each
 * normalized by the vault's path policy; empty, duplicate and refused entries (`..`, absolute
 * paths, the config folder) are dropped.
 */
export function parseProtectedFolders(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\n,]/) : [];
  const folders: string[] = [];
  for (const item of items.slice(0, 1_000)) {
    const folder = normalizeFolder(item);
    if (folder !== null && !folders.includes(folder)) folders.push(folder);
  }
  return folders;
}

function normalizeFolder(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  try {
    return normalizeVaultPath(raw.trim().replace(/\/+$/, ''), DEFAULT_PATH_POLICY);
  } catch {
    return null;
  }
}

function readFolder(raw: unknown): string | null {
  const folder = normalizeFolder(raw);
  return folder === null ? null : `${folder}/`;
}

function readNotePath(raw: unknown): string | null {
  const path = normalizeFolder(raw);
  if (path === null) return null;
  return path.toLowerCase().endsWith('.md') ? path : `${path}.md`;
}

/** Field names older versions or hand edits used for a key. */
const KEY_FIELDS = ['apiKey', 'api_key', 'key', 'token'] as const;

function findPlainTextKey(data: Record<string, unknown>, provider: ProviderPresetId): LoadedSettings['plainTextKey'] {
  for (const field of KEY_FIELDS) {
    const value = data[field];
    if (typeof value === 'string' && value.trim() !== '') return { provider, key: value.trim() };
  }
  const providers = isRecord(data.providers) ? data.providers : {};
  for (const id of PROVIDER_PRESET_IDS) {
    const entry = providers[id];
    if (!isRecord(entry)) continue;
    for (const field of KEY_FIELDS) {
      const value = entry[field];
      if (typeof value === 'string' && value.trim() !== '') return { provider: id, key: value.trim() };
    }
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ------------------------------------------------------------------------------------------------
// Changes the settings tab makes (pure, so the tab stays a thin view)

/** Switches to `id`, keeping every provider's own settings. */
export function selectProvider(settings: RecursaSettings, id: ProviderPresetId): RecursaSettings {
  return { ...settings, provider: id };
}

/** Changes the current provider's settings. */
export function updateCurrentProvider(settings: RecursaSettings, patch: Partial<ProviderConfig>): RecursaSettings {
  const current = settings.providers[settings.provider];
  return { ...settings, providers: { ...settings.providers, [settings.provider]: { ...current, ...patch } } };
}

/** Puts the current provider's base URL and model back to the preset's. */
export function resetCurrentProvider(settings: RecursaSettings): RecursaSettings {
  const preset = PROVIDER_PRESETS[settings.provider];
  return updateCurrentProvider(settings, { baseUrl: preset.baseUrl, model: preset.model });
}

// ------------------------------------------------------------------------------------------------
// What the settings mean to the rest of the plugin

/** Reads a secret by id; `app.secretStorage` is one. */
export interface SecretReader {
  getSecret(id: string): string | null;
}

/** Stores secrets by id; `app.secretStorage` is one. */
export interface SecretStore extends SecretReader {
  setSecret(id: string, secret: string): void;
}

/**
 * Settings from what `loadData()` returned, with a key the file held in plain text moved into
 * secret storage (under the provider's secret id, or its preset's default). When `needsSave` is
 * true, the caller saves `settingsToSave(settings)` at once, which removes the plain-text copy.
 */
export function settingsFromData(raw: unknown, secrets: SecretStore): { settings: RecursaSettings; needsSave: boolean } {
  const loaded = loadSettings(raw);
  const found = loaded.plainTextKey;
  if (found === null) return { settings: loaded.settings, needsSave: loaded.changed };
  const current = loaded.settings.providers[found.provider].apiKeySecret;
  const id = current !== '' ? current : PROVIDER_PRESETS[found.provider].secretId || `${found.provider}-api-key`;
  // An existing secret wins: the plain-text copy may be an old key the user has since replaced.
  if ((secrets.getSecret(id) ?? '') === '') secrets.setSecret(id, found.key);
  const providers = { ...loaded.settings.providers, [found.provider]: { ...loaded.settings.providers[found.provider], apiKeySecret: id } };
  return { settings: { ...loaded.settings, providers }, needsSave: true };
}

/** The current provider's key from secret storage, or null when it has none. */
export function readApiKey(settings: RecursaSettings, secrets: SecretReader): string | null {
  return readSecret(secrets, settings.providers[settings.provider].apiKeySecret);
}

/** A secret by id, trimmed; null for no id, an empty secret, or an id the storage refuses. */
export function readSecret(secrets: SecretReader, id: string): string | null {
  if (id === '') return null;
  try {
    const secret = secrets.getSecret(id)?.trim() ?? '';
    return secret === '' ? null : secret;
  } catch {
    return null;
  }
}

/** The provider `createProvider` takes, with the key read from secret storage. */
export function toProviderSettings(settings: RecursaSettings, apiKey: string | null): ProviderSettings {
  const config = settings.providers[settings.provider];
  const preset = PROVIDER_PRESETS[settings.provider];
  return {
    kind: preset.kind,
    baseUrl: config.baseUrl,
    model: config.model,
    ...(apiKey === null || apiKey === '' ? {} : { apiKey }),
  };
}

/** The agent's settings (`VaultStack.agent`): the provider with its key and protocol, instructions, budgets, memory. */
export function toAgentSettings(settings: RecursaSettings, apiKey: string | null): AgentSettings {
  const instructions = settings.customInstructions.trim();
  return {
    provider: { ...toProviderSettings(settings, apiKey), protocol: settings.providers[settings.provider].protocol },
    ...(instructions === '' ? {} : { customInstructions: instructions }),
    budgets: { ...settings.budgets },
    memoryPromptTokens: settings.memoryPromptTokens,
    actionLogSize: settings.actionLogSize,
  };
}

/**
 * The options `resolveMemOptions` takes: protected folders, Logseq mode (left out for `auto`, so
 * the vault decides), and where memories and the working memory live.
 */
export function toMemOptions(settings: RecursaSettings): Partial<MemOptions> {
  return {
    protectedFolders: [...settings.protectedFolders],
    editProtectedFiles: settings.editProtectedFiles,
    ...(settings.logseqMode === 'auto' ? {} : { logseq: settings.logseqMode === 'on' }),
    memoryFolder: settings.memoryFolder,
    workingMemoryNote: settings.workingMemoryNote,
    workingMemoryCharLimit: settings.workingMemoryCharLimit,
    workingMemoryChildLimit: settings.workingMemoryChildLimit,
  };
}
