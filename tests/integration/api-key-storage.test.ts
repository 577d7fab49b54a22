// The API key lives in Obsidian's secret storage only: never in the plugin's data.json, never in
// any object of the vault's git history — not after saving settings, not after agent commits,
// not after the user commits everything with the git CLI, and not when an older data.json held
// the key in plain text before Recursa started keeping history.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../src/core/llm/testConnection';
import { createNodeHttpTransport } from '../../src/node/nodeHttpTransport';
import {
  defaultSettings,
  readApiKey,
  selectProvider,
  settingsFromData,
  settingsToSave,
  toAgentSettings,
  updateCurrentProvider,
  type RecursaSettings,
  type SecretStore,
} from '../../src/obsidian/settings/pluginSettings';
import { gitCli } from '../helpers/gitCli';
import { openGitVault, type GitVault } from '../helpers/gitVault';
import { RUNTIMES } from '../helpers/memHarness';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir } from '../helpers/tempVault';

const KEY = 'sk-test-4f1c9a7e2b8d6051-do-not-leak';
const DATA_FILE = '.obsidian/plugins/recursa/data.json';

/** Obsidian's keychain as plugins see it (`app.secretStorage`): ids to secrets, kept outside the vault. */
class Keychain implements SecretStore {
  readonly secrets = new Map<string, string>();
  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }
  setSecret(id: string, secret: string): void {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new Error(`invalid secret id ${id}`);
    this.secrets.set(id, secret);
  }
}

/** Every byte of every object in the repository (loose and packed), decompressed, as git reads them. */
function allGitObjects(dir: string): string {
  return execFileSync('git', ['-C', dir, 'cat-file', '--batch-all-objects', '--batch', '--unordered'], {
    encoding: 'latin1',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

describe.each(RUNTIMES)('the API key stays out of data.json and git ($name)', (runtime) => {
  let server: ModelServer;
  let vault: GitVault & { dispose: () => Promise<void> };
  let remove: () => Promise<void>;
  let keychain: Keychain;

  /** `Plugin.saveData`: the plugin's data as JSON in its folder. */
  const saveData = async (settings: RecursaSettings): Promise<void> => {
    await mkdir(dirname(join(vault.dir, DATA_FILE)), { recursive: true });
    await writeFile(join(vault.dir, DATA_FILE), JSON.stringify(settingsToSave(settings), null, 2));
  };
  /** `Plugin.loadData`. */
  const loadData = async (): Promise<unknown> => JSON.parse(await readFile(join(vault.dir, DATA_FILE), 'utf8')) as unknown;

  const expectNoKeyAnywhere = async (): Promise<void> => {
    expect(await readFile(join(vault.dir, DATA_FILE), 'utf8')).not.toContain(KEY);
    expect(allGitObjects(vault.dir)).not.toContain(KEY);
    expect(gitCli(vault.dir, 'log', '--all', '-p', '--format=%B')).not.toContain(KEY);
  };

  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  describe('when the user sets a key in the settings', () => {
    beforeEach(async () => {
      keychain = new Keychain();
      const temp = await makeTempDir();
      remove = temp.remove;
      await mkdir(join(temp.dir, 'Notes'), { recursive: true });
      await writeFile(join(temp.dir, 'Notes/a.md'), 'a\n');
      vault = await openGitVault(runtime, temp.dir);
      return async () => {
        await vault.dispose();
        await remove();
      };
    });

    it('keeps only the secret id in data.json, and the key reaches the provider alone', async () => {
      // What the settings tab does: SecretComponent stores the key under an id; the settings keep the id.
      let settings = updateCurrentProvider(selectProvider(defaultSettings(), 'openai'), { baseUrl: `${server.url}/v1`, model: 'test-model' });
      keychain.setSecret(settings.providers.openai.apiKeySecret, KEY);
      await saveData(settings);
      expect(await loadData()).toMatchObject({ providers: { openai: { apiKeySecret: 'openai-api-key' } } });

      // The agent works and commits; the user commits everything else with the git CLI.
      await vault.mem.writeFile('Notes/b.md', 'b\n');
      await vault.mem.commitChanges('Add b');
      await writeFile(join(vault.dir, 'Notes/c.md'), 'the user\'s own note\n');
      gitCli(vault.dir, 'add', '-A');
      gitCli(vault.dir, 'commit', '-q', '-m', 'Everything else');
      expect(gitCli(vault.dir, 'check-ignore', '-v', DATA_FILE)).toContain(`.gitignore:`);
      expect(gitCli(vault.dir, 'ls-files')).not.toContain('data.json');

      // The key is read from the keychain when a request is made, and sent only to the provider.
      settings = settingsFromData(await loadData(), keychain).settings;
      const key = readApiKey(settings, keychain);
      expect(key).toBe(KEY);
      server.script([{ text: 'OK' }]);
      const result = await testConnection(toAgentSettings(settings, key).provider, createNodeHttpTransport());
      expect(result.ok).toBe(true);
      expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

      await expectNoKeyAnywhere();
    });

    it('never writes a key a caller attached to the settings by mistake', async () => {
      const settings = defaultSettings() as RecursaSettings & { apiKey?: string };
      settings.apiKey = KEY;
      await saveData(settings);
      gitCli(vault.dir, 'add', '-A', '--force', '.obsidian/plugins');
      gitCli(vault.dir, 'commit', '-q', '-m', 'Even a forced add of the plugin folder');
      await expectNoKeyAnywhere();
    });
  });

  describe('when an older data.json held the key in plain text before history began', () => {
    beforeEach(async () => {
      keychain = new Keychain();
      const temp = await makeTempDir();
      remove = temp.remove;
      await mkdir(join(temp.dir, '.obsidian/plugins/recursa'), { recursive: true });
      await writeFile(join(temp.dir, DATA_FILE), JSON.stringify({ provider: 'anthropic', apiKey: KEY, providers: { anthropic: { model: 'claude-x' } } }));
      await writeFile(join(temp.dir, 'Note.md'), 'note\n');
      // Recursa opens the vault: a new repository and a snapshot of what is there.
      vault = await openGitVault(runtime, temp.dir);
      return async () => {
        await vault.dispose();
        await remove();
      };
    });

    it('left it out of the first snapshot, then moves it into secret storage and out of the file', async () => {
      expect(gitCli(vault.dir, 'ls-files')).toContain('Note.md');
      expect(allGitObjects(vault.dir)).not.toContain(KEY);

      const { settings, needsSave } = settingsFromData(await loadData(), keychain);
      expect(needsSave).toBe(true);
      expect(settings.provider).toBe('anthropic');
      expect(settings.providers.anthropic).toMatchObject({ model: 'claude-x', apiKeySecret: 'anthropic-api-key' });
      expect(keychain.getSecret('anthropic-api-key')).toBe(KEY);
      await saveData(settings);

      expect(readApiKey(settingsFromData(await loadData(), keychain).settings, keychain)).toBe(KEY);
      gitCli(vault.dir, 'add', '-A');
      gitCli(vault.dir, 'commit', '-q', '--allow-empty', '-m', 'After the move');
      await expectNoKeyAnywhere();
    });

    it('keeps a key already in secret storage rather than the older plain-text one', async () => {
      keychain.setSecret('anthropic-api-key', 'sk-newer');
      const { settings } = settingsFromData(await loadData(), keychain);
      expect(readApiKey(settings, keychain)).toBe('sk-newer');
      await saveData(settings);
      await expectNoKeyAnywhere();
    });
  });
});
