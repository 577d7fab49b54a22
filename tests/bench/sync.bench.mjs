// Benchmarks `syncVault` (the built library, as users get it) against the git CLI on the same
// server in the same run: git's own `git http-backend`, hosted as CGI by a Node HTTP server in a
// child process on 127.0.0.1, with HTTP Basic authentication. Each contender has its own bare
// repository on that server, so they never share history.
//   1. first push of a generated 1,000-note vault (already committed, the same commit for both)
//      to an empty repository: `syncVault(dir, { remote })` against `git push origin main`;
//   2. one-note sync, pull + push: another device has pushed a change to one note, this side has
//      committed a change to another; `syncVault(dir)` (fetch, merge commit, push) against
//      `git pull --no-rebase && git push`.
// Target (issue 20): at most 3× the CLI. Every run is checked with the CLI afterwards (the remote
// holds our head, fsck clean).
//   npm run bench                                prints a table, writes tests/bench/results/sync.json
//   node tests/bench/sync.bench.mjs --notes 200  another size
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { comparisonTable, median, timeOnce } from './benchTools.mjs';
import { generateVault } from './generateVault.mjs';

const SEED = 20240611;
const FIRST_PUSH_RUNS = 5;
const SYNC_RUNS = 7;
const TARGET_RATIO = 3;
const AUTH = { username: 'bench', password: 'bench-token-4c2e' };
const AUTH_HEADER = `Basic ${Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64')}`;

/** The git CLI away from the machine's config and from any GIT_* variable of the caller's. */
const GIT_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_'))),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@localhost',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@localhost',
};

