// The page of tests/e2e/settings-tab.test.ts: the plugin's settings tab, saving into an object the
// test reads, its key in a keychain like `app.secretStorage`, its connection test sent through Node.
import type { App, Plugin } from 'obsidian';
import type { HttpTransport } from '../../../src/core/ports/http';
import { RecursaSettingTab } from '../../../src/obsidian/settings/RecursaSettingTab';
import { defaultSettings, settingsToSave, type RecursaSettings } from '../../../src/obsidian/settings/pluginSettings';

export interface PageSettings {
  open(): void;
  /** Every `data.json` the tab saved, as text. */
  saved(): string[];
  settings(): RecursaSettings;
  secrets(): Record<string, string>;
  definitionNames(): { heading: string; names: string[] }[];
}

declare global {
  interface Window {
    recursaSettings: PageSettings;
    recursaHttp: (request: { url: string; method: string; headers: Record<string, string>; body?: string; timeoutMs?: number }) => Promise<{
      status: number;
      headers: Record<string, string>;
      body: string;
    }>;
  }
}

const secrets = new Map<string, string>();
const app = {
  secretStorage: {
    getSecret: (id: string) => secrets.get(id) ?? null,
    setSecret: (id: string, secret: string) => {
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) throw new Error('invalid id');
      secrets.set(id, secret);
    },
    listSecrets: () => [...secrets.keys()],
  },
  workspace: { opened: [], openLinkText: async () => undefined },
};
let settings = defaultSettings();
const saved: string[] = [];

/** Requests cross to Node, which sends them; the page gets the whole answer at once, like `requestUrl`. */
const transport: HttpTransport = {
  streams: false,
  async request(request) {
    const { url, method, headers, body, timeoutMs } = request;
    const response = await window.recursaHttp({ url, method, headers, ...(body === undefined ? {} : { body }), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    const bytes = new TextEncoder().encode(response.body);
    return { status: response.status, headers: response.headers, body: (async function* () { yield bytes; })() };
  },
};

let tab: RecursaSettingTab | null = null;

window.recursaSettings = {
  open() {
    tab = new RecursaSettingTab(app as unknown as App, {} as Plugin, {
      settings: () => settings,
      save: async (next) => {
        settings = next;
        saved.push(JSON.stringify(settingsToSave(next)));
      },
      transport: () => transport,
    });
    document.getElementById('settings')?.appendChild(tab.containerEl);
    // What Obsidian before 1.13 does to show a tab (1.13+ draws it from getSettingDefinitions).
    const legacy: { display(): void } = tab;
    legacy.display();
  },
  saved: () => [...saved],
  settings: () => settings,
  secrets: () => Object.fromEntries(secrets),
  definitionNames: () =>
    (tab?.getSettingDefinitions() ?? []).map((item) => ({
      heading: 'heading' in item ? (item.heading ?? '') : '',
      names: 'items' in item ? (item.items ?? []).map((row) => ('name' in row ? row.name : '')) : [],
    })),
};
