// Benchmarks the MCP server as clients use it: `recursa mcp` in a child process, the SDK's own
// client over stdio, on a generated 10,000-note vault (committed with the git CLI first).
//   1. `execute` `return 1` round trips, against the anchor in the same run: a bare SDK server
//      with one trivial tool, also a child process over stdio (target: p50 at most 3×, back to
//      back). Measured back to back and interleaved (one of each in turn); `sandbox.run` alone, in
//      this process, shows how much of `execute` is the sandbox's.
//   2. `ask` with a scripted model server in this process that answers at once: the server's own
//      time per request, i.e. the round trip minus the time the model server spent answering
//      (target: under 100 ms at p50; the CLI's `ask` opens the vault on every request instead).
//   npm run bench            prints a table and writes tests/bench/results/mcp.json
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import esbuild from 'esbuild';
import { inlineCl100kRanks } from '../../scripts/cl100k-ranks.mjs';
import { comparisonTable, percentile } from './benchTools.mjs';
import { generateVault } from './generateVault.mjs';

const NOTES = Number(process.env.MCP_BENCH_NOTES ?? 10_000);
const SEED = 20240611;
const WARMUP = 30;
const ROUND_TRIPS = 300;
const ASK_WARMUP = 3;
const ASK_RUNS = 15;
const TARGETS = { roundTripRatio: 3, askOverheadMs: 100 };
const CACHE = join(process.cwd(), 'node_modules/.cache/recursa-mcp-bench');
const CLI = join(process.cwd(), 'dist/cli.mjs');

const log = (text) => console.error(`[mcp bench] ${text}`);
function check(condition, message) {
  if (!condition) throw new Error(`Correctness check failed: ${message}`);
}

