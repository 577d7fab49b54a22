// Benchmarks the agent loop's own overhead (the built library, as users get it: `ask` with the
// OpenAI-compatible provider over Node's http, the protocol parser, the sandbox worker, `mem` and
// git) on a generated 10,000-note vault, against a scripted model server in this process that
// answers at once. The anchor is the same turn work done directly: the same `mem` calls through
// `openVault` in-process, without the loop, parser, sandbox or model, in the same run.
//   npm run bench            prints a table of ratios and writes tests/bench/results/agent.json
import http from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ask, countTokens, openVault } from '../../dist/recursa.mjs';
import { generateVault } from './generateVault.mjs';
import { comparisonTable, median, percentile } from './benchTools.mjs';

const NOTES = 10_000;
const SEED = 20240611;
const RUNS = 5;
/** One-turn requests whose `<think>` streams in many small, spaced chunks (the latency phase). */
const LATENCY_RUNS = 3;
const THINK_CHUNKS = 200;
const CHUNK_GAP_MS = 2;
const TARGETS = { turnOverheadMs: 150, chunkToEventMs: 5 };
const BUDGETS = { maxTurns: 5 };

// --- the turns, as the model writes them and as the anchor runs them ------------------------------

const FOLDER = 'Projects/Alpha';
const TURN_1 = [
  `const entries = await mem.listFiles('${FOLDER}');`,
  `const notes = entries.filter((path) => path.endsWith('.md'));`,
  `const found = [];`,
  `for (const path of notes.slice(0, 6)) {`,
  `  const text = await mem.readFile(path);`,
  `  if (text.includes('budget') || text.includes('review')) found.push({ path, chars: text.length });`,
  `}`,
  `return { notes: notes.length, found };`,
].join('\n');
const turn2 = (run) => [
  `await mem.writeFile('Inbox/Bench ${run} summary.md', ${JSON.stringify(`---\ntags:\n  - bench\n---\n# Bench ${run} summary\n\nWhat ${FOLDER} says about budgets and reviews.\n\n- See [[Atlas]]\n`)});`,
  `await mem.writeFile('${FOLDER}/Bench ${run} follow-up.md', ${JSON.stringify(`# Bench ${run} follow-up\n\n- [ ] Review the budget notes\n- [ ] Schedule the review\n`)});`,
  `return 'written';`,
].join('\n');
const turn3 = (run) => `return await mem.commitChanges('Summarise ${FOLDER} (bench ${run})');`;
const TURN_NAMES = [
  `turn 1: listFiles + readFile ×6`,
  'turn 2: writeFile ×2',
  'turn 3: commitChanges + reply',
];

/** The model's answers for one 3-turn request, as text. */
const answers = (run) => [
  `<think>Looking through ${FOLDER} for budget and review notes.</think>\n<typescript>\n${TURN_1}\n</typescript>`,
  `<think>Writing a summary note and a follow-up.</think>\n<typescript>\n${turn2(run)}\n</typescript>`,
  `<think>Committing the two notes.</think>\n<typescript>\n${turn3(run)}\n</typescript>\n<reply>I wrote a summary of ${FOLDER} and a follow-up note, and committed both.</reply>`,
];

/** Cuts text into pieces of about `size` characters, as a model streams tokens. */
const pieces = (text, size = 12) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

/** The anchor runs the very code the sandbox runs, as an async function with `mem` in scope. */
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
const direct = (code) => new AsyncFunction('mem', code);

// --- the scripted model server ----------------------------------------------------------------------

/**
 * An instant OpenAI-compatible server: `POST /v1/chat/completions` streams the next scripted
 * answer as `chat.completion.chunk` events (one write per piece, `gapMs` apart; 0 writes them all
 * at once), a finish chunk, a usage chunk and `[DONE]`. Every request is logged with the time it
 * arrived, the time each piece was written and the time the response finished.
 */
