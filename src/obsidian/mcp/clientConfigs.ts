/** A ready configuration for one MCP client, to copy. */
export interface ClientConfig {
  /** The client, as its users know it. */
  client: 'Claude Code' | 'Claude Desktop' | 'Cursor';
  /** Where it goes. */
  where: string;
  text: string;
}

/**
 * Configurations for the clients users ask about most, for a server at `url` with `token`:
 * Claude Code and Cursor speak Streamable HTTP themselves; Claude Desktop's local configuration
 * starts stdio servers only, so it goes through `recursa mcp --bridge`.
 */
export function clientConfigs(url: string, token: string): ClientConfig[] {
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return [
    {
      client: 'Claude Code',
      where: 'Run in a terminal',
      text: `claude mcp add --transport http recursa ${url} --header "Authorization: Bearer ${token}"\n`,
    },
    {
      client: 'Claude Desktop',
      // The `recursa` command of this project (`npm install -g` of its folder), never a package
      // fetched by name at start-up: the token is in its environment.
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config); needs the recursa command (Node.js)',
      text: json({ mcpServers: { recursa: { command: 'recursa', args: ['mcp', '--bridge', url], env: { RECURSA_MCP_TOKEN: token } } } }),
    },
    {
      client: 'Cursor',
      where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
      text: json({ mcpServers: { recursa: { url, headers: { Authorization: `Bearer ${token}` } } } }),
    },
  ];
}
