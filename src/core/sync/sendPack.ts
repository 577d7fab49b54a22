import type { Deflate } from '../git/gitObjects';
import type { GitRepository } from '../git/repository';
import type { GitHttpClient } from './gitHttpClient';
import { chunks, collectBody, concatBytes, type HttpBody } from './httpBody';
import { FLUSH_PKT, pktLine, PktLineError, pktLines, readPktLines } from './pktLine';
import { buildPushPack, listPushObjects } from './pushPack';
import { stripCredentials } from './remoteConfig';
import { SyncError } from './SyncError';
import type { SyncProgress } from './syncRepository';

/**
 * A push over git's smart HTTP (`Documentation/gitprotocol-http.txt`, `gitprotocol-pack.txt`):
 * the remote's refs from `info/refs?service=git-receive-pack`, then one POST to
 * `git-receive-pack` of the branch's update command and the pack, and the remote's report.
 */

const ZERO_OID = '0'.repeat(40);
/** What this client asks for, when the remote offers it. */
const WANTED_CAPABILITIES = ['report-status', 'side-band-64k'];
const AGENT = 'recursa';

export interface PushRequest {
  /** The remote's URL (credentials in it are taken out and used as `credentials` would be). */
  url: string;
  http: GitHttpClient;
  credentials?: { username: string; password: string } | null;
  branch: string;
  /** The commit the branch moves to. */
  ours: string;
  /** Where the remote's branch was when fetched (null: it has no such branch); the push expects it there still. */
  theirs: string | null;
  /** The commits the remote lacks (`commitsBetween(ours, theirs)`). */
  commits: readonly string[];
  /** Compresses the objects sent: the repository's own (the platform's zlib where there is one). */
  deflate: Deflate;
  onProgress?: (progress: SyncProgress) => void;
}

