import type * as Obsidian from 'obsidian';
import { requestUrlPromise } from '../obsidian/requestUrlPromise';

/**
 * Obsidian's `requestUrl` on a phone, with the page's own `fetch`. On mobile Obsidian sends it
 * through the native HTTP stack, outside the WebView's CORS rules; the harness's Chromium runs with
 * web security off to give the page's `fetch` the same freedom (see `mobileHarness.ts`). What a
 * plugin can observe, as in the desktop test module:
 * - the whole body arrives at once, after the response has ended; nothing streams;
 * - it cannot be cancelled: there is no signal;
 * - with `throw` (the default) a status of 400 or more rejects with `Request failed, status <n>`;
 * - a network failure rejects with the WebView's error (here Chromium's `Failed to fetch`; assumed
 *   close enough to what Capacitor's HTTP layer reports, which names no `net::` code either);
 * - header names in the response are lower case; `contentType` sets the `content-type` header.
 */
export const requestUrl: typeof Obsidian.requestUrl = (request) => {
  const param = typeof request === 'string' ? { url: request } : request;
  return requestUrlPromise(send(param));
};

async function send(param: Obsidian.RequestUrlParam): Promise<Obsidian.RequestUrlResponse> {
  const headers: Record<string, string> = { ...param.headers };
  if (param.contentType !== undefined) headers['content-type'] = param.contentType;
  // This is the fake requestUrl itself, built on the page's fetch.
  const response = await window.fetch(param.url, { method: param.method ?? 'GET', headers, body: param.body ?? null, redirect: 'follow', cache: 'no-store' });
  const arrayBuffer = await response.arrayBuffer();
  if (response.status >= 400 && param.throw !== false) throw Object.assign(new Error(`Request failed, status ${response.status}`), { status: response.status });
  const text = new TextDecoder().decode(arrayBuffer);
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (responseHeaders[name.toLowerCase()] = value));
  return {
    status: response.status,
    headers: responseHeaders,
    arrayBuffer,
    text,
    get json(): unknown {
      return JSON.parse(text) as unknown;
    },
  };
}