async function startModelServer() {
  const queue = [];
  const log = [];
  const server = http.createServer((req, res) => {
    const entry = { arrivedAt: performance.now(), bodyAt: 0, finishedAt: 0, sentAt: [], body: null };
    log.push(entry);
    const parts = [];
    req.on('data', (chunk) => parts.push(chunk));
    req.on('end', () => {
      entry.bodyAt = performance.now();
      entry.body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      const reply = queue.shift();
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions' || reply === undefined || entry.body.stream !== true) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `bench server: unexpected ${req.method} ${req.url} (stream ${entry.body.stream}, ${queue.length} replies queued)` } }));
        return;
      }
      res.on('finish', () => (entry.finishedAt = performance.now()));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const event = (choices, extra = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000, model: 'bench', choices, ...extra })}\n\n`;
      const send = (i) => {
        entry.sentAt.push(performance.now());
        res.write(event([{ index: 0, delta: { content: reply.pieces[i] }, finish_reason: null }]));
      };
      const finish = () => {
        res.write(event([{ index: 0, delta: {}, finish_reason: 'stop' }]));
        res.write(event([], { usage: { prompt_tokens: 6000, completion_tokens: reply.pieces.length, total_tokens: 6000 + reply.pieces.length } }));
        res.end('data: [DONE]\n\n');
      };
      if (reply.gapMs === 0) {
        for (let i = 0; i < reply.pieces.length; i++) send(i);
        finish();
        return;
      }
      let i = 0;
      const next = () => {
        if (i === reply.pieces.length) return finish();
        send(i++);
        setTimeout(next, reply.gapMs);
      };
      next();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** Sets the answers for the next requests and clears the log. */
    script(replies) {
      queue.splice(0, queue.length, ...replies);
      log.length = 0;
    },
    log,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The system prompt as the model server received it, to time what counting its tokens costs. */
let systemPrompt = '';

// --- helpers -----------------------------------------------------------------------------------------

function check(condition, message) {
  if (!condition) throw new Error(`Correctness check failed: ${message}`);
}
const sum = (values) => values.reduce((a, b) => a + b, 0);
const log = (text) => console.error(`[agent bench] ${text}`);

/**
 * One 3-turn request through `ask`, with every event timed. Returns the phases: setup (the call to
 * `accepted`: open the vault, walk it, build the prompt), each turn (its `thinking` to the next
 * one, the last to the final state) split around the model server's handling, and teardown.
 */
async function timedRequest(vault, server, run) {
  server.script(answers(run).map((text) => ({ pieces: pieces(text), gapMs: 0 })));
  const events = [];
  const onEvent = (event) => events.push({ at: performance.now(), event });
  const calledAt = performance.now();
  const outcome = await ask(vault, `Summarise what ${FOLDER} says about budgets and reviews into a new note (bench ${run}).`, {
    provider: { kind: 'openai', baseUrl: `${server.url}/v1`, model: 'bench', apiKey: 'bench-key' },
    onEvent,
    budgets: BUDGETS,
  });
  const resolvedAt = performance.now();
  systemPrompt = server.log[0]?.body?.messages?.[0]?.content ?? systemPrompt;

  check(outcome.state === 'completed', `run ${run}: state ${outcome.state}, error ${outcome.error}`);
  check(outcome.turns === 3 && server.log.length === 3, `run ${run}: ${outcome.turns} turns, ${server.log.length} model requests, expected 3`);
  check(outcome.commits.length === 1, `run ${run}: ${outcome.commits.length} commits, expected the model's one: ${outcome.commits.join(', ')}`);
  const results = events.filter(({ event }) => event.type === 'result').map(({ event }) => event.result);
  check(results.length === 3 && results.every((result) => result.ok), `run ${run}: results ${JSON.stringify(results.map((r) => r.error))}`);
  check(results[0].value.notes > 0, `run ${run}: turn 1 found no notes in ${FOLDER}`);
  check(results[2].value === outcome.commits[0], `run ${run}: commitChanges returned ${results[2].value}, the run reports ${outcome.commits[0]}`);
  check(!events.some(({ event }) => event.type === 'commit' && event.automatic), `run ${run}: the loop made a closing commit; the model's commit should have left nothing`);
  const written = await readFile(join(vault, 'Inbox', `Bench ${run} summary.md`), 'utf8');
  check(written.includes(`# Bench ${run} summary`), `run ${run}: the summary note was not written`);

  const at = (predicate, from = 0) => events.slice(from).find(({ event }) => predicate(event))?.at ?? NaN;
  const thinking = events.flatMap(({ at: time, event }) => (event.type === 'state' && event.state === 'thinking' ? [time] : []));
  const finalAt = events.at(-1).at;
  const accepted = at((e) => e.type === 'state' && e.state === 'accepted');
  const turns = thinking.map((start, k) => {
    const end = thinking[k + 1] ?? finalAt;
    const request = server.log[k];
    const inTurn = events.filter(({ at: time }) => time >= start && time <= end);
    const codeAt = inTurn.find(({ event }) => event.type === 'code')?.at ?? NaN;
    const resultEvent = inTurn.find(({ event }) => event.type === 'result');
    const wall = end - start;
    const model = request.finishedAt - request.arrivedAt;
    return {
      wall,
      model,
      overhead: wall - model,
      /** `thinking` → the request reaches the server: compaction, token counts, the HTTP request. */
      beforeModel: request.arrivedAt - start,
      /** The response finished → the `code` event: the client reads the stream, parses, counts usage. */
      afterModel: codeAt - request.finishedAt,
      /** `code` → `result`: prepareCode, the worker (started on turn 1), the `mem` calls. */
      sandbox: resultEvent.at - codeAt,
      sandboxReported: resultEvent.event.result.durationMs,
      /** `result` → the next turn (or the end): format the result, commit check, reply. */
      afterResult: end - resultEvent.at,
    };
  });
  return { total: resolvedAt - calledAt, setup: accepted - calledAt, teardown: resolvedAt - finalAt, turns };
}

/** The anchor: the same work with `mem` direct, timed per turn. */
async function anchorRequest(vault, run) {
  const started = performance.now();
  const opened = await openVault(vault, { watch: false });
  const openMs = performance.now() - started;
  const turns = [];
  const values = [];
  try {
    for (const code of [TURN_1, turn2(run), turn3(run)]) {
      const start = performance.now();
      values.push(await direct(code)(opened.mem));
      turns.push(performance.now() - start);
    }
  } finally {
    await opened.close();
  }
  check(values[0].notes > 0 && values[1] === 'written' && typeof values[2] === 'string', `anchor ${run}: ${JSON.stringify(values)}`);
  return { total: performance.now() - started, open: openMs, turns };
}

/** One-turn requests whose think text streams in many spaced chunks: chunk written → `think` event. */
async function chunkLatency(vault, server) {
  const latencies = [];
  let thinkEvents = 0;
  const words = 'Checking the notes in the folder for budget review and meeting items before writing anything'.split(' ');
  for (let run = 0; run < LATENCY_RUNS; run++) {
    const thinkPieces = Array.from({ length: THINK_CHUNKS }, (_, i) => (i === 0 ? words[0] : ` ${words[i % words.length]}`));
    /** The think text's length once chunk i has arrived: the key to match a `think` event to its chunks. */
    const lengthAfter = [];
    let length = 0;
    for (const piece of thinkPieces) lengthAfter.push((length += piece.length));
    server.script([{ pieces: ['<think>', ...thinkPieces, '</think>\n', '<reply>Nothing to change.</reply>'], gapMs: CHUNK_GAP_MS }]);
    const thinks = [];
    const outcome = await ask(vault, 'Anything to change?', {
      provider: { kind: 'openai', baseUrl: `${server.url}/v1`, model: 'bench' },
      onEvent: (event) => {
        if (event.type === 'think') thinks.push({ at: performance.now(), length: event.text.length });
      },
      budgets: BUDGETS,
    });
    check(outcome.state === 'completed' && outcome.reply === 'Nothing to change.', `latency run ${run}: ${outcome.state} ${outcome.error}`);
    const sentAt = server.log[0].sentAt.slice(1, 1 + THINK_CHUNKS); // after the '<think>' piece
    let next = 0;
    for (const think of thinks) {
      for (; next < THINK_CHUNKS && lengthAfter[next] <= think.length; next++) latencies.push(think.at - sentAt[next]);
    }
    check(next === THINK_CHUNKS, `latency run ${run}: think events covered ${next} of ${THINK_CHUNKS} chunks`);
    thinkEvents += thinks.length;
  }
  return { latencies, thinkEvents };
}

// --- the run ----------------------------------------------------------------------------------------

const started = performance.now();
const root = await mkdtemp(join(tmpdir(), 'recursa-agent-bench-'));
const vault = join(root, 'vault');
const server = await startModelServer();
const { rows, compare, print } = comparisonTable();
const extras = {};

let requests;
let anchors;
let latencies;
let thinkEvents;
try {
  const generateStart = performance.now();
  const { bytes } = await generateVault(vault, { notes: NOTES, seed: SEED });
  extras.generateMs = performance.now() - generateStart;
  log(`generated ${NOTES} notes (${(bytes / 1048576).toFixed(1)} MiB) in ${(extras.generateMs / 1000).toFixed(1)} s`);

  // The first open of a folder makes it a repository and commits every note: once, before timing.
  const firstOpenStart = performance.now();
  const first = await openVault(vault, { watch: false });
  const snapshot = await first.git.whenSnapshotDone();
  await first.close();
  extras.firstOpenMs = performance.now() - firstOpenStart;
  check(typeof snapshot === 'string', `the snapshot commit is ${snapshot}`);
  log(`first open (git init + snapshot of ${NOTES} notes): ${(extras.firstOpenMs / 1000).toFixed(1)} s`);

  // The first request in this process also pays one-time costs (the tokenizer's table, module code).
  const cold = await timedRequest(vault, server, 'cold');
  extras.coldRequestMs = cold.total;
  log(`first request in the process: ${cold.total.toFixed(0)} ms`);

  requests = [];
  for (let run = 0; run < RUNS; run++) requests.push(await timedRequest(vault, server, run));
  log(`${RUNS} requests: ${requests.map((r) => r.total.toFixed(0)).join(', ')} ms`);

  await anchorRequest(vault, 'anchor-warm-up');
  anchors = [];
  for (let run = 0; run < RUNS; run++) anchors.push(await anchorRequest(vault, `anchor-${run}`));

  ({ latencies, thinkEvents } = await chunkLatency(vault, server));
} finally {
  await server.close();
  await rm(root, { recursive: true, force: true });
}

compare(
  'vault open (ask: open + walk the notes + system prompt)',
  median(requests.map((r) => r.setup)),
  null,
  median(anchors.map((a) => a.open)),
  'openVault',
);
for (let k = 0; k < 3; k++) {
  compare(
    `${TURN_NAMES[k]}: overhead`,
    median(requests.map((r) => r.turns[k].overhead)),
    TARGETS.turnOverheadMs,
    median(anchors.map((a) => a.turns[k])),
    'same mem calls, direct',
  );
}
compare(
  'per turn overhead (mean of the 3)',
  median(requests.map((r) => sum(r.turns.map((t) => t.overhead)) / 3)),
  TARGETS.turnOverheadMs,
  median(anchors.map((a) => sum(a.turns) / 3)),
  'same mem calls, direct',
);
compare(
  'whole request (open, 3 turns, close)',
  median(requests.map((r) => r.total)),
  null,
  median(anchors.map((a) => a.total)),
  'openVault + mem calls + close',
);
compare(`chunk → think event, median (${latencies.length} chunks)`, median(latencies), TARGETS.chunkToEventMs, null, '—');
compare(`chunk → think event, p95`, percentile(latencies, 0.95), TARGETS.chunkToEventMs, null, '—');

const ms = (value) => (value < 1 ? value.toFixed(3) : value.toFixed(1));
console.log(`Agent loop on a ${NOTES.toLocaleString('en')}-note vault, instant scripted model, median of ${RUNS} requests\n`);
print();

const PHASES = [
  ['wall', 'turn wall'],
  ['model', 'in model server'],
  ['beforeModel', 'thinking → request at server'],
  ['afterModel', 'stream end → code event'],
  ['sandbox', 'code → result'],
  ['sandboxReported', '(result.durationMs)'],
  ['afterResult', 'result → next turn / end'],
];
const breakdown = PHASES.map(([key, label]) => ({ key, label, turns: [0, 1, 2].map((k) => median(requests.map((r) => r.turns[k][key]))) }));
console.log('\nWhere a turn goes (median ms)\n');
console.log(`| phase | ${TURN_NAMES.map((name) => name.split(':')[0]).join(' | ')} |`);
console.log(`|---|${TURN_NAMES.map(() => '---:').join('|')}|`);
for (const phase of breakdown) console.log(`| ${phase.label} | ${phase.turns.map(ms).join(' | ')} |`);
extras.teardownMs = median(requests.map((r) => r.teardown));
// Each turn counts the system prompt's tokens again (and every message's) before it calls the model.
countTokens(systemPrompt);
const tokenTimes = [];
for (let i = 0; i < 9; i++) {
  const start = performance.now();
  countTokens(systemPrompt);
  tokenTimes.push(performance.now() - start);
}
extras.systemPromptChars = systemPrompt.length;
extras.countSystemPromptMs = median(tokenTimes);
console.log(`\nof "thinking → request at server": countTokens(system prompt, ${systemPrompt.length} chars) takes ${ms(extras.countSystemPromptMs)} ms`);
console.log(
  `first open of the folder (git init + ${NOTES}-note snapshot, once): ${(extras.firstOpenMs / 1000).toFixed(1)} s; ` +
    `first request in the process: ${ms(extras.coldRequestMs)} ms; teardown (sandbox + close): ${ms(extras.teardownMs)} ms; ` +
    `${thinkEvents} think events for ${latencies.length} streamed think chunks`,
);
const totalSeconds = (performance.now() - started) / 1000;
console.log(`whole agent bench: ${totalSeconds.toFixed(1)} s`);

const out = join('tests', 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(
  join(out, 'agent.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      notes: NOTES,
      runs: { requests: RUNS, latency: LATENCY_RUNS, thinkChunks: THINK_CHUNKS, chunkGapMs: CHUNK_GAP_MS },
      totalSeconds,
      rows,
      breakdown,
      extras,
      requests,
      anchors,
      latency: { median: median(latencies), p95: percentile(latencies, 0.95), min: Math.min(...latencies), max: Math.max(...latencies), samples: latencies.length, thinkEvents },
    },
    null,
    2,
  )}\n`,
);
