import type { GitHttpClient } from './gitHttpClient';
import { collectBody, concatBytes, singleChunk } from './httpBody';

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

/** The pkt-lines of `bytes` (null for a flush packet), or null when they do not parse. */
function pktLines(bytes: Uint8Array): (Uint8Array | null)[] | null {
  const lines: (Uint8Array | null)[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) return null;
    const length = parseInt(new TextDecoder().decode(bytes.subarray(at, at + 4)), 16);
    if (Number.isNaN(length) || (length !== 0 && length < 4) || at + Math.max(length, 4) > bytes.length) return null;
    lines.push(length === 0 ? null : bytes.subarray(at + 4, at + length));
    at += length === 0 ? 4 : length;
  }
  return lines;
}

function joinPktLines(lines: readonly (Uint8Array | null)[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const line of lines) {
    if (line === null) {
      parts.push(encoder.encode('0000'));
      continue;
    }
    parts.push(encoder.encode((line.length + 4).toString(16).padStart(4, '0')), line);
  }
  return concatBytes(parts);
}
