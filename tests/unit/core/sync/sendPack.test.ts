import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GitRepository } from '../../../../src/core/git/repository';
import { commitsBetween } from '../../../../src/core/sync/commitGraph';
import type { GitHttpClient } from '../../../../src/core/sync/gitHttpClient';
import { collectBody, singleChunk } from '../../../../src/core/sync/httpBody';
import { pktLines } from '../../../../src/core/sync/pktLine';
import { NotGitServerError, parseAdvertisement, readPushReport, RemoteHttpError, requireAccepted, sendPack, type PushReport } from '../../../../src/core/sync/sendPack';
import { SyncError } from '../../../../src/core/sync/SyncError';
import type { SyncProgress } from '../../../../src/core/sync/syncRepository';
import { GIT_ENV } from '../../../helpers/gitCli';
import { useTempDir } from '../../../helpers/tempVault';
import { withRepository as withRepositoryIn } from '../../../helpers/gitRepositoryTask';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);
const REF = 'refs/heads/main';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

function pkt(...lines: (string | Uint8Array | null)[]): Uint8Array {
  const parts = lines.map((line) => {
    if (line === null) return encode('0000');
    const payload = typeof line === 'string' ? encode(line) : line;
    const framed = new Uint8Array(payload.length + 4);
    framed.set(encode((payload.length + 4).toString(16).padStart(4, '0')));
    framed.set(payload, 4);
    return framed;
  });
  const joined = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** A side-band packet: the channel's byte, then `data`. */
function band(channel: number, data: string | Uint8Array): Uint8Array {
  const payload = typeof data === 'string' ? encode(data) : data;
  return Uint8Array.of(channel, ...payload);
}

const report = (body: Uint8Array, sideBand = true, onProgress?: (progress: SyncProgress) => void): Promise<PushReport> => readPushReport([body], sideBand, onProgress);

describe('parseAdvertisement', () => {
  it('reads the refs and the capability names of a receive-pack advertisement', () => {
    const advertisement = parseAdvertisement(
      pkt('# service=git-receive-pack\n', null, `${A} refs/heads/main\0report-status delete-refs side-band-64k quiet ofs-delta agent=git/2.43.0\n`, `${B} refs/heads/other\n`, `${B} .have\n`, null),
    );
    expect([...advertisement.refs]).toEqual([
      [REF, A],
      ['refs/heads/other', B],
    ]);
    expect(advertisement.capabilities).toEqual(new Set(['report-status', 'delete-refs', 'side-band-64k', 'quiet', 'ofs-delta', 'agent']));
  });

  it('reads an empty repository as no refs, with its capabilities', () => {
    const advertisement = parseAdvertisement(pkt('# service=git-receive-pack\n', null, `${ZERO} capabilities^{}\0report-status side-band-64k\n`, null));
    expect(advertisement.refs.size).toBe(0);
    expect(advertisement.capabilities.has('report-status')).toBe(true);
  });

  it('refuses what is not a receive-pack advertisement', () => {
    expect(() => parseAdvertisement(encode('<html>sign in</html>'))).toThrow(NotGitServerError);
    expect(() => parseAdvertisement(pkt('# service=git-upload-pack\n', null, `${A} ${REF}\0\n`, null))).toThrow(NotGitServerError);
    expect(() => parseAdvertisement(pkt('# service=git-receive-pack\n', null, 'not a ref line\n', null))).toThrow(NotGitServerError);
    expect(() => parseAdvertisement(pkt('# service=git-receive-pack\n', null, 'ERR access denied\n', null))).toThrow('it answered "access denied"');
  });
});

describe('readPushReport', () => {
  it('reads the report from side-band channel 1, even split over several packets', async () => {
    const inner = decode(pkt('unpack ok\n', `ok ${REF}\n`, null));
    const body = pkt(band(1, inner.slice(0, 7)), band(1, inner.slice(7)), null);
    const read = await report(body);
    expect(read.unpack).toBe('ok');
    expect(read.refs.get(REF)).toEqual({ ok: true, reason: '' });
    expect(() => requireAccepted(read, REF)).not.toThrow();
  });

  it('reads a report sent without side-band', async () => {
    const read = await report(pkt('unpack ok\n', `ok ${REF}\n`, null), false);
    expect(read.refs.get(REF)?.ok).toBe(true);
  });

  it('turns `ng` into Rejected with the reason, the remote\'s messages and "sync again"', async () => {
    const body = pkt(band(2, 'policy: pushes are closed\n'), band(1, pkt('unpack ok\n', `ng ${REF} pre-receive hook declined\n`, null)), null);
    const read = await report(body);
    expect(read.refs.get(REF)).toEqual({ ok: false, reason: 'pre-receive hook declined' });
    const error = catchError(() => requireAccepted(read, REF));
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).code).toBe('Rejected');
    expect((error as SyncError).message).toContain('the remote refused the push');
    expect((error as SyncError).message).toContain('pre-receive hook declined');
    expect((error as SyncError).message).toContain('policy: pushes are closed');
    expect((error as SyncError).message).toContain('Sync again');
  });

  it('turns an unpack failure into Rejected', async () => {
    const read = await report(pkt(band(1, pkt('unpack index-pack abnormal exit\n', `ng ${REF} unpacker error\n`, null)), null));
    const error = catchError(() => requireAccepted(read, REF));
    expect((error as SyncError).code).toBe('Rejected');
    expect((error as SyncError).message).toContain('unpack: index-pack abnormal exit');
  });

  it('turns a report that names no ref into Rejected', async () => {
    const read = await report(pkt(band(1, pkt('unpack ok\n', null)), null));
    expect((catchError(() => requireAccepted(read, REF)) as SyncError).code).toBe('Rejected');
  });

  it('stops with Rejected on a fatal error on channel 3', async () => {
    const body = pkt(band(2, 'Counting objects: 1\n'), band(3, 'disk quota exceeded\n'), null);
    const error = await report(body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).code).toBe('Rejected');
    expect((error as SyncError).message).toContain('disk quota exceeded');
  });

  it('passes the remote\'s progress on channel 2 to onProgress, lines cut anywhere', async () => {
    const progress: SyncProgress[] = [];
    const body = pkt(band(2, 'Resolving del'), band(2, 'tas:  50% (1/2)\rResolving deltas: 100% (2/2), done.\n'), band(1, pkt('unpack ok\n', `ok ${REF}\n`, null)), null);
    const read = await report(body, true, (step) => progress.push(step));
    expect(progress).toEqual([
      { phase: 'Resolving deltas', loaded: 1, total: 2 },
      { phase: 'Resolving deltas', loaded: 2, total: 2 },
    ]);
    expect(read.messages).toEqual([]);
  });

  it('refuses an answer that is not pkt-lines', async () => {
    await expect(report(encode('<html>'))).rejects.toBeInstanceOf(NotGitServerError);
  });
});

