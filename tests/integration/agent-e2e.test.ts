import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/agent/runAgent';
import type { ProviderSettings } from '../../src/core/llm/types';
import { ask } from '../../src/node/ask';
import { gitCli } from '../helpers/gitCli';
import { closedPortUrl, startModelServer, type ModelServer } from '../helpers/modelServer';
import { useTempDir } from '../helpers/tempVault';

const THORNE_ACT = `<think>Creating pages for Dr. Aris Thorne and the AI Research Institute.</think>
<typescript>
const orgPath = 'AI Research Institute.md';
if (!(await mem.fileExists(orgPath))) {
  await mem.writeFile(orgPath, '# AI Research Institute\\ntype:: organization\\n');
}
await mem.writeFile(
  'Dr. Aris Thorne.md',
  '# Dr. Aris Thorne\\ntype:: person\\naffiliation:: [[AI Research Institute]]\\nfield:: [[Symbolic Reasoning]]'
);
return 'ok';
</typescript>`;
const THORNE_COMMIT = `<think>Saving the new pages.</think>
<typescript>
await mem.commitChanges('feat: Add Dr. Aris Thorne and AI Research Institute entities');
</typescript>
<reply>Done. I've created pages for both Dr. Aris Thorne and the AI Research Institute and linked them.</reply>`;
const THORNE_REQUEST = 'I just had a call with a Dr. Aris Thorne from the AI Research Institute. He works on symbolic reasoning. Create a new entry for him and link it to his affiliation.';

