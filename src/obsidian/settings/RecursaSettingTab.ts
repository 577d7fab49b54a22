import { PluginSettingTab, SecretComponent, Setting, type App, type Plugin, type SettingDefinitionItem } from 'obsidian';
import { testConnection, type ConnectionResult } from '../../core/llm/testConnection';
import type { HttpTransport } from '../../core/ports/http';
import { createObsidianHttpTransport } from '../obsidianHttpTransport';
import { mcpSettingRows, type McpRowsServer } from './mcpSettingRows';
import { addNumberField, markInvalid, type SettingRow, type SettingSection } from './settingRow';
import { syncSettingRows } from './syncSettingRows';
import {
  NUMBER_LIMITS,
  PROVIDER_PRESET_IDS,
  PROVIDER_PRESETS,
  parseProtectedFolders,
  readApiKey,
  readBaseUrl,
  readNumber,
  resetCurrentProvider,
  selectProvider,
  toProviderSettings,
  updateCurrentProvider,
  type AgentProtocol,
  type LogseqMode,
  type NumberSetting,
  type RecursaSettings,
} from './pluginSettings';

/** How the tab reads and saves the plugin's settings. */
export interface SettingsHost {
  settings(): RecursaSettings;
  /** Persists `next` (through `settingsToSave`) and applies it. */
  save(next: RecursaSettings): Promise<void>;
  /** The transport for the connection test. Default: Obsidian's. */
  transport?: () => HttpTransport;
  /** The MCP server inside Obsidian; absent on mobile, where the section is not shown. */
  mcp?: McpRowsServer;
  /** Starts a sync with the git remote now (the "Sync now" button). */
  syncNow?: () => void;
}

/**
 * Recursa's settings: the model, budgets, the vault, history and memory. The API key stays in
 * Obsidian's secret storage. The rows are described once and drawn two ways: declaratively on
 * Obsidian 1.13+ (`getSettingDefinitions`, searchable), imperatively before (`display`).
 */
export class RecursaSettingTab extends PluginSettingTab {
  private lastTest: ConnectionResult | null = null;

  constructor(
    app: App,
    plugin: Plugin,
    private readonly host: SettingsHost,
  ) {
    super(app, plugin);
  }

  override getSettingDefinitions(): SettingDefinitionItem[] {
    return this.sections().map((section) => ({
      type: 'group',
      heading: section.heading,
      items: section.rows.map((row) => ({
        name: row.name,
        desc: row.desc,
        render: (setting: Setting): void => {
          row.render(setting);
        },
      })),
    }));
  }

  override display(): void {
    this.draw();
  }