describe('sendPack', () => {
  const temp = useTempDir('recursa-send-pack-');
  const TOKEN = 'tok-3b9d51e7c2a4';
  const credentials = { username: 'alice', password: TOKEN };
  const cli = (...args: string[]): string => execFileSync('git', ['-C', temp.dir, ...args], { encoding: 'utf8', env: GIT_ENV }).trim();

  async function commit(files: Record<string, string>, message: string): Promise<string> {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(temp.dir, path, '..'), { recursive: true });
      await writeFile(join(temp.dir, path), content);
    }
    cli('add', '-A');
    cli('commit', '-qm', message);
    return cli('rev-parse', 'HEAD');
  }

  const withRepository = <T>(task: (repo: GitRepository) => Promise<T>): Promise<T> => withRepositoryIn(temp.dir, task);

  interface Seen {
    url: string;
    method: string;
    headers: Record<string, string>;
    body: Uint8Array | null;
  }

  /** A remote that advertises `tip` for main and answers the push with `answer` (or a status). */
  function fakeRemote(tip: string | null, answer: { status?: number; body?: Uint8Array } = {}): { http: GitHttpClient; seen: Seen[] } {
    const seen: Seen[] = [];
    const http: GitHttpClient = {
      async request({ url, method = 'GET', headers = {}, body }) {
        seen.push({ url, method, headers, body: body === undefined ? null : await collectBody(body) });
        const ok = (type: string, bytes: Uint8Array) => ({ url, method, statusCode: 200, statusMessage: 'OK', headers: { 'content-type': type }, body: singleChunk(bytes) });
        if (method === 'GET') {
          const first = tip === null ? `${ZERO} capabilities^{}` : `${tip} ${REF}`;
          return ok('application/x-git-receive-pack-advertisement', pkt('# service=git-receive-pack\n', null, `${first}\0report-status side-band-64k ofs-delta agent=git/2.43.0\n`, null));
        }
        if (answer.status !== undefined) return { url, method, statusCode: answer.status, statusMessage: '', headers: {}, body: singleChunk(encode('no')) };
        return ok('application/x-git-receive-pack-result', answer.body ?? pkt(band(1, pkt('unpack ok\n', `ok ${REF}\n`, null)), null));
      },
    };
    return { http, seen };
  }

  async function push(http: GitHttpClient, ours: string, theirs: string | null, progress?: SyncProgress[]): Promise<void> {
    await withRepository(async (repo) =>
      sendPack(repo, { url: 'https://git.example.com/me/notes.git/', http, credentials, branch: 'main', ours, theirs, commits: await commitsBetween(repo, [ours], [theirs]), deflate: repo.store.deflate, onProgress: (step) => progress?.push(step) }),
    );
  }

  it('sends the update from the advertised tip with the pack of what the remote lacks, Basic auth on every request', async () => {
    cli('init', '-q', '--initial-branch=main');
    const theirs = await commit({ 'a.md': 'a\n', 'Folder/b.md': 'b\n', 'Folder/Deep/c.md': 'c\n' }, 'one');
    const ours = await commit({ 'Folder/b.md': 'b changed\n', 'd.md': 'd\n' }, 'two');
    const { http, seen } = fakeRemote(theirs);
    const progress: SyncProgress[] = [];
    await push(http, ours, theirs, progress);

    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET https://git.example.com/me/notes.git/info/refs?service=git-receive-pack',
      'POST https://git.example.com/me/notes.git/git-receive-pack',
    ]);
    const basic = `Basic ${Buffer.from(`alice:${TOKEN}`).toString('base64')}`;
    expect(seen.every((request) => request.headers.authorization === basic)).toBe(true);
    const post = seen[1] as Seen;
    expect(post.headers['content-type']).toBe('application/x-git-receive-pack-request');
    expect(post.headers.accept).toBe('application/x-git-receive-pack-result');

    const { command, pack } = split(post.body as Uint8Array);
    expect(command).toEqual([`${theirs} ${ours} ${REF}\0 report-status side-band-64k agent=recursa`, null]);
    // The pack: what `git rev-list --objects ours ^theirs` lists — the commit, the root and
    // Folder trees, the two new blobs; nothing under Folder/Deep, nothing unchanged.
    const packFile = join(temp.dir, '.git', 'sent.pack');
    await writeFile(packFile, pack);
    cli('index-pack', '-o', join(temp.dir, '.git', 'sent.idx'), packFile);
    const sent = cli('verify-pack', '-v', join(temp.dir, '.git', 'sent.idx')).split('\n').filter((line) => /^[0-9a-f]{40} /.test(line)).map((line) => line.slice(0, 40));
    const expected = cli('rev-list', '--objects', ours, `^${theirs}`).split('\n').map((line) => line.slice(0, 40));
    expect(sent.sort()).toEqual(expected.sort());
    expect(progress.map((step) => step.phase)).toEqual(expect.arrayContaining(['Counting objects', 'Compressing objects', 'Writing objects']));
    expect(progress.at(-1)).toMatchObject({ phase: 'Writing objects' });
  });

  it('creates the branch on an empty remote from forty zeros', async () => {
    cli('init', '-q', '--initial-branch=main');
    const ours = await commit({ 'a.md': 'a\n' }, 'one');
    const { http, seen } = fakeRemote(null);
    await push(http, ours, null);
    expect(split(seen[1]?.body as Uint8Array).command[0]).toMatch(new RegExp(`^${ZERO} ${ours} ${REF}\0`));
  });

  it('refuses to push when the remote branch is not where the fetch left it, before sending anything', async () => {
    cli('init', '-q', '--initial-branch=main');
    const theirs = await commit({ 'a.md': 'a\n' }, 'one');
    const ours = await commit({ 'a.md': 'a\nb\n' }, 'two');
    const { http, seen } = fakeRemote(B);
    const error = await push(http, ours, theirs).catch((caught: unknown) => caught);
    expect((error as SyncError).code).toBe('Rejected');
    expect((error as SyncError).message).toContain('Sync again');
    expect(seen.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('takes credentials out of the URL and sends them as Basic auth, the URL without them', async () => {
    cli('init', '-q', '--initial-branch=main');
    const ours = await commit({ 'a.md': 'a\n' }, 'one');
    const { http, seen } = fakeRemote(null);
    await withRepository(async (repo) =>
      sendPack(repo, { url: `https://bob:${TOKEN}@git.example.com/notes.git`, http, branch: 'main', ours, theirs: null, commits: await commitsBetween(repo, [ours], [null]), deflate: repo.store.deflate }),
    );
    expect(seen.map((request) => request.url)).toEqual(['https://git.example.com/notes.git/info/refs?service=git-receive-pack', 'https://git.example.com/notes.git/git-receive-pack']);
    expect(seen.every((request) => request.headers.authorization === `Basic ${Buffer.from(`bob:${TOKEN}`).toString('base64')}`)).toBe(true);
  });

  it('reports an HTTP status as RemoteHttpError, the token nowhere in it', async () => {
    cli('init', '-q', '--initial-branch=main');
    const ours = await commit({ 'a.md': 'a\n' }, 'one');
    const error = await push(fakeRemote(null, { status: 403 }).http, ours, null).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteHttpError);
    expect((error as RemoteHttpError).status).toBe(403);
    expect(JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack })).not.toContain(TOKEN);
  });
});

/** A push request's body: its command pkt-lines (up to the flush) and the pack after them. */
function split(body: Uint8Array): { command: (string | null)[]; pack: Uint8Array } {
  const length = parseInt(decode(body.subarray(0, 4)), 16);
  const lines = pktLines(body.subarray(0, length + 4)) ?? [];
  return { command: lines.map((line) => (line === null ? null : decode(line))), pack: body.subarray(length + 4) };
}

function catchError(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}
