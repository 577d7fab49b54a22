import { SecretComponent, type App } from 'obsidian';
import { NUMBER_LIMITS, readNumber, readRemoteUrlSetting, type RecursaSettings, type SyncSettings } from './pluginSettings';
import { addNumberField, markInvalid, type SettingRow } from './settingRow';

export interface SyncRowsHost {
  app: App;
  settings(): RecursaSettings;
  change(next: RecursaSettings): Promise<void>;
  /** Starts a sync now (the plugin's "Sync now"); absent before the plugin is ready. */
  syncNow?: () => void;
}

const URL_DESC = 'The HTTPS address of a git repository (GitHub, GitLab, Gitea, your own server). Recursa fetches, merges and pushes; it never force-pushes.';

/** The rows of the "Sync" section: the remote, its credentials, and when to sync. */
export function syncSettingRows(host: SyncRowsHost): SettingRow[] {
  const sync = host.settings().sync;
  const update = (patch: Partial<SyncSettings>): Promise<void> => host.change({ ...host.settings(), sync: { ...host.settings().sync, ...patch } });
  const limits = NUMBER_LIMITS.syncIntervalMinutes;
  return [
    {
      name: 'Remote URL',
      desc: URL_DESC,
      render: (setting) =>
        setting.addText((text) =>
          text
            .setPlaceholder('https://github.com/you/notes.git')
            .setValue(sync.remoteUrl)
            .onChange(async (value) => {
              const url = readRemoteUrlSetting(value);
              markInvalid(setting, text, url === null ? 'Enter an address that starts with https:// (or http:// for a server on your network).' : null);
              if (url === null) return;
              const hadCredentials = /^[a-z]+:\/\/[^/]*@/i.test(value.trim());
              setting.setDesc(hadCredentials ? 'The name and token in the address were left out: put the token in the field below, where it stays in Obsidian\'s keychain.' : URL_DESC);
              await update({ remoteUrl: url });
            }),
        ),
    },
    {
      name: 'User name',
      desc: 'Your account on the git host. With a token, most hosts accept any name.',
      render: (setting) => setting.addText((text) => text.setValue(sync.username).onChange(async (value) => update({ username: value.trim() }))),
    },
    {
      name: 'Token',
      desc: 'A personal access token with write access to the repository, from Obsidian\'s keychain. It never goes into the settings file, the vault or its history.',
      render: (setting) => setting.addComponent((componentEl) => new SecretComponent(host.app, componentEl).setValue(sync.tokenSecret).onChange(async (id) => update({ tokenSecret: id }))),
    },
    {
      name: 'Sync when Obsidian starts',
      desc: 'Fetch, merge and push once the vault is open.',
      render: (setting) => setting.addToggle((toggle) => toggle.setValue(sync.onStartup).onChange(async (value) => update({ onStartup: value }))),
    },
    {
      name: 'Sync every (minutes)',
      desc: `0 turns it off. From ${limits.min} to ${limits.max}.`,
      render: (setting) =>
        addNumberField(setting, {
          min: limits.min,
          max: limits.max,
          value: sync.intervalMinutes,
          integer: true,
          invalid: `Enter whole minutes from ${limits.min} to ${limits.max}.`,
          onValid: (minutes) => update({ intervalMinutes: readNumber(minutes, 'syncIntervalMinutes', sync.intervalMinutes) }),
        }),
    },
    {
      name: 'Sync now',
      desc: 'Conflicting edits never overwrite each other: your version stays in the note, the other is saved beside it.',
      render: (setting) => setting.addButton((button) => button.setButtonText('Sync now').onClick(() => host.syncNow?.())),
    },
  ];
}