  private draw(): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass('recursa-settings');
    for (const section of this.sections()) {
      new Setting(containerEl).setName(section.heading).setHeading();
      for (const row of section.rows) row.render(new Setting(containerEl).setName(row.name).setDesc(row.desc));
    }
  }

  /** Draws the tab again after a change that alters other rows (another provider chosen). */
  private redraw(): void {
    // Obsidian 1.13+ renders from the definitions and refreshes them with `update()`.
    const tab = this as { update?: () => void };
    if (typeof tab.update === 'function') tab.update();
    else this.draw();
  }

  private get settings(): RecursaSettings {
    return this.host.settings();
  }

  private async change(next: RecursaSettings, redraw = false): Promise<void> {
    await this.host.save(next);
    if (redraw) this.redraw();
  }

  private sections(): SettingSection[] {
    return [
      { heading: 'Model', rows: this.modelRows() },
      { heading: 'Vault', rows: this.vaultRows() },
      { heading: 'History', rows: this.gitRows() },
      { heading: 'Memory', rows: this.memoryRows() },
      { heading: 'Sync', rows: syncSettingRows({ app: this.app, settings: () => this.settings, change: (next) => this.change(next), ...(this.host.syncNow === undefined ? {} : { syncNow: this.host.syncNow }) }) },
      ...(this.host.mcp === undefined ? [] : [{ heading: 'MCP server', rows: mcpSettingRows({ settings: () => this.settings, change: (next) => this.change(next), server: this.host.mcp }) }]),
      // The numeric limits: rarely changed, so last and under one heading.
      { heading: 'Advanced', rows: [...this.budgetRows(), ...this.memoryLimitRows()] },
    ];
  }

  private modelRows(): SettingRow[] {
    const settings = this.settings;
    const preset = PROVIDER_PRESETS[settings.provider];
    const config = settings.providers[settings.provider];
    return [
      {
        name: 'Provider',
        desc: 'Each provider keeps its own address, model and key.',
        render: (setting) =>
          setting.addDropdown((dropdown) => {
            for (const id of PROVIDER_PRESET_IDS) dropdown.addOption(id, PROVIDER_PRESETS[id].label);
            dropdown.setValue(settings.provider).onChange(async (value) => {
              const id = PROVIDER_PRESET_IDS.find((candidate) => candidate === value);
              if (id === undefined) return;
              this.lastTest = null;
              await this.change(selectProvider(this.settings, id), true);
            });
          }),
      },
      {
        name: 'Base URL',
        desc: `The address of the API. Default: ${preset.baseUrl}`,
        render: (setting) =>
          setting.addText((text) =>
            text
              .setPlaceholder(preset.baseUrl)
              .setValue(config.baseUrl)
              .onChange(async (value) => {
                const url = readBaseUrl(value);
                markInvalid(setting, text, url === null ? 'Enter an address that starts with http:// or https://, without a password in it.' : null);
                if (url === null) return;
                setting.setDesc(`The address of the API. Default: ${preset.baseUrl}`);
                await this.change(updateCurrentProvider(this.settings, { baseUrl: url }));
              }),
          ),
      },
      {
        name: 'Model name',
        desc: preset.model === '' ? 'As the server names it.' : `As the provider names it, for example ${preset.model}.`,
        render: (setting) =>
          setting
            .addText((text) =>
              text
                .setPlaceholder(preset.model)
                .setValue(config.model)
                .onChange(async (value) => this.change(updateCurrentProvider(this.settings, { model: value.trim() }))),
            )
            .addExtraButton((button) =>
              button
                .setIcon('rotate-ccw')
                .setTooltip('Restore the provider\'s default address and model')
                .onClick(async () => this.change(resetCurrentProvider(this.settings), true)),
            ),
      },
      {
        name: 'API key',
        desc: preset.needsKey
          ? 'Choose or create a secret in Obsidian\'s keychain. The key never goes into the plugin\'s settings file or the vault\'s history.'
          : 'Usually not needed for a local server. If it asks for one, choose a secret from Obsidian\'s keychain.',
        render: (setting) =>
          setting.addComponent((componentEl) =>
            new SecretComponent(this.app, componentEl).setValue(config.apiKeySecret).onChange(async (id) => {
              this.lastTest = null;
              await this.change(updateCurrentProvider(this.settings, { apiKeySecret: id }));
            }),
          ),
      },
      {
        name: 'Protocol',
        desc: 'How the model acts on the vault. Small local models often do better with actions.',
        render: (setting) =>
          setting.addDropdown((dropdown) =>
            dropdown
              .addOption('code', 'Code (TypeScript)')
              .addOption('actions', 'Actions (for small models)')
              .setValue(config.protocol)
              .onChange(async (value) => this.change(updateCurrentProvider(this.settings, { protocol: toProtocol(value) }))),
          ),
      },
      {
        name: 'Test connection',
        desc: this.describeTest(),
        render: (setting) => {
          setting.descEl.setAttr('aria-live', 'polite');
          setting
            .addButton((button) =>
              button.setButtonText('Test').onClick(async () => {
                button.setDisabled(true);
                setting.setDesc('Sending a short request…');
                try {
                  this.lastTest = await this.runTest();
                } finally {
                  button.setDisabled(false);
                }
                setting.setDesc(this.describeTest());
                setting.descEl.toggleClass('recursa-setting-error', this.lastTest !== null && !this.lastTest.ok);
              }),
            );
        },
      },
    ];
  }

  /** Tests the provider as it is set now, with the key from secret storage. */
  private runTest(): Promise<ConnectionResult> {
    const settings = this.settings;
    const key = readApiKey(settings, this.app.secretStorage);
    const transport = this.host.transport?.() ?? createObsidianHttpTransport();
    return testConnection(toProviderSettings(settings, key), transport);
  }

  private describeTest(): string {
    const result = this.lastTest;
    if (result === null) return 'Sends one short request to check the address, the model and the key.';
    if (result.ok) return `Connected. ${result.model} answered in ${(result.elapsedMs / 1000).toFixed(1)} s.`;
    return result.message;
  }

  private budgetRows(): SettingRow[] {
    const budget = <K extends keyof RecursaSettings['budgets']>(key: K) => ({
      read: (s: RecursaSettings) => s.budgets[key],
      write: (s: RecursaSettings, v: number): RecursaSettings => ({ ...s, budgets: { ...s.budgets, [key]: v } }),
    });
    return [
      this.numberRow('Model calls', 'Most turns of the model for one request.', 'maxTurns', budget('maxTurns')),
      this.numberRow('Time in seconds', 'Longest a request may run.', 'timeMs', budget('timeMs'), 1000),
      this.numberRow('Tokens', 'Most tokens sent and received, over all turns.', 'maxTokens', budget('maxTokens')),
      this.numberRow('Vault calls', 'Most calls to the vault the agent\'s code may make.', 'maxMemCalls', budget('maxMemCalls')),
      this.numberRow('Result tokens', 'Longest result of one step shown to the model; longer ones are cut.', 'resultTokens', budget('resultTokens')),
      this.numberRow('Context window', 'The model\'s context, in tokens; older turns are shortened to fit.', 'contextTokens', budget('contextTokens')),
    ];
  }

  private vaultRows(): SettingRow[] {
    return [
      {
        name: 'Protected folders',
        desc: 'Folders the agent may not read or change, one per line.',
        render: (setting) =>
          setting.addTextArea((area) => {
            area.inputEl.rows = 4;
            area
              .setPlaceholder('Private')
              .setValue(this.settings.protectedFolders.join('\n'))
              .onChange(async (value) => {
                const refused = value
                  .split(/[\n,]/)
                  .map((line) => line.trim())
                  .filter((line) => line !== '' && parseProtectedFolders([line]).length === 0);
                setting.setDesc(refused.length === 0 ? 'Folders the agent may not read or change, one per line.' : `Not vault folders, so left out: ${refused.join(', ')}`);
                setting.descEl.toggleClass('recursa-setting-error', refused.length > 0);
                await this.change({ ...this.settings, protectedFolders: parseProtectedFolders(value) });
              });
          }),
      },
      {
        name: 'Let the agent edit git and instruction files',
        desc: 'Off: the agent may read .gitignore, .gitattributes, .gitmodules and the vault\'s AGENTS.md but not change, move or delete them, so a note it read cannot make it hide files from history or rewrite its own instructions.',
        render: (setting) =>
          setting.addToggle((toggle) =>
            toggle.setValue(this.settings.editProtectedFiles).onChange(async (value) => this.change({ ...this.settings, editProtectedFiles: value })),
          ),
      },
      {
        name: 'Logseq mode',
        desc: 'Keep notes valid for Logseq (every line a block). Automatic turns it on when the vault has a Logseq configuration.',
        render: (setting) =>
          setting.addDropdown((dropdown) =>
            dropdown
              .addOption('auto', 'Automatic')
              .addOption('on', 'On')
              .addOption('off', 'Off')
              .setValue(this.settings.logseqMode)
              .onChange(async (value) => this.change({ ...this.settings, logseqMode: toLogseqMode(value) })),
          ),
      },
      {
        name: 'Custom instructions',
        desc: 'Added to every request, after the built-in rules and the instructions file at the vault root.',
        render: (setting) =>
          setting.addTextArea((area) => {
            area.inputEl.rows = 5;
            area.setValue(this.settings.customInstructions).onChange(async (value) => this.change({ ...this.settings, customInstructions: value }));
          }),
      },
      {
        name: 'Mark agent changes in the editor',
        desc: 'Highlight the lines the agent changed in its latest commit to the open note.',
        render: (setting) =>
          setting.addToggle((toggle) => toggle.setValue(this.settings.changeMarkers).onChange(async (value) => this.change({ ...this.settings, changeMarkers: value }))),
      },
    ];
  }

  private gitRows(): SettingRow[] {
    const author = (field: 'name' | 'email') => (setting: Setting) =>
      setting.addText((text) =>
        text.setValue(this.settings.gitAuthor[field]).onChange(async (value) => this.change({ ...this.settings, gitAuthor: { ...this.settings.gitAuthor, [field]: value } })),
      );
    return [
      { name: 'Author name', desc: 'The name on the agent\'s commits.', render: author('name') },
      { name: 'Author email', desc: 'The email address on the agent\'s commits.', render: author('email') },
      {
        name: 'Review changes before saving',
        desc: 'Show what each request changed, file by file, to keep or undo before it is committed. The chat\'s header has the same switch.',
        render: (setting) => setting.addToggle((toggle) => toggle.setValue(this.settings.reviewChanges).onChange(async (value) => this.change({ ...this.settings, reviewChanges: value }))),
      },
    ];
  }

  private memoryRows(): SettingRow[] {
    return [
      {
        name: 'Memory folder',
        desc: 'Where the agent keeps the notes it remembers.',
        render: (setting) =>
          setting.addText((text) =>
            text.setValue(this.settings.memoryFolder).onChange(async (value) => {
              const folder = parseProtectedFolders([value])[0];
              if (folder !== undefined) await this.change({ ...this.settings, memoryFolder: `${folder}/` });
            }),
          ),
      },
      {
        name: 'Working memory note',
        desc: 'The note that holds the agent\'s working memory.',
        render: (setting) =>
          setting.addText((text) =>
            text.setValue(this.settings.workingMemoryNote).onChange(async (value) => {
              const path = parseProtectedFolders([value])[0];
              if (path !== undefined) await this.change({ ...this.settings, workingMemoryNote: path.toLowerCase().endsWith('.md') ? path : `${path}.md` });
            }),
          ),
      },
    ];
  }

  private memoryLimitRows(): SettingRow[] {
    return [
      this.numberRow('Memory in the prompt', 'Tokens of remembered notes placed in a new conversation.', 'memoryPromptTokens', field('memoryPromptTokens')),
      this.numberRow('Working memory size', 'Most characters the working memory may hold.', 'workingMemoryCharLimit', field('workingMemoryCharLimit')),
      this.numberRow('Items per entry', 'Most items directly under one entry of the working memory.', 'workingMemoryChildLimit', field('workingMemoryChildLimit')),
      this.numberRow('Action log size', 'Entries kept in the log of actions.', 'actionLogSize', field('actionLogSize')),
    ];
  }

  /**
   * A number field, shown as `access.read(settings) / scale`; a value within its limits is saved,
   * anything else is marked invalid and not saved.
   */
  private numberRow(name: string, desc: string, key: NumberSetting, access: NumberAccess, scale = 1): SettingRow {
    const limits = NUMBER_LIMITS[key];
    const range = `From ${Math.ceil(limits.min / scale)} to ${Math.floor(limits.max / scale)}.`;
    return {
      name,
      desc: `${desc} ${range}`,
      render: (setting) =>
        addNumberField(setting, {
          min: Math.ceil(limits.min / scale),
          max: Math.floor(limits.max / scale),
          value: Math.round(access.read(this.settings) / scale),
          invalid: `Enter a number. ${range}`,
          onValid: async (value) => {
            setting.setDesc(`${desc} ${range}`);
            await this.change(access.write(this.settings, readNumber(value * scale, key, access.read(this.settings))));
          },
        }),
    };
  }
}

interface NumberAccess {
  read: (settings: RecursaSettings) => number;
  write: (settings: RecursaSettings, value: number) => RecursaSettings;
}

type NumberField = 'memoryPromptTokens' | 'workingMemoryCharLimit' | 'workingMemoryChildLimit' | 'actionLogSize';

function field(key: NumberField): NumberAccess {
  return { read: (s) => s[key], write: (s, v) => ({ ...s, [key]: v }) };
}

function toProtocol(value: string): AgentProtocol {
  return value === 'actions' ? 'actions' : 'code';
}

function toLogseqMode(value: string): LogseqMode {
  return value === 'on' || value === 'off' ? value : 'auto';
}
