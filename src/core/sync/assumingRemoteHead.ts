import type { GitHttpClient } from './gitHttpClient';
import { collectBody, singleChunk } from './httpBody';
import { joinPktLines, pktLines } from './pktLine';

const ADVERTISEMENT = /\/info\/refs\?service=git-upload-pack$/;

/**
 * `http` with one repair for isomorphic-git's `fetch`: it looks up the remote's `HEAD` before it
 * saves the fetched pack, and fails when `HEAD` names a branch the remote has not got — the usual
 * state of a server repository made with `git init --bare` (default branch `master`) that only
 * ever received `main`. When the ref advertisement has no `HEAD`, this adds
 * `symref=HEAD:refs/heads/<branch>` to its capabilities (if the remote has `branch`), which is
 * what a remote whose `HEAD` names that branch would send. Every other answer passes untouched.
 */
export function assumingRemoteHead(http: GitHttpClient, branch: string): GitHttpClient {
  return {
    async request(request) {
      const response = await http.request(request);
      const method = request.method ?? 'GET';
      if (method !== 'GET' || !ADVERTISEMENT.test(request.url) || response.statusCode !== 200 || response.body === undefined) return response;
      const bytes = await collectBody(response.body);
      return { ...response, body: singleChunk(withHeadSymref(bytes, branch)) };
    },
  };
}

/** The advertisement `bytes` with `HEAD` pointed at `branch` when it names no `HEAD` itself. */
export function withHeadSymref(bytes: Uint8Array, branch: string): Uint8Array {
  const lines = pktLines(bytes);
  if (lines === null) return bytes;
  const decoder = new TextDecoder();
  let first = -1;
  let hasBranch = false;
  for (const [i, line] of lines.entries()) {
    if (line === null) continue;
    const text = decoder.decode(line);
    if (text.startsWith('#')) continue;
    const nul = text.indexOf('\0');
    const name = (nul < 0 ? text : text.slice(0, nul)).trim().split(' ')[1] ?? '';
    if (name === 'HEAD') return bytes;
    if (name === `refs/heads/${branch}`) hasBranch = true;
    if (first < 0) {
      if (nul < 0 || /(^| )symref=HEAD:/.test(text.slice(nul + 1))) return bytes;
      first = i;
    }
  }
  if (first < 0 || !hasBranch) return bytes;
  const text = decoder.decode(lines[first] as Uint8Array);
  const newline = text.endsWith('\n') ? '\n' : '';
  lines[first] = new TextEncoder().encode(`${text.slice(0, text.length - newline.length)} symref=HEAD:refs/heads/${branch}${newline}`);
  return joinPktLines(lines);
}
