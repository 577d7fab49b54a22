import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { connectStdio, runMcp, type StdioSession } from '../helpers/mcpProcess';
import { lastUserOf, messagesOf, startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir } from '../helpers/tempVault';

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const textOf = (result: ToolResult): string => result.content.map((part) => part.text).join('\n');

describe('recursa mcp over stdio', () => {
  let vault: { dir: string; remove: () => Promise<void> };
  let home: { dir: string; remove: () => Promise<void> };
  let model: ModelServer;
  let session: StdioSession;
  const env = (): Record<string, string> => ({ RECURSA_HOME: home.dir, RECURSA_API_KEY: 'sk-test-secret-key' });

  beforeAll(async () => {
    vault = await makeTempDir('recursa-mcp-vault-');
    home = await makeTempDir('recursa-mcp-home-');
    model = await startModelServer();
    gitCli(vault.dir, 'init', '-q');
    await writeFile(join(vault.dir, 'Welcome.md'), '# Welcome\n\nThe quarterly plan lives in Projects.\n');
    await mkdir(join(vault.dir, 'Projects'));
    await writeFile(join(vault.dir, 'Projects/Plan.md'), '# Quarterly plan\n\nShip the MCP server.\n');
    session = await connectStdio(['--vault', vault.dir, '--base-url', `${model.url}/v1`, '--model', 'scripted'], env(), 'Claude Code');
  }, 60_000);
  afterAll(async () => {
    await session?.close();
    await model.close();
    await vault.remove();
    await home.remove();
  });

  it('offers the six tools with truthful annotations and output schemas', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'execute', 'read', 'recall', 'remember', 'search']);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['recall', 'search', 'read']) expect(byName.get(name)?.annotations?.readOnlyHint).toBe(true);
    for (const name of ['ask', 'execute', 'remember']) expect(byName.get(name)?.annotations?.readOnlyHint).toBe(false);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    expect(Object.keys(byName.get('recall')?.inputSchema.properties ?? {}).sort()).toEqual(['limit', 'query', 'scope', 'since', 'tags']);
    expect(Object.keys(byName.get('execute')?.inputSchema.properties ?? {}).sort()).toEqual(['code', 'commit']);
    expect(Object.keys(byName.get('ask')?.inputSchema.properties ?? {}).sort()).toEqual(['query', 'sessionId']);
  });

  it('serves the mem reference the agent\'s prompt uses as a resource', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['recursa://mem-reference']);
    const { contents } = await session.client.readResource({ uri: 'recursa://mem-reference' });
    expect(String((contents[0] as { text?: string } | undefined)?.text)).toContain('### mem.commitChanges(message: string)');
  });

  it('execute runs code, returns structured content, and commits with the run and client trailers', async () => {
    const result = (await session.client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Inbox/Idea.md', '# Idea\\n');\nreturn (await mem.listFiles('Inbox')).length;", commit: 'Add an idea' } })) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ok: true, value: 1, uncommitted: [], discarded: [] });
    const hash = result.structuredContent?.commit as string;
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    expect(JSON.parse(textOf(result))).toMatchObject({ ok: true, value: 1, commit: hash });
    expect(gitCli(vault.dir, 'log', '-1', '--format=%H%n%s%n%(trailers:key=Recursa-Run,valueonly)%(trailers:key=Recursa-Client,valueonly)').trim().split('\n')).toEqual([hash, 'Add an idea', expect.stringMatching(/^mcp-/), 'Claude Code']);
    expect(gitCli(vault.dir, 'show', '--name-only', '--format=', hash).trim()).toBe('Inbox/Idea.md');
  });

  it('execute without commit leaves the file written and uncommitted', async () => {
    const result = (await session.client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Draft.md', 'draft');" } })) as ToolResult;
    expect(result.structuredContent).toMatchObject({ ok: true, commit: null, uncommitted: ['Draft.md'] });
    expect(await readFile(join(vault.dir, 'Draft.md'), 'utf8')).toBe('draft');
    await session.client.callTool({ name: 'execute', arguments: { code: "await mem.discardChanges();" } });
  });

  it('returns errors as isError results that say what to do, and keeps serving', async () => {
    const before = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    const thrown = (await session.client.callTool({ name: 'execute', arguments: { code: "await mem.writeFile('Broken.md', 'x');\nthrow new Error('boom');", commit: 'never' } })) as ToolResult;
    expect(thrown.isError).toBe(true);
    expect(thrown.structuredContent).toMatchObject({ ok: false, commit: null, discarded: ['Broken.md'], error: { code: 'RuntimeError' } });
    const syntax = (await session.client.callTool({ name: 'execute', arguments: { code: 'return (' } })) as ToolResult;
    expect(syntax.isError).toBe(true);
    expect(syntax.structuredContent).toMatchObject({ ok: false, error: { code: 'SyntaxError' } });
    const limited = (await session.client.callTool({ name: 'execute', arguments: { code: "for (;;) await mem.fileExists('Welcome.md');" } })) as ToolResult;
    expect(limited.isError).toBe(true);
    expect(limited.structuredContent).toMatchObject({ ok: false, error: { code: 'MemCallLimit' } });
    const refused = (await session.client.callTool({ name: 'read', arguments: { path: '../outside.md' } })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^PathRefused: /);
    const missing = (await session.client.callTool({ name: 'read', arguments: { path: 'Nope.md' } })) as ToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^NotFound: /);
    const badInput = (await session.client.callTool({ name: 'recall', arguments: { limit: 1000 } })) as ToolResult;
    expect(badInput.isError).toBe(true);
    // Nothing was committed or left behind, and the next call works.
    expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(before);
    await expect(readFile(join(vault.dir, 'Broken.md'), 'utf8')).rejects.toThrow();
    const next = (await session.client.callTool({ name: 'read', arguments: { path: 'Welcome.md' } })) as ToolResult;
    expect(next.structuredContent).toEqual({ path: 'Welcome.md', content: '# Welcome\n\nThe quarterly plan lives in Projects.\n' });
  });

  it('search and read find notes', async () => {
    const found = (await session.client.callTool({ name: 'search', arguments: { query: 'quarterly', limit: 5 } })) as ToolResult;
    const hits = found.structuredContent?.hits as { path: string }[];
    expect(hits.map((hit) => hit.path).sort()).toEqual(['Projects/Plan.md', 'Welcome.md']);
  });

  it('remember commits a memory note that recall finds, in this vault and across vaults', async () => {
    const saved = (await session.client.callTool({ name: 'remember', arguments: { content: 'The user reviews the quarterly plan on Fridays.', tags: ['Reviews'] } })) as ToolResult;
    expect(saved.isError).toBeFalsy();
    const { id, path, commit } = saved.structuredContent as { id: string; path: string; commit: string };
    expect(gitCli(vault.dir, 'log', '-1', '--format=%s%n%(trailers:key=Recursa-Client,valueonly)', commit).trim()).toBe('Remember: The user reviews the quarterly plan on Fridays.\nClaude Code');
    expect(gitCli(vault.dir, 'show', '--name-only', '--format=', commit).trim()).toBe(path);
    const recalled = (await session.client.callTool({ name: 'recall', arguments: { query: 'fridays', tags: ['reviews'] } })) as ToolResult;
    expect((recalled.structuredContent?.memories as { id: string }[]).map((memory) => memory.id)).toEqual([id]);
    expect(recalled.structuredContent?.searched).toEqual(['this vault']);

    // Another vault on this device, registered in the same registry, is searched with scope "global".
    const other = await makeTempDir('recursa-mcp-other-');
    try {
      const second = await connectStdio(['--vault', other.dir], env());
      await second.client.callTool({ name: 'remember', arguments: { content: 'Fridays are for the garden.' } });
      const global = (await second.client.callTool({ name: 'recall', arguments: { query: 'fridays', scope: 'global' } })) as ToolResult;
      const memories = global.structuredContent?.memories as { vault: string | null }[];
      expect(memories.map((memory) => memory.vault)).toHaveLength(2);
      expect(memories.map((memory) => memory.vault)).toEqual(expect.arrayContaining([null, expect.stringMatching(/^recursa-mcp-vault-/)]));
      const project = (await second.client.callTool({ name: 'recall', arguments: { query: 'fridays', scope: 'project' } })) as ToolResult;
      expect((project.structuredContent?.memories as unknown[]).length).toBe(1);
      // Started without a model: ask says so, as a tool error with its code.
      const noModel = (await second.client.callTool({ name: 'ask', arguments: { query: 'hello' } })) as ToolResult;
      expect(noModel.isError).toBe(true);
      expect(textOf(noModel)).toMatch(/^AgentUnavailable: /);
      await second.close();
    } finally {
      await other.remove();
    }
  }, 30_000);

  it('ask runs the agent, reports each think line and code run as progress, and continues a conversation', async () => {
    model.script([
      { text: "<think>Looking for the plan.\nWriting a summary note.</think>\n<typescript>\nawait mem.writeFile('Summary.md', '# Summary\\n');\n</typescript>", chunkSizes: [7] },
      { text: '<think>Done.</think><reply>Wrote Summary.md.</reply>' },
    ]);
    const progress: string[] = [];
    const first = (await session.client.callTool({ name: 'ask', arguments: { query: 'Summarise the plan' } }, undefined, { onprogress: (event) => progress.push(String(event.message)) })) as ToolResult;
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ reply: 'Wrote Summary.md.', state: 'completed', error: null });
    expect(textOf(first)).toBe('Wrote Summary.md.');
    expect(progress).toContain('Looking for the plan.');
    expect(progress).toContain('Writing a summary note.');
    expect(progress).toContain('Done.');
    expect(progress.some((line) => line.startsWith('Running code (turn 1)'))).toBe(true);
    expect(progress.filter((line) => line === 'Looking for the plan.')).toHaveLength(1);
    const [commit] = first.structuredContent?.commits as string[];
    expect(gitCli(vault.dir, 'log', '-1', '--format=%(trailers:key=Recursa-Run,valueonly)%(trailers:key=Recursa-Client,valueonly)', commit as string).trim().split('\n')).toEqual([expect.stringMatching(/^run-/), 'Claude Code']);

    const sessionId = first.structuredContent?.sessionId as string;
    model.script([{ text: '<reply>It is in Projects/Plan.md.</reply>' }]);
    model.requests.length = 0;
    const second = (await session.client.callTool({ name: 'ask', arguments: { query: 'Where was the plan?', sessionId } })) as ToolResult;
    expect(second.structuredContent).toMatchObject({ reply: 'It is in Projects/Plan.md.', sessionId });
    const sent = messagesOf(model.requests[0]).map((message) => message.content);
    expect(sent).toContain('Summarise the plan');
    expect(lastUserOf(model.requests[0])).toBe('Where was the plan?');
  }, 30_000);

  it('answers a model failure as an isError result without the API key, and keeps serving', async () => {
    model.script([{ status: 401 }]);
    const failed = (await session.client.callTool({ name: 'ask', arguments: { query: 'Anything' } })) as ToolResult;
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({ state: 'failed', reply: null, commits: [] });
    expect(typeof failed.structuredContent?.error).toBe('string');
    expect(JSON.stringify(failed)).not.toContain('sk-test-secret-key');
    const next = (await session.client.callTool({ name: 'execute', arguments: { code: 'return 2' } })) as ToolResult;
    expect(next.structuredContent).toMatchObject({ ok: true, value: 2 });
  }, 30_000);

  it('cancelling an ask stops the run, and the next call is served at once', async () => {
    const head = gitCli(vault.dir, 'rev-parse', 'HEAD').trim();
    model.script([{ hang: true }]);
    const controller = new AbortController();
    const asked = session.client.callTool({ name: 'ask', arguments: { query: 'Take forever' } }, undefined, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    await expect(asked).rejects.toThrow();
    // Calls that write wait for the run before them: this one is served only if the run stopped.
    const started = Date.now();
    const next = (await session.client.callTool({ name: 'execute', arguments: { code: 'return 1' } })) as ToolResult;
    expect(next.structuredContent).toMatchObject({ ok: true, value: 1 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(gitCli(vault.dir, 'rev-parse', 'HEAD').trim()).toBe(head);
  }, 30_000);

  it('logs only to standard error, never the API key', () => {
    expect(session.stderr()).toContain('serving MCP over stdio');
    expect(session.stderr()).not.toContain('sk-test-secret-key');
  });

  it('offers only recall, search and read (and the resource) in read-only mode', async () => {
    const readOnly = await connectStdio(['--vault', vault.dir, '--read-only'], env());
    try {
      const { tools } = await readOnly.client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['read', 'recall', 'search']);
      expect((await readOnly.client.listResources()).resources).toHaveLength(1);
      const refused = (await readOnly.client.callTool({ name: 'execute', arguments: { code: 'return 1' } })) as ToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await readOnly.close();
    }
  }, 30_000);

  it('answers bad arguments with exit code 2 and the usage on standard error', async () => {
    const noVault = await runMcp([], { RECURSA_HOME: home.dir });
    expect(noVault.status).toBe(2);
    expect(noVault.stderr).toContain('--vault DIR is required');
    expect(noVault.stdout).toBe('');
    const badProvider = await runMcp(['--vault', vault.dir, '--provider', 'nope', '--model', 'm'], { RECURSA_HOME: home.dir });
    expect(badProvider.status).toBe(2);
    expect(badProvider.stderr).toContain('unknown provider "nope"');
    const noToken = await runMcp(['--vault', vault.dir, '--http', '--port', '0'], { RECURSA_HOME: home.dir, RECURSA_MCP_TOKEN: '' });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain('RECURSA_MCP_TOKEN');
  }, 30_000);

  it('reports a vault it cannot open as one JSON error object on standard error, exit 1', async () => {
    const result = await runMcp(['--vault', join(vault.dir, 'Welcome.md')], { RECURSA_HOME: home.dir });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr.trim().split('\n').at(-1) as string) as { ok: boolean; error: { code: string; message: string } };
    expect(error.ok).toBe(false);
    expect(error.error.message).not.toBe('');
  }, 30_000);
});
