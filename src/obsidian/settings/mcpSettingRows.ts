import { Notice } from 'obsidian';
import { clientConfigs } from '../mcp/clientConfigs';
import type { McpServerStatus } from '../mcp/PluginMcpServer';
import { NUMBER_LIMITS, readNumber, type McpSettings, type RecursaSettings } from './pluginSettings';
import { addNumberField, type SettingRow } from './settingRow';

/** What the rows need of the running server (`PluginMcpServer`). */
export interface McpRowsServer {
  status(): McpServerStatus;
  onChange(listener: () => void): () => void;
  token(): string;
  regenerateToken(): Promise<string>;
}

export interface McpRowsHost {
  settings(): RecursaSettings;
  change(next: RecursaSettings): Promise<void>;
  server: McpRowsServer;
  /** Puts text on the clipboard. Default: `navigator.clipboard`. */
  copy?: (text: string) => Promise<void>;
}

/** The status line: whether the server runs, where, and what to do when it could not start. */
export function mcpStatusText(status: McpServerStatus): string {
  switch (status.state) {
    case 'off':
      return 'Off.';
    case 'unavailable':
      return 'Not available here: the MCP server needs Obsidian for desktop.';
    case 'waiting':
      return 'Starts once the vault is open.';
    case 'starting':
      return `Starting on port ${status.port}…`;
    case 'running': {
      const clients = status.sessions === 1 ? '1 client connected' : `${status.sessions === 0 ? 'no' : status.sessions} clients connected`;
      return `Running at ${status.url}${status.readOnly ? ' (read-only)' : ''}, ${clients}.`;
    }
    case 'failed':
      return `Not running. ${status.message}`;
  }
}

/** The URL clients use for `port`, whether or not the server runs yet. */
export function mcpUrl(port: number): string {
  return `http://127.0.0.1:${port}/mcp`;
}

/**
 * The rows of the "MCP server" section (desktop only): the switch, the status, the port, read-only,
 * the token and ready configurations for Claude Code, Claude Desktop and Cursor.
 */
export function mcpSettingRows(host: McpRowsHost): SettingRow[] {
  const mcp = host.settings().mcp;
  const update = (patch: Partial<McpSettings>): Promise<void> => host.change({ ...host.settings(), mcp: { ...host.settings().mcp, ...patch } });
  const limits = NUMBER_LIMITS.mcpPort;
  const copy = async (text: string, what: string): Promise<void> => {
    try {
      await (host.copy ?? ((value: string) => navigator.clipboard.writeText(value)))(text);
      new Notice(`Copied ${what}.`);
    } catch {
      new Notice(`Recursa could not use the clipboard. ${what[0]?.toUpperCase() ?? ''}${what.slice(1)} was not copied.`);
    }
  };
  const configRows = clientConfigs(mcpUrl(mcp.port), '').map(
    (config): SettingRow => ({
      name: config.client,
      desc: `${config.where}. Holds the token: keep it private.`,
      render: (setting) =>
        setting.addButton((button) =>
          button.setButtonText('Copy configuration').onClick(() => {
            const ready = clientConfigs(mcpUrl(host.settings().mcp.port), host.server.token()).find((entry) => entry.client === config.client);
            if (ready !== undefined) void copy(ready.text, `the configuration for ${config.client}`);
          }),
        ),
    }),
  );
  return [
    {
      name: 'Serve MCP to other apps',
      desc: 'Lets Claude Code, Claude Desktop, Cursor and other MCP clients use this vault while Obsidian is open, through the same history and search index as the chat. Only programs on this computer can connect, and only with the token.',
      render: (setting) => setting.addToggle((toggle) => toggle.setValue(mcp.enabled).onChange(async (value) => update({ enabled: value }))),
    },
    {
      name: 'Status',
      desc: '',
      render: (setting) => {
        const show = (): void => {
          setting.setDesc(mcpStatusText(host.server.status()));
        };
        show();
        const stop = host.server.onChange(() => {
          if (!setting.settingEl.isConnected) stop();
          else show();
        });
      },
    },
    {
      name: 'Port',
      desc: `Clients connect to ${mcpUrl(mcp.port)}. From ${limits.min} to ${limits.max}.`,
      render: (setting) =>
        addNumberField(setting, {
          min: limits.min,
          max: limits.max,
          value: mcp.port,
          integer: true,
          invalid: `Enter a port from ${limits.min} to ${limits.max}.`,
          onValid: async (port) => {
            setting.setDesc(`Clients connect to ${mcpUrl(port)}. From ${limits.min} to ${limits.max}.`);
            await update({ port: readNumber(port, 'mcpPort', mcp.port) });
          },
        }),
    },
    {
      name: 'Read-only',
      desc: 'Offer clients only recall, search and read: they can look but not change anything.',
      render: (setting) => setting.addToggle((toggle) => toggle.setValue(mcp.readOnly).onChange(async (value) => update({ readOnly: value }))),
    },
    {
      name: 'Token',
      desc: 'Clients send it with every request. It is kept in Obsidian\'s keychain, never in the settings file or the vault. Regenerating it disconnects every client until you give them the new one.',
      render: (setting) =>
        setting
          .addButton((button) => button.setButtonText('Copy token').onClick(() => void copy(host.server.token(), 'the token')))
          .addButton((button) => {
            // Obsidian's destructive style (`setWarning` is deprecated).
            button.buttonEl.addClass('mod-warning');
            button.setButtonText('Regenerate').onClick(async () => {
              await host.server.regenerateToken();
              new Notice('Recursa made a new token. Copy the configurations again for your clients.');
            });
          }),
    },
    ...configRows,
  ];
}
