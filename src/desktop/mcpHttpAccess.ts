// No Node modules here: the plugin on desktop shares this file with the command line.

/** The answer to a request that may not reach the MCP server, or null to let it through. */
export interface AccessRefusal {
  status: 401 | 403;
  message: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether an `Origin` header names this machine: `http(s)://localhost`, `127.0.0.1` or `[::1]`, any
 * port. A page on any other origin (DNS rebinding, a site the user visits) is refused.
 */
export function isLocalOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(url.hostname);
}

/** Whether a `Host` header names this machine (a rebound domain name does not). */
export function isLocalHost(host: string): boolean {
  return isLocalOrigin(`http://${host}`);
}

/**
 * Compares a request's `Authorization` header with `Bearer <token>` in constant time: both sides are
 * hashed (SHA-256) and the digests compared byte by byte without stopping early, so neither the
 * token's length nor the position of the first wrong character shows in the timing.
 */
export async function bearerMatches(header: string | undefined, token: string): Promise<boolean> {
  const given = /^Bearer[ \t]+(.+)$/i.exec(header?.trim() ?? '')?.[1]?.trim() ?? '';
  const [a, b] = await Promise.all([digest(given), digest(token)]);
  let difference = given === '' || token === '' ? 1 : 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

/**
 * The checks every request to the MCP endpoint passes, in order: a foreign `Origin` or `Host` is
 * refused (403) before the token is looked at; a missing or wrong token is refused (401).
 */
export async function checkAccess(headers: { origin?: string; host?: string; authorization?: string }, token: string): Promise<AccessRefusal | null> {
  if (headers.origin !== undefined && !isLocalOrigin(headers.origin)) {
    return { status: 403, message: `Requests from the origin ${headers.origin} are refused: only pages on this machine (localhost) may call this server.` };
  }
  if (headers.host !== undefined && !isLocalHost(headers.host)) {
    return { status: 403, message: `Requests for the host ${headers.host} are refused: use http://127.0.0.1 or http://localhost.` };
  }
  if (!(await bearerMatches(headers.authorization, token))) {
    return { status: 401, message: 'Missing or wrong token: send "Authorization: Bearer <token>" with the token from Recursa (RECURSA_MCP_TOKEN, or the MCP section of the plugin\'s settings).' };
  }
  return null;
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}