describe('the agent, end to end: scripted model server, sandbox, vault and git', () => {
  const temp = useTempDir();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.close());

  const openai = (): ProviderSettings => ({ kind: 'openai', baseUrl: `${server.url}/v1`, model: 'scripted', apiKey: 'test-key', maxRetries: 0 });
  const run = async (request: string, options: { provider?: ProviderSettings; budgets?: Parameters<typeof ask>[2]['budgets']; signal?: AbortSignal } = {}) => {
    const events: AgentEvent[] = [];
    server.requests.length = 0;
    const outcome = await ask(temp.dir, request, { provider: options.provider ?? openai(), budgets: options.budgets, signal: options.signal, onEvent: (event) => events.push(event) });
    return { outcome, events };
  };

  it.each(['openai', 'anthropic'] as const)("runs the seed's Dr. Aris Thorne example (%s)", async (kind) => {
    server.script([{ text: THORNE_ACT, chunkSizes: [7] }, { text: THORNE_COMMIT }]);
    const provider: ProviderSettings = kind === 'openai' ? openai() : { kind, baseUrl: server.url, model: 'scripted', apiKey: 'test-key', maxRetries: 0 };
    const { outcome, events } = await run(THORNE_REQUEST, { provider });
    expect(outcome).toMatchObject({ state: 'completed', turns: 2, error: null, reply: "Done. I've created pages for both Dr. Aris Thorne and the AI Research Institute and linked them." });
    expect(await readFile(join(temp.dir, 'Dr. Aris Thorne.md'), 'utf8')).toContain('affiliation:: [[AI Research Institute]]');
    expect(existsSync(join(temp.dir, 'AI Research Institute.md'))).toBe(true);
    expect(gitCli(temp.dir, 'log', '-1', '--format=%s%n%(trailers:key=Recursa-Run,valueonly)').trim()).toBe(`feat: Add Dr. Aris Thorne and AI Research Institute entities\n${outcome.runId}`);
    expect(outcome.commits).toEqual([gitCli(temp.dir, 'rev-parse', 'HEAD').trim()]);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    // The think line streamed, growing, before the code ran; the states moved in order.
    const thinks = events.flatMap((event) => (event.type === 'think' && event.turn === 1 ? [event.text] : []));
    expect(thinks.length).toBeGreaterThan(2);
    expect(thinks.at(-1)).toBe('Creating pages for Dr. Aris Thorne and the AI Research Institute.');
    const states = events.flatMap((event) => (event.type === 'state' ? [event.state] : []));
    expect(states).toEqual(['accepted', 'thinking', 'acting', 'thinking', 'acting', 'replying', 'completed']);
    // What the model saw: the generated mem reference, then the first block's result.
    const bodies = server.requests.map((request) => JSON.stringify(request.body));
    expect(bodies[0]).toContain('mem.writeFile(filePath: string, content: string)');
    expect(bodies[1]).toContain('[Execution Result]');
    expect(bodies[1]).toContain('\\"ok\\"');
  });

  it('recovers from an execution error: the model sees the error and its line, and fixes it', async () => {
    server.script([
      { text: `<think>Reading the inbox.</think>\n<typescript>\nconst a = 1;\nconst text = await mem.readFile('Inbox.md');\nreturn text;\n</typescript>` },
      { text: `<think>The inbox does not exist yet; creating it.</think>\n<typescript>\nawait mem.writeFile('Inbox.md', '- first item\\n');\nawait mem.commitChanges('Create the inbox');\n</typescript>\n<reply>I created your inbox.</reply>` },
    ]);
    const { outcome } = await run('Read my inbox');
    expect(outcome).toMatchObject({ state: 'completed', turns: 2, reply: 'I created your inbox.' });
    const feedback = JSON.stringify(server.requests[1]?.body);
    expect(feedback).toContain('[Execution Error] NotFoundError on line 2');
    expect(gitCli(temp.dir, 'log', '-1', '--format=%s').trim()).toBe('Create the inbox');
  });

  it("tells the model which of its files the vault's .gitignore kept out of its commit", async () => {
    await writeFile(join(temp.dir, '.gitignore'), 'scratch/\n');
    server.script([
      { text: `<think>Writing a note and a scratch file.</think>\n<typescript>\nawait mem.writeFile('Plan.md', '# Plan\\n');\nawait mem.writeFile('scratch/tmp.md', 'draft\\n');\nreturn await mem.commitChanges('Add the plan');\n</typescript>` },
      { text: `<think>Done.</think>\n<reply>Saved the plan; the scratch file stays out of history.</reply>` },
    ]);
    const { outcome } = await run('Plan something');
    expect(outcome.state).toBe('completed');
    const feedback = JSON.stringify(server.requests[1]?.body);
    expect(feedback).toContain('left out \\"scratch/tmp.md\\"');
    expect(feedback).toContain('.gitignore excludes it');
    expect(gitCli(temp.dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('Plan.md');
  });

  it('shows a reply only when the code in the same turn succeeded', async () => {
    server.script([
      { text: `<think>Doing it all at once.</think>\n<typescript>\nthrow new Error('not yet');\n</typescript>\n<reply>All done!</reply>` },
      { text: `<think>Explaining.</think>\n<reply>It did not work: not yet.</reply>` },
    ]);
    const { outcome, events } = await run('Try something');
    expect(outcome.reply).toBe('It did not work: not yet.');
    expect(events.filter((event) => event.type === 'reply')).toEqual([{ type: 'reply', text: 'It did not work: not yet.' }]);
  });

  it('commits what the model forgot to commit, naming the run and the request', async () => {
    server.script([{ text: `<think>Writing the note.</think>\n<typescript>\nawait mem.writeFile('Ideas.md', '# Ideas\\n');\n</typescript>\n<reply>Added your ideas note.</reply>` }]);
    const { outcome, events } = await run('Start an ideas note');
    expect(outcome.state).toBe('completed');
    expect(gitCli(temp.dir, 'log', '-1', '--format=%B')).toContain('Recursa: Start an ideas note');
    expect(gitCli(temp.dir, 'log', '-1', '--format=%(trailers:key=Recursa-Run,valueonly)').trim()).toBe(outcome.runId);
    expect(gitCli(temp.dir, 'status', '--porcelain')).toBe('');
    expect(events).toContainEqual({ type: 'commit', hash: outcome.commits[0], automatic: true });
  });

  it('stops at the turn budget and still commits the work done', async () => {
    const busy = { text: `<think>Working.</think>\n<typescript>\nawait mem.writeFile('Log.md', 'entry ' + Date.now() + '\\n');\n</typescript>` };
    server.script([busy, busy, busy]);
    const { outcome } = await run('Keep logging', { budgets: { maxTurns: 2 } });
    expect(outcome).toMatchObject({ state: 'failed', turns: 2, reply: null });
    expect(outcome.error).toContain('2 turns');
    expect(gitCli(temp.dir, 'log', '-1', '--format=%s').trim()).toBe('Recursa: Keep logging');
    server.script([]);
    server.requests.length = 0;
  });

  it('stops at the mem call and token budgets', async () => {
    server.script([{ text: `<think>Checking many files.</think>\n<typescript>\nfor (let i = 0; i < 50; i++) await mem.fileExists('x' + i + '.md');\n</typescript>` }]);
    const calls = await run('Check', { budgets: { maxMemCalls: 10 } });
    expect(calls.outcome.state).toBe('failed');
    expect(calls.outcome.error).toMatch(/mem call/);
    server.script([{ text: `<think>Thinking hard.</think>\n<typescript>\nreturn 1;\n</typescript>`, usage: { inputTokens: 900, outputTokens: 200 } }]);
    const tokens = await run('Think', { budgets: { maxTokens: 1000 } });
    expect(tokens.outcome).toMatchObject({ state: 'failed', tokens: 1100 });
    expect(tokens.outcome.error).toContain('1000 tokens');
  });

  it('is cancelled at once, mid-stream', async () => {
    server.script([{ text: `<think>${'a very long thought '.repeat(40)}</think>`, chunkSizes: [5], delayMs: 20 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const { outcome } = await run('Think slowly', { signal: controller.signal });
    expect(outcome.state).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails with a message the user can act on when the key is refused', async () => {
    server.script([{ status: 401 }]);
    const { outcome } = await run('Hello');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(/key/i);
  });

  it.each([
    ['a model that does not exist', [{ status: 404 as const }], /scripted/],
    ['a rate limit that persists', [{ status: 429 as const, retryAfter: '0' }, { status: 429 as const, retryAfter: '0' }], /rate|limit|429/i],
    ['server errors that persist', [{ status: 500 as const }, { status: 503 as const }], /server|500|503/i],
  ])('fails with a message the user can act on for %s', async (_name, replies, message) => {
    server.script(replies);
    const { outcome } = await run('Hello', { provider: { ...openai(), maxRetries: 1 } });
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(message);
    expect(server.requests.length).toBe(replies.length);
  });

  it('waits out a rate limit as retry-after says, then answers', async () => {
    server.script([{ status: 429, retryAfter: '1' }, { text: '<think>Answering.</think><reply>Hi after waiting.</reply>' }]);
    const started = Date.now();
    const { outcome } = await run('Hello', { provider: { ...openai(), maxRetries: 2 } });
    expect(outcome).toMatchObject({ state: 'completed', reply: 'Hi after waiting.' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('fails clearly when the server never answers, or cannot be reached', async () => {
    server.script([{ hang: true }]);
    const timedOut = await run('Hello', { provider: { ...openai(), timeoutMs: 300 } });
    expect(timedOut.outcome.state).toBe('failed');
    expect(timedOut.outcome.error).toMatch(/time|respond/i);
    const unreachable = await run('Hello', { provider: { ...openai(), baseUrl: `${await closedPortUrl()}/v1` } });
    expect(unreachable.outcome.state).toBe('failed');
    expect(unreachable.outcome.error).toMatch(/reach|connect/i);
  });

  it('corrects a model that ignores the protocol, twice, then fails clearly', async () => {
    server.script([{ text: 'Sure! Here is my answer.' }, { text: 'Still no tags.' }, { text: 'Nope.' }]);
    const { outcome } = await run('Hello');
    expect(outcome).toMatchObject({ state: 'failed', turns: 3 });
    expect(outcome.error).toContain('expected format');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('<think>');
  });

  it("puts the vault's AGENTS.md into the system prompt", async () => {
    await writeFile(join(temp.dir, 'AGENTS.md'), 'Always write dates as YYYY-MM-DD.\n');
    server.script([{ text: '<think>Answering.</think><reply>Hi.</reply>' }]);
    const { outcome } = await run('Hello');
    expect(outcome.reply).toBe('Hi.');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('Always write dates as YYYY-MM-DD.');
  });
});