/** The remote answered a request with an HTTP status other than 200. */
export class RemoteHttpError extends Error {
  override readonly name = 'RemoteHttpError';

  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** The remote answered, but not as a smart-HTTP git server. */
export class NotGitServerError extends Error {
  override readonly name = 'NotGitServerError';
}

/**
 * Moves the remote's branch from `theirs` to `ours`, sending what it lacks — a fast-forward (the
 * caller makes `ours` descend from `theirs`), never forced: the remote moves the branch only if
 * it is still at `theirs`.
 *
 * @throws SyncError `Rejected` when the branch has moved on the remote since the fetch, or the
 *   remote refuses the update (a hook, a policy, a race); `RemoteHttpError`, `NotGitServerError`
 *   and the HTTP client's own errors otherwise.
 */
export async function sendPack(repo: GitRepository, push: PushRequest): Promise<void> {
  const split = stripCredentials(push.url);
  const url = split.url.replace(/\/+$/, '');
  const credentials = push.credentials ?? (split.username === '' && split.password === '' ? null : { username: split.username, password: split.password });
  const auth: Record<string, string> = credentials === null ? {} : { authorization: basicAuth(credentials.username, credentials.password) };
  const ref = `refs/heads/${push.branch}`;

  const advertised = await requestAdvertisement(push.http, url, auth);
  const remoteTip = advertised.refs.get(ref) ?? null;
  if (remoteTip !== push.theirs) {
    throw new SyncError('Rejected', `the remote's ${push.branch} moved after this sync fetched it (another device pushed meanwhile). Sync again to merge what changed there.`);
  }

  const report = (phase: string, loaded: number, total: number): void => push.onProgress?.({ phase, loaded, total });
  const objects = await listPushObjects(repo, push.commits, push.theirs, (count) => report('Counting objects', count, 0));
  const total = objects.read.length + objects.blobs.length;
  const pack = await buildPushPack(repo, objects, push.deflate, (packed) => report('Compressing objects', packed, total));

  const capabilities = [...WANTED_CAPABILITIES.filter((name) => advertised.capabilities.has(name)), ...(advertised.capabilities.has('agent') ? [`agent=${AGENT}`] : [])];
  const command = pktLine(`${remoteTip ?? ZERO_OID} ${push.ours} ${ref}\0 ${capabilities.join(' ')}`);
  report('Writing objects', 0, total);
  const response = await push.http.request({
    url: `${url}/git-receive-pack`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/x-git-receive-pack-request', accept: 'application/x-git-receive-pack-result', 'user-agent': `git/${AGENT}` },
    body: chunks([concatBytes([command, FLUSH_PKT]), pack]),
  });
  if (response.statusCode !== 200) throw await httpError(response);
  report('Writing objects', total, total);
  if (!capabilities.includes('report-status')) {
    // Nothing to read: the remote does not say how the update went.
    if (response.body !== undefined) await collectBody(response.body);
    return;
  }
  const outcome = await readPushReport(response.body ?? [], capabilities.includes('side-band-64k'), (progress) => push.onProgress?.(progress));
  requireAccepted(outcome, ref);
}

interface Advertisement {
  /** Each ref the remote has, and the id it points at. */
  refs: Map<string, string>;
  capabilities: Set<string>;
}

async function requestAdvertisement(http: GitHttpClient, url: string, auth: Record<string, string>): Promise<Advertisement> {
  const response = await http.request({
    url: `${url}/info/refs?service=git-receive-pack`,
    method: 'GET',
    headers: { ...auth, accept: 'application/x-git-receive-pack-advertisement', 'user-agent': `git/${AGENT}` },
  });
  if (response.statusCode !== 200) throw await httpError(response);
  const bytes = response.body === undefined ? new Uint8Array(0) : await collectBody(response.body);
  const type = (response.headers?.['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  // A dumb HTTP server (files only) answers with anything else; it cannot take a push.
  if (type !== 'application/x-git-receive-pack-advertisement') throw new NotGitServerError(`it answered the ref list with "${type ?? ''}" content, not git's`);
  return parseAdvertisement(bytes);
}

/**
 * A `git-receive-pack` ref advertisement: `# service=git-receive-pack`, a flush, then
 * `<id> <ref>` lines, the first with the capabilities after a NUL (an empty repository sends
 * `<zeros> capabilities^{}` for it), and a flush.
 */
export function parseAdvertisement(bytes: Uint8Array): Advertisement {
  const lines = pktLines(bytes);
  if (lines === null) throw new NotGitServerError('its ref list is not made of pkt-lines');
  const decoder = new TextDecoder();
  const text = lines.map((line) => (line === null ? null : decoder.decode(line).replace(/\n$/, '')));
  let at = 0;
  if (text[at]?.startsWith('# service=') === true) {
    if (text[at] !== '# service=git-receive-pack') throw new NotGitServerError(`it offered ${text[at] ?? ''} instead of git-receive-pack`);
    at++;
    if (text[at] === null) at++;
  }
  if (text[at]?.startsWith('version ') === true) at++;
  const refs = new Map<string, string>();
  const capabilities = new Set<string>();
  for (let first = true; at < text.length && text[at] !== null; at++, first = false) {
    let line = text[at] as string;
    // A server may answer with an error line in place of its refs (`ERR access denied`).
    if (line.startsWith('ERR ')) throw new NotGitServerError(`it answered "${line.slice(4)}"`);
    const nul = line.indexOf('\0');
    if (first && nul >= 0) {
      // `name` or `name=value`: only names are looked up.
      for (const word of line.slice(nul + 1).split(' ')) if (word !== '') capabilities.add(word.split('=')[0] as string);
      line = line.slice(0, nul);
    }
    const match = /^([0-9a-f]{40}) (\S+)$/.exec(line);
    if (match === null) throw new NotGitServerError('its ref list has a line that is not "<id> <ref>"');
    const [, oid, name] = match as unknown as [string, string, string];
    // `.have` lines name objects of other repositories the remote shares storage with, not refs.
    if (name !== 'capabilities^{}' && name !== '.have') refs.set(name, oid);
  }
  return { refs, capabilities };
}

/** What the remote reported: `unpack ok` or why not, and for each ref `ok` or `ng` and why. */
export interface PushReport {
  unpack: string | null;
  refs: Map<string, { ok: boolean; reason: string }>;
  /** The last few lines the remote wrote for the user besides progress (a hook's output, say). */
  messages: string[];
}

/** Lines of the remote's own messages kept for an error. */
const KEPT_MESSAGES = 5;

/**
 * Reads `report-status` from a push's answer. With `side-band-64k` the answer is multiplexed:
 * each pkt-line's first byte names its channel — 1 the report (itself pkt-lines), 2 progress and
 * messages for the user, 3 a fatal error (the remote gave up).
 *
 * @throws SyncError `Rejected` on a fatal error; `NotGitServerError` when the answer is not a report.
 */
export async function readPushReport(body: HttpBody, sideBand: boolean, onProgress?: (progress: SyncProgress) => void): Promise<PushReport> {
  const messages: string[] = [];
  let partial = '';
  const decoder = new TextDecoder();
  const heard = (text: string): void => {
    const pieces = (partial + text).split(/[\r\n]/);
    partial = pieces.pop() ?? '';
    for (const piece of pieces) noteMessage(piece, messages, onProgress);
  };
  // Without side-band the answer is the report; with it, channel 1 carries the report's bytes.
  const reportLines: (Uint8Array | null)[] = [];
  const reportBytes: Uint8Array[] = [];
  try {
    for await (const line of readPktLines(body)) {
      if (!sideBand) reportLines.push(line);
      else if (line === null) continue;
      else if (line[0] === 1) reportBytes.push(line.subarray(1));
      else if (line[0] === 2) heard(decoder.decode(line.subarray(1), { stream: true }));
      else if (line[0] === 3) {
        throw new SyncError('Rejected', `the remote failed while taking the push (${decoder.decode(line.subarray(1)).trim()}). Sync again to try once more.`);
      } else throw new NotGitServerError(`its answer used side-band channel ${String(line[0])}`);
    }
  } catch (error) {
    if (error instanceof PktLineError) throw new NotGitServerError(`its answer to the push ${error.message}`);
    throw error;
  }
  heard('\n');
  const lines = sideBand ? pktLines(concatBytes(reportBytes)) : reportLines;
  if (lines === null) throw new NotGitServerError('its report on the push is not made of pkt-lines');
  const report: PushReport = { unpack: null, refs: new Map(), messages };
  for (const line of lines) {
    if (line === null) break;
    const text = decoder.decode(line).replace(/\n$/, '');
    if (text.startsWith('unpack ')) report.unpack = text.slice('unpack '.length);
    else if (text.startsWith('ok ')) report.refs.set(text.slice(3), { ok: true, reason: '' });
    else if (text.startsWith('ng ')) {
      const space = text.indexOf(' ', 3);
      report.refs.set(space < 0 ? text.slice(3) : text.slice(3, space), { ok: false, reason: space < 0 ? '' : text.slice(space + 1) });
    }
  }
  return report;
}

/** @throws SyncError `Rejected` unless the remote unpacked the objects and moved `ref`. */
export function requireAccepted(report: PushReport, ref: string): void {
  const said = report.messages.length === 0 ? '' : `; the remote said: ${report.messages.join(' / ')}`;
  if (report.unpack !== 'ok') {
    const why = report.unpack === null ? 'it sent no report' : `unpack: ${report.unpack}`;
    throw new SyncError('Rejected', `the remote refused the push (${why}${said}). Sync again to try once more.`);
  }
  const status = report.refs.get(ref);
  if (status === undefined) throw new SyncError('Rejected', `the remote refused the push (it did not report on ${ref}${said}). Sync again to merge what changed there.`);
  if (!status.ok) throw new SyncError('Rejected', `the remote refused the push (${ref}: ${status.reason === '' ? 'refused' : status.reason}${said}). Sync again to merge what changed there.`);
}

/** `Resolving deltas:  40% (2/5)`, or a count alone: `Counting objects: 12, done.` */
const PROGRESS = /^([A-Za-z][A-Za-z ]*):\s+(?:\d+% \((\d+)\/(\d+)\)|(\d+))(?:, done\.?)?$/;

/** A line of the remote's side-band text: progress, or a message kept for errors. */
function noteMessage(line: string, messages: string[], onProgress?: (progress: SyncProgress) => void): void {
  const text = line.trim();
  if (text === '') return;
  const progress = PROGRESS.exec(text);
  if (progress !== null) {
    const [, phase, loaded, total, count] = progress as unknown as [string, string, string | undefined, string | undefined, string | undefined];
    onProgress?.({ phase: phase.trim(), loaded: Number(loaded ?? count), total: Number(total ?? 0) });
    return;
  }
  messages.push(text.length > 200 ? `${text.slice(0, 200)}…` : text);
  if (messages.length > KEPT_MESSAGES) messages.shift();
}

async function httpError(response: { statusCode: number; body?: HttpBody }): Promise<RemoteHttpError> {
  // Read to the end, so a kept-alive connection is free for the next request.
  if (response.body !== undefined) await collectBody(response.body).catch(() => undefined);
  return new RemoteHttpError(response.statusCode);
}

/** HTTP Basic credentials: `user:password` in UTF-8, base64. */
function basicAuth(username: string, password: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${username}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
