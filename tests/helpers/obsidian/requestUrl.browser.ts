import type * as Obsidian from 'obsidian';
import { callHost, fromBase64, toBase64 } from './hostFs.browser';
import { requestUrlPromise } from './requestUrlPromise';

/**
 * `requestUrl` in a browser page: Obsidian runs it outside the page (no CORS), and so does this
 * one, through the page bridge to the Node implementation in `requestUrl.ts` — same behaviour: the
 * whole body at once, no cancelling, `throw` on 400 and above, Chromium's error names.
 */
export const requestUrl: typeof Obsidian.requestUrl = (request) => {
  const param = typeof request === 'string' ? { url: request } : request;
  const body = param.body instanceof ArrayBuffer ? { base64: toBase64(new Uint8Array(param.body)) } : param.body;
  const response = (async (): Promise<Obsidian.RequestUrlResponse> => {
    const answer = (await callHost('http', 'requestUrl', [{ ...param, body }])) as { status: number; headers: Record<string, string>; base64: string };
    const bytes = fromBase64(answer.base64);
    const text = new TextDecoder().decode(bytes);
    return {
      status: answer.status,
      headers: answer.headers,
      arrayBuffer: bytes.slice().buffer,
      text,
      get json(): unknown {
        return JSON.parse(text) as unknown;
      },
    };
  })();
  return requestUrlPromise(response);
};