const git = (dir, ...args) => execFileSync('git', ['-c', `http.extraHeader=Authorization: ${AUTH_HEADER}`, '-C', dir, ...args], { env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// --serve ROOT: this file as the server's child process.
const { values } = parseArgs({ options: { serve: { type: 'string' }, notes: { type: 'string', default: '1000' } } });
if (values.serve !== undefined) serve(values.serve);
else await main(Number(values.notes));

/** The CGI host: answers with `git http-backend` after checking Basic auth; prints its port. */
function serve(root) {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== AUTH_HEADER) {
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const child = spawn('git', ['http-backend'], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: AUTH.username,
        REMOTE_ADDR: '127.0.0.1',
        ...(req.headers['content-encoding'] === undefined ? {} : { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }),
        ...(req.headers['git-protocol'] === undefined ? {} : { GIT_PROTOCOL: String(req.headers['git-protocol']) }),
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = {};
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      started = true;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!started) res.writeHead(502);
      res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
}

async function startServer(root) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve', root], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

function fsckClean(dir) {
  git(dir, 'fsck', '--full', '--no-progress');
}

async function main(notes) {
  const { syncVault } = await import('../../dist/recursa.mjs');
  const root = await mkdtemp(join(tmpdir(), 'recursa-sync-bench-'));
  const remotes = join(root, 'remotes');
  await mkdir(remotes);
  const server = await startServer(remotes);
  let repoCount = 0;
  const newRemote = (name) => {
    const dir = join(remotes, `${name}-${repoCount++}.git`);
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', dir], { env: GIT_ENV });
    git(dir, 'config', 'http.receivepack', 'true');
    return { dir, url: `${server.base}/${dir.slice(remotes.length + 1)}` };
  };
  const ours = (dir, options = {}) => syncVault(dir, { username: AUTH.username, token: AUTH.password, ...options });
  try {
    // The vault, committed once with the CLI; every contender starts from a copy of it.
    const template = join(root, 'template');
    await generateVault(template, { notes, seed: SEED });
    execFileSync('git', ['init', '-q', '--initial-branch=main', template], { env: GIT_ENV });
    git(template, 'add', '-A');
    git(template, 'commit', '-q', '-m', 'vault');
    const head = git(template, 'rev-parse', 'HEAD').trim();
    const noteFiles = git(template, 'ls-files', '*.md').trim().split('\n');
    check(noteFiles.length >= notes, `the vault holds ${noteFiles.length} notes`);

    // 1. First push, taking turns.
    const firstPush = { ours: [], cli: [] };
    for (let run = 0; run < FIRST_PUSH_RUNS; run++) {
      for (const who of run % 2 === 0 ? ['ours', 'cli'] : ['cli', 'ours']) {
        const dir = join(root, `first-${who}-${run}`);
        await cp(template, dir, { recursive: true });
        const remote = newRemote(`first-${who}`);
        let result;
        if (who === 'ours') {
          ({ ms: result } = await timeOnce(() => ours(dir, { remote: remote.url })));
        } else {
          git(dir, 'remote', 'add', 'origin', remote.url);
          ({ ms: result } = await timeOnce(() => git(dir, 'push', '-q', 'origin', 'main')));
        }
        firstPush[who].push(result);
        check(git(remote.dir, 'rev-parse', 'main').trim() === head, `${who}: the remote holds the vault's commit`);
        fsckClean(remote.dir);
        await rm(dir, { recursive: true, force: true });
      }
    }

    // 2. One-note sync. Each contender: its remote, its vault, another device's clone.
    const sides = {};
    for (const who of ['ours', 'cli']) {
      const remote = newRemote(`sync-${who}`);
      const dir = join(root, `sync-${who}`);
      await cp(template, dir, { recursive: true });
      git(dir, 'remote', 'add', 'origin', remote.url);
      git(dir, 'push', '-q', '-u', 'origin', 'main');
      const other = join(root, `other-${who}`);
      git(root, 'clone', '-q', remote.url, other);
      sides[who] = { remote, dir, other };
    }
    const oneNote = { ours: [], cli: [] };
    for (let run = 0; run < SYNC_RUNS; run++) {
      for (const who of run % 2 === 0 ? ['ours', 'cli'] : ['cli', 'ours']) {
        const { remote, dir, other } = sides[who];
        // Not timed: the other device changes a note and pushes; this side changes another.
        const theirs = noteFiles[(run * 2) % noteFiles.length];
        const mine = noteFiles[(run * 2 + 1) % noteFiles.length];
        git(other, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
        await writeFile(join(other, theirs), `${await readFile(join(other, theirs), 'utf8')}\nEdited on the phone, run ${run}.\n`);
        git(other, 'commit', '-qam', `phone ${run}`);
        git(other, 'push', '-q', 'origin', 'main');
        await writeFile(join(dir, mine), `${await readFile(join(dir, mine), 'utf8')}\nEdited on the laptop, run ${run}.\n`);
        git(dir, 'commit', '-qam', `laptop ${run}`);
        let ms;
        if (who === 'ours') {
          let result;
          ({ ms, value: result } = await timeOnce(() => ours(dir)));
          check(result.merged && result.fetched === 1 && result.pushed === 2 && result.conflicts.length === 0, `ours: ${JSON.stringify(result)}`);
        } else {
          ({ ms } = await timeOnce(() => {
            git(dir, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
            git(dir, 'push', '-q', 'origin', 'main');
          }));
        }
        oneNote[who].push(ms);
        check(git(remote.dir, 'rev-parse', 'main').trim() === git(dir, 'rev-parse', 'HEAD').trim(), `${who}: the remote holds the merge`);
        check(git(dir, 'status', '--porcelain') === '', `${who}: the work tree is clean`);
        check((await readFile(join(dir, theirs), 'utf8')).includes(`phone, run ${run}.`), `${who}: the other device's edit arrived`);
      }
    }
    for (const who of ['ours', 'cli']) {
      fsckClean(sides[who].dir);
      fsckClean(sides[who].remote.dir);
    }

    const table = comparisonTable();
    // The target in milliseconds is 3× the CLI's time in this run.
    table.compare(`first push, ${notes} notes (median of ${FIRST_PUSH_RUNS})`, median(firstPush.ours), Math.round(median(firstPush.cli) * TARGET_RATIO), median(firstPush.cli), 'git push');
    table.compare(`one-note sync: pull + merge + push (median of ${SYNC_RUNS})`, median(oneNote.ours), Math.round(median(oneNote.cli) * TARGET_RATIO), median(oneNote.cli), 'git pull && git push');
    table.print();
    const verdicts = table.rows.map((row) => ({ name: row.name, ratio: row.ratio, target: TARGET_RATIO, pass: row.ratio <= TARGET_RATIO }));
    for (const verdict of verdicts) console.log(`${verdict.pass ? 'PASS' : 'FAIL'}  ${verdict.name}: ${verdict.ratio.toFixed(2)}× the CLI (target ≤ ${TARGET_RATIO}×)`);
    console.log(`load average: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    await mkdir('tests/bench/results', { recursive: true });
    await writeFile('tests/bench/results/sync.json', `${JSON.stringify({ notes, rows: table.rows, samples: { firstPush, oneNote }, verdicts, loadavg: loadavg() }, null, 2)}\n`);
  } finally {
    server.stop();
    await rm(root, { recursive: true, force: true });
  }
}
