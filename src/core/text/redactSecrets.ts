/**
 * Keeps credentials out of what is shown, logged or thrown: every message that may name a URL,
 * echo a server's answer or a request's headers goes through `redactSecrets` at the boundary
 * where it leaves (provider errors, HTTP transports, the command line).
 */

/** What stands in for a removed secret. */
export const REDACTED = '***';

/** Known secrets shorter than this are not searched for: replacing every "ab" would garble the message and hide nothing. */
const MIN_SECRET_LENGTH = 4;

/** `scheme://userinfo@`: everything before the last `@` of the authority is credentials. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>`]*(?:@[^\s/?#@"'<>`]*)*@/gi;

/** Names of query (or fragment) parameters that carry secrets: `api_key`, `key`, `access_token`, `sig`… */
const SECRET_NAME = '(?:[a-z0-9_.-]*(?:api|access|auth|refresh|id|session|client|private|bearer)(?:[_.-]|%5f|%2d)?)?(?:key|token|secret|password|passwd|pwd|sig|signature|auth|code|credentials?)';
const SECRET_PARAMETER = new RegExp(`([?&#;]${SECRET_NAME}=)[^&#\\s"'<>\`]*`, 'gi');
const IS_SECRET_NAME = new RegExp(`^${SECRET_NAME}$`, 'i');

/** `Authorization: Bearer …`, `"authorization": "Basic …"`, `Proxy-Authorization=…`. */
const AUTHORIZATION_VALUE = /(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?\s*(?:(?:bearer|basic|token|digest)\s+)?)[^\s"',;}]+/gi;

/** A bearer credential written anywhere: `Bearer sk-…` (a word with a digit, so prose stays). */
const SCHEME_CREDENTIAL = /(\bbearer\s+)(?=[a-z0-9._~+/=-]*\d)[a-z0-9._~+/=-]{8,}/gi;

/** `x-api-key: …`, `"api_key": "…"`, `apiKey=…`, `x-goog-api-key`, `api-token`. */
const KEY_VALUE = /(\b(?:x-)?(?:goog-)?api[_-]?(?:key|token)["']?\s*[:=]\s*["']?\s*)[^\s"',;&}]+/gi;

/**
 * `text` with secrets replaced by `***`: credentials in URLs (`http://user:key@host` becomes
 * `http://***@host`), secret-looking query parameters (`?api_key=***`), `Authorization` and API
 * key header values, and every occurrence of each of `secrets` (the configured API key, say),
 * also in its URL-encoded form.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let result = text;
  for (const secret of knownForms(secrets)) result = result.split(secret).join(REDACTED);
  return result
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(SECRET_PARAMETER, `$1${REDACTED}`)
    .replace(AUTHORIZATION_VALUE, `$1${REDACTED}`)
    .replace(SCHEME_CREDENTIAL, `$1${REDACTED}`)
    .replace(KEY_VALUE, `$1${REDACTED}`);
}

/**
 * The secrets a URL carries, to redact wherever they appear on their own (a server may echo a
 * password): its user name and password, as written and decoded, and its secret query values.
 */
export function secretsInUrl(url: string | null | undefined): string[] {
  if (url === null || url === undefined) return [];
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return [];
  }
  const found = [parsed.username, parsed.password, safeDecode(parsed.username), safeDecode(parsed.password)];
  for (const [name, value] of parsed.searchParams) if (IS_SECRET_NAME.test(name)) found.push(value);
  return found.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
}

/** Each secret long enough to look for, as written and URL-encoded, longest first (so a longer one is not cut by a shorter one inside it). */
function knownForms(secrets: readonly (string | null | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    const trimmed = secret?.trim() ?? '';
    if (trimmed.length < MIN_SECRET_LENGTH) continue;
    forms.add(trimmed);
    forms.add(encodeURIComponent(trimmed));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
