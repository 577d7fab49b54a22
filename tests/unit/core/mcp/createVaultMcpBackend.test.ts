import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentService } from '../../../../src/core/agent/AgentService';
import { CancelledError } from '../../../../src/core/errors';
import { AgentUnavailableError } from '../../../../src/core/mcp/AgentUnavailableError';
import { WritesPausedError } from '../../../../src/core/mcp/WritesPausedError';
import { createVaultMcpBackend } from '../../../../src/core/mcp/createVaultMcpBackend';
import type { McpBackend, McpCall } from '../../../../src/core/mcp/McpBackend';
import { openVault, type OpenedVault } from '../../../../src/node/openVault';
import { rejectionOf } from '../../../helpers/errors';
import { gitCli } from '../../../helpers/gitCli';
import { makeTempDir } from '../../../helpers/tempVault';

const call = (client: string | null = 'Unit Client', signal = new AbortController().signal): McpCall => ({ client, signal });

describe('createVaultMcpBackend', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let opened: OpenedVault;
  let backend: McpBackend;
  let ids = 0;

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('recursa-mcp-backend-'));
    gitCli(dir, 'init', '-q');
    await writeFile(join(dir, 'Welcome.md'), '# Welcome\n');
    opened = await openVault(dir, { watch: false });
    await opened.git?.whenSnapshotDone();
    backend = createVaultMcpBackend({ ...opened, agent: null }, { newId: () => `t${++ids}` });
  });
  afterEach(async () => {
    await opened.close();
    await remove();
  });

  describe('execute', () => {
    it('runs calls that write one at a time, in order: each commit holds only its own file and names its client', async () => {
      const results = await Promise.all(
        ['A', 'B', 'C'].map((name, i) => backend.execute(`await mem.writeFile('${name}.md', '${name}'); return '${name}';`, { ...call(`client-${i}`), commit: `Add ${name}` })),
      );
      expect(results.map((result) => result.value)).toEqual(['A', 'B', 'C']);
      for (const [i, result] of results.entries()) {
        const name = ['A', 'B', 'C'][i] as string;
        expect(gitCli(dir, 'show', '--name-only', '--format=%s%n%(trailers:key=Recursa-Client,valueonly)', result.commit as string).trim().split('\n').filter((line) => line !== '')).toEqual([`Add ${name}`, `client-${i}`, `${name}.md`]);
      }
      expect(gitCli(dir, 'log', '--format=%s', '-3').trim().split('\n')).toEqual(['Add C', 'Add B', 'Add A']);
    });

    it('gives each call a run id of its own and puts the session back afterwards', async () => {
      const before = { ...opened.session };
      const result = await backend.execute("await mem.writeFile('A.md', 'a');", { ...call(), commit: 'Add A' });
      expect(gitCli(dir, 'log', '-1', '--format=%(trailers:key=Recursa-Run,valueonly)', result.commit as string).trim()).toMatch(/^mcp-t\d+$/);
      expect(opened.session.runId).toBe(before.runId);
      expect(opened.session.client ?? null).toBe(before.client ?? null);
    });

    it('does not start a call that was cancelled while it waited', async () => {
      const controller = new AbortController();
      controller.abort();
      const error = await rejectionOf(() => backend.execute("await mem.writeFile('A.md', 'a');", { ...call('c', controller.signal), commit: 'never' }), CancelledError);
      expect(error.code).toBe('Cancelled');
      await expect(readFile(join(dir, 'A.md'), 'utf8')).rejects.toThrow();
    });
  });

  describe('when writes are paused (a chat run under review in the plugin)', () => {
    it('refuses every call that writes with WritesPaused, writing and committing nothing, and serves reads', async () => {
      let reason: string | null = 'A chat run is under review.';
      const paused = createVaultMcpBackend({ ...opened, agent: null }, { newId: () => `p${++ids}`, writesPaused: () => Promise.resolve(reason) });
      const history = gitCli(dir, 'rev-list', '--all');
      const status = gitCli(dir, 'status', '--porcelain');
      const refused = await rejectionOf(() => paused.execute("await mem.writeFile('A.md', 'a');", { ...call(), commit: 'Add A' }), WritesPausedError);
      expect(refused.code).toBe('WritesPaused');
      expect(refused.data).toEqual({ reason: 'A chat run is under review.' });
      expect((await rejectionOf(() => paused.remember('a memory', [], call()), WritesPausedError)).code).toBe('WritesPaused');
      expect(gitCli(dir, 'rev-list', '--all')).toBe(history);
      expect(gitCli(dir, 'status', '--porcelain')).toBe(status);
      expect(await paused.read('Welcome.md', call())).toBe('# Welcome\n');
      reason = null;
      const result = await paused.execute("await mem.writeFile('A.md', 'a');", { ...call(), commit: 'Add A' });
      expect(gitCli(dir, 'show', '--name-only', '--format=%s', result.commit as string).trim().split('\n').filter((line) => line !== '')).toEqual(['Add A', 'A.md']);
    });
  });

  describe('remember', () => {
    it('saves a memory note and commits it alone, naming the client', async () => {
      await writeFile(join(dir, 'UserDraft.md'), 'the user is typing');
      const saved = await backend.remember('The user prefers short notes.', ['style'], call('Claude Code'));
      expect(saved.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(gitCli(dir, 'show', '--name-only', '--format=%(trailers:key=Recursa-Client,valueonly)', saved.commit as string).trim().split('\n').filter((line) => line !== '')).toEqual(['Claude Code', saved.path]);
      const status = gitCli(dir, 'status', '--porcelain').trim().split('\n');
      expect(status).toContain('?? UserDraft.md');
      expect(status.some((line) => line.includes(saved.path))).toBe(false);
    });
  });

  describe('ask', () => {
    it('fails with AgentUnavailable when there is no model', async () => {
      const error = await rejectionOf(() => backend.ask('hello', { ...call(), onProgress: () => undefined }), AgentUnavailableError);
      expect(error.code).toBe('AgentUnavailable');
    });

    it('hides secrets in the agent\'s error before the client sees it', async () => {
      const agent = {
        ask: async () => ({ conversation: { id: 'conv-1' }, outcome: { reply: null, state: 'failed', error: 'the key sk-secret-123 was refused', commits: [] } }),
      } as unknown as AgentService;
      const withAgent = createVaultMcpBackend({ ...opened, agent }, { redact: (text) => text.replaceAll('sk-secret-123', '[redacted]') });
      const outcome = await withAgent.ask('hello', { ...call(), onProgress: () => undefined });
      expect(outcome).toEqual({ reply: null, sessionId: 'conv-1', state: 'failed', error: 'the key [redacted] was refused', commits: [] });
    });
  });

  describe('read and search', () => {
    it('read returns the note and search finds it', async () => {
      expect(await backend.read('Welcome.md', call())).toBe('# Welcome\n');
      expect((await backend.search('welcome', 5, call())).map((hit) => hit.path)).toEqual(['Welcome.md']);
    });
  });
});
