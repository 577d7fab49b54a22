import { toHex } from '../../core/git/sha1';
import { MCP_TOKEN_SECRET, type SecretStore } from '../settings/pluginSettings';

/** A new bearer token: 32 random bytes as 64 hex digits. */
export function newMcpToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return toHex(bytes);
}

/** The MCP server's token from secret storage, made and stored on first use. */
export function mcpToken(secrets: SecretStore): string {
  const stored = secrets.getSecret(MCP_TOKEN_SECRET) ?? '';
  if (stored.length >= 16) return stored;
  return regenerateMcpToken(secrets);
}

/** Replaces the token in secret storage; clients holding the old one are refused from then on. */
export function regenerateMcpToken(secrets: SecretStore): string {
  const token = newMcpToken();
  secrets.setSecret(MCP_TOKEN_SECRET, token);
  return token;
}