/** `recursa mcp`: the built command line when it has the command, else a bundle of the command alone. */
async function mcpCommandLine() {
  let help = '';
  try {
    help = execFileSync(process.execPath, [CLI, 'help', 'mcp'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    // An older build without the command.
  }
  if (help.includes('--bridge')) return [CLI, 'mcp'];
  const outfile = join(CACHE, 'mcp.mjs');
  const workerFile = join(process.cwd(), 'dist/sandbox-worker.js');
  await esbuild.build({
    entryPoints: ['tests/helpers/mcpEntry.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
    plugins: [
      {
        name: 'inline-sandbox-worker',
        setup(build) {
          build.onResolve({ filter: /^recursa:sandbox-worker$/ }, () => ({ path: workerFile, namespace: 'sandbox-worker' }));
          build.onLoad({ filter: /.*/, namespace: 'sandbox-worker' }, async () => ({ contents: `export default ${JSON.stringify(await readFile(workerFile, 'utf8'))};`, loader: 'js' }));
        },
      },
      inlineCl100kRanks,
    ],
  });
  return [outfile];
}

/** The anchor: the SDK's own server with one trivial tool, over stdio, nothing else. */
const BARE_SERVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'bare', version: '1.0.0' });
server.registerTool('one', { description: 'returns 1' }, () => ({ content: [{ type: 'text', text: '1' }], structuredContent: { value: 1 } }));
await server.connect(new StdioServerTransport());
`;

async function connect(args, env = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { ...process.env, ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const started = performance.now();
  await client.connect(transport);
  return { client, connectMs: performance.now() - started, stderr: () => stderr };
}

/**
 * p50 and p95 of `runs` sequential calls of each of `calls` (after `warmup` unmeasured ones).
 * `back-to-back`: all of one, then all of the next, each server kept busy; `interleaved`: one of
 * each in turn, so a busy moment on a shared machine slows every contender alike (and each
 * server waits idle between its calls, as it does for a real client).
 */
async function roundTrips(calls, warmup, runs, order = 'back-to-back') {
  const times = calls.map(() => []);
  const timed = async (c, i) => {
    const start = performance.now();
    await calls[c](i);
    if (i >= warmup) times[c].push(performance.now() - start);
  };
  if (order === 'interleaved') {
    for (let i = 0; i < warmup + runs; i++) for (let c = 0; c < calls.length; c++) await timed(c, i);
  } else {
    for (let c = 0; c < calls.length; c++) for (let i = 0; i < warmup + runs; i++) await timed(c, i);
  }
  return times.map((samples) => ({ p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) }));
}

/** The sandbox alone, in this process, on a small vault: how much of `execute` is the sandbox's. */
async function sandboxAlone(dir) {
  const { openVault } = await import('../../dist/recursa.mjs');
  await mkdir(dir, { recursive: true });
  const opened = await openVault(dir, { watch: false, git: false, graph: false });
  try {
    const [alone] = await roundTrips([async () => check((await opened.sandbox.run('return 1')).value === 1, 'the sandbox did not return 1')], WARMUP, ROUND_TRIPS);
    return alone;
  } finally {
    await opened.close();
  }
}

/** An OpenAI-compatible server that streams each scripted answer at once and logs how long it took. */
async function startModelServer() {
  const queue = [];
  const served = [];
  const server = http.createServer((req, res) => {
    const entry = { arrivedAt: performance.now(), finishedAt: 0 };
    served.push(entry);
    const parts = [];
    req.on('data', (chunk) => parts.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      const reply = queue.shift();
      if (reply === undefined || body.stream !== true) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'bench server: no reply scripted' } }));
        return;
      }
      res.on('finish', () => (entry.finishedAt = performance.now()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (choices, extra = {}) => `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench', choices, ...extra })}\n\n`;
      for (let i = 0; i < reply.length; i += 16) res.write(event([{ index: 0, delta: { content: reply.slice(i, i + 16) }, finish_reason: null }]));
      res.write(event([{ index: 0, delta: {}, finish_reason: 'stop' }]));
      res.write(event([], { usage: { prompt_tokens: 6000, completion_tokens: 20, total_tokens: 6020 } }));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    script(replies) {
      queue.splice(0, queue.length, ...replies);
      served.length = 0;
    },
    served,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const ASK_ANSWERS = (run) => [
  `<think>Searching for the budget notes.</think>\n<typescript>\nconst hits = await mem.search('budget review', { limit: 5 });\nreturn hits.map((hit) => hit.path);\n</typescript>`,
  `<think>Found them.</think>\n<reply>The budget notes are listed (run ${run}).</reply>`,
];

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'recursa-mcp-bench-'));
  await mkdir(CACHE, { recursive: true });
  const vault = join(work, 'vault');
  const home = join(work, 'home');
  const table = comparisonTable();
  const extras = {};
  let ours;
  let bare;
  let model;
  try {
    log(`generating ${NOTES} notes…`);
    await generateVault(vault, { notes: NOTES, seed: SEED });
    const git = (...args) => execFileSync('git', ['-C', vault, ...args], { stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'bench@example.com' } });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'The generated vault');

    const command = await mcpCommandLine();
    const bareFile = join(CACHE, 'bare-server.mjs');
    await writeFile(bareFile, BARE_SERVER);
    model = await startModelServer();

    log('starting both servers…');
    ours = await connect([...command, '--vault', vault, '--base-url', `${model.url}/v1`, '--model', 'bench'], { RECURSA_HOME: home, RECURSA_API_KEY: 'bench-key' });
    bare = await connect([bareFile]);
    extras.connectMs = { ours: ours.connectMs, bare: bare.connectMs };

    // The index builds in the background after the vault opens; the first search waits for it.
    const indexStart = performance.now();
    const first = await ours.client.callTool({ name: 'search', arguments: { query: 'budget' } });
    check(!first.isError && first.structuredContent.hits.length > 0, `search found nothing: ${JSON.stringify(first.content)}`);
    extras.firstSearchMs = performance.now() - indexStart;
    // A commit waits in the git queue behind the first snapshot: after it, nothing runs in the background.
    const remembered = await ours.client.callTool({ name: 'remember', arguments: { content: 'The bench ran here.' } });
    check(!remembered.isError, `remember: ${JSON.stringify(remembered.content)}`);

    log(`execute \`return 1\`, the bare server's tool and read, × ${ROUND_TRIPS} each, back to back and interleaved…`);
    const contenders = [
        async () => {
          const result = await ours.client.callTool({ name: 'execute', arguments: { code: 'return 1' } });
          check(!result.isError && result.structuredContent.value === 1, `execute: ${JSON.stringify(result.content)}`);
        },
        async () => {
          const result = await bare.client.callTool({ name: 'one', arguments: {} });
          check(result.structuredContent.value === 1, 'the bare tool did not return 1');
        },
        async () => {
          const result = await ours.client.callTool({ name: 'read', arguments: { path: first.structuredContent.hits[0].path } });
          check(!result.isError, `read: ${JSON.stringify(result.content)}`);
        },
    ];
    const [execute, trivial, read] = await roundTrips(contenders, WARMUP, ROUND_TRIPS, 'back-to-back');
    const [executeI, trivialI, readI] = await roundTrips(contenders, WARMUP, ROUND_TRIPS, 'interleaved');
    const alone = await sandboxAlone(join(work, 'small'));
    table.compare('execute `return 1` round trip, back to back, p50', execute.p50, null, trivial.p50, 'bare SDK tool, p50');
    table.compare('execute `return 1` round trip, back to back, p95', execute.p95, null, trivial.p95, 'bare SDK tool, p95');
    table.compare('read (one note) round trip, back to back, p50', read.p50, null, trivial.p50, 'bare SDK tool, p50');
    table.compare('execute `return 1` round trip, interleaved, p50', executeI.p50, null, trivialI.p50, 'bare SDK tool, p50');
    table.compare('read (one note) round trip, interleaved, p50', readI.p50, null, trivialI.p50, 'bare SDK tool, p50');
    table.compare('sandbox.run(`return 1`) alone, in process, p50', alone.p50, null, trivial.p50, 'bare SDK tool (back to back), p50');
    extras.roundTrip = {
      backToBack: { execute, trivial, read, ratioP50: execute.p50 / trivial.p50 },
      interleaved: { execute: executeI, trivial: trivialI, read: readI, ratioP50: executeI.p50 / trivialI.p50 },
      sandboxAlone: alone,
      ratioP50: execute.p50 / trivial.p50,
      target: TARGETS.roundTripRatio,
    };

    log(`ask (2 turns: a search in the sandbox, then the reply) × ${ASK_RUNS}…`);
    const overheads = [];
    const totals = [];
    for (let run = 0; run < ASK_WARMUP + ASK_RUNS; run++) {
      model.script(ASK_ANSWERS(run));
      const start = performance.now();
      const result = await ours.client.callTool({ name: 'ask', arguments: { query: `Where are the budget notes? (${run})` } });
      const total = performance.now() - start;
      check(!result.isError && result.structuredContent.reply === `The budget notes are listed (run ${run}).`, `ask: ${JSON.stringify(result.content)}`);
      check(model.served.length === 2, `ask made ${model.served.length} model requests, expected 2`);
      const modelMs = model.served.reduce((sum, entry) => sum + (entry.finishedAt - entry.arrivedAt), 0);
      if (run >= ASK_WARMUP) {
        totals.push(total);
        overheads.push(total - modelMs);
      }
    }
    const askOverhead = percentile(overheads, 0.5);
    table.compare(`ask, server time per request excluding the model (${NOTES} notes), p50`, askOverhead, TARGETS.askOverheadMs, null, '—');
    extras.ask = { overheadP50: askOverhead, overheadP95: percentile(overheads, 0.95), totalP50: percentile(totals, 0.5) };

    console.log(`\n## MCP server (${NOTES} notes, stdio)\n`);
    table.print();
    console.log(
      `\nexecute/bare p50 ratio: back to back ${extras.roundTrip.ratioP50.toFixed(2)}× (target ≤ ${TARGETS.roundTripRatio}× ${extras.roundTrip.ratioP50 <= TARGETS.roundTripRatio ? '✓' : '✗'}), interleaved ${extras.roundTrip.interleaved.ratioP50.toFixed(2)}×; ` +
        `connect (spawn + initialize): ours ${extras.connectMs.ours.toFixed(0)} ms, bare ${extras.connectMs.bare.toFixed(0)} ms; ` +
        `first search (waits for the ${NOTES}-note index): ${extras.firstSearchMs.toFixed(0)} ms; ask p95 server time ${extras.ask.overheadP95.toFixed(1)} ms.`,
    );
    await mkdir('tests/bench/results', { recursive: true });
    await writeFile('tests/bench/results/mcp.json', `${JSON.stringify({ notes: NOTES, rows: table.rows, extras }, null, 2)}\n`);
  } finally {
    await ours?.client.close().catch(() => undefined);
    await bare?.client.close().catch(() => undefined);
    await model?.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
