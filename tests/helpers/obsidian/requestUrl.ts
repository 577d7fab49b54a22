import http from 'node:http';
import https from 'node:https';
import type * as Obsidian from 'obsidian';
import { requestUrlPromise } from './requestUrlPromise';

/**
 * Obsidian's `requestUrl` over Node's `http`/`https`, with the behaviour plugins can observe:
 * - the whole body arrives at once, after the response has ended; nothing streams;
 * - it cannot be cancelled: there is no signal, and a request runs until the server answers;
 * - with `throw` (the default) a status of 400 or more rejects with `Request failed, status <n>`
 *   (the error carries `status`); with `throw: false` every status resolves;
 * - a network failure rejects with Chromium's error name, as on desktop (`net::ERR_CONNECTION_REFUSED`);
 * - `contentType` sets the `content-type` header; header names in the response are lower case;
 * - `json` parses the text when read (and throws then when it is not JSON);
 * - the promise also offers `.arrayBuffer`, `.text` and `.json` as promises.
 * Unlike Obsidian it does not follow redirects.
 */
export const requestUrl: typeof Obsidian.requestUrl = (request) => {
  const param = typeof request === 'string' ? { url: request } : request;
  return requestUrlPromise(send(param));
};

function send(param: Obsidian.RequestUrlParam): Promise<Obsidian.RequestUrlResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(param.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('net::ERR_UNKNOWN_URL_SCHEME');
    const headers: Record<string, string> = { ...param.headers };
    if (param.contentType !== undefined) headers['content-type'] = param.contentType;
    const body = param.body === undefined ? undefined : typeof param.body === 'string' ? Buffer.from(param.body, 'utf8') : Buffer.from(param.body);
    if (body !== undefined) headers['content-length'] = String(body.length);

    const req = (url.protocol === 'https:' ? https : http).request(url, { method: param.method ?? 'GET', headers });
    req.on('error', (error) => reject(new Error(chromiumError(error))));
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', () => undefined); // `close` below reports it.
      res.on('close', () => {
        if (!res.complete) {
          reject(new Error('net::ERR_CONNECTION_CLOSED'));
          return;
        }
        const status = res.statusCode ?? 0;
        if (status >= 400 && param.throw !== false) {
          reject(Object.assign(new Error(`Request failed, status ${status}`), { status }));
          return;
        }
        resolve(responseOf(status, res.headers, Buffer.concat(parts)));
      });
    });
    req.end(body);
  });
}

function responseOf(status: number, rawHeaders: http.IncomingHttpHeaders, bytes: Buffer): Obsidian.RequestUrlResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(rawHeaders)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const text = bytes.toString('utf8');
  return {
    status,
    headers,
    arrayBuffer: new Uint8Array(bytes).buffer,
    text,
    get json(): unknown {
      return JSON.parse(text) as unknown;
    },
  };
}

/** Chromium's name for the failure, as Obsidian's desktop `requestUrl` reports it. */
function chromiumError(error: Error): string {
  switch ((error as { code?: unknown }).code) {
    case 'ECONNREFUSED':
      return 'net::ERR_CONNECTION_REFUSED';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'net::ERR_NAME_NOT_RESOLVED';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'net::ERR_CONNECTION_RESET';
    case 'ETIMEDOUT':
      return 'net::ERR_CONNECTION_TIMED_OUT';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'net::ERR_ADDRESS_UNREACHABLE';
    default:
      return 'net::ERR_FAILED';
  }
}
