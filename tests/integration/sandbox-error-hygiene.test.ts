/**
 * What the model's code and the model see of an error: its name, code and message, and a stack of
 * the code's own frames (`agent.ts:line:column`) — never a path or URL of the host, a frame of the
 * worker, SES or Node's internals. A `mem` failure that carries a host path (a real ENXIO from a
 * socket in the vault) reaches the code with the path made vault-relative, or `<host path>` when
 * the sandbox does not know the vault folder, while the whole error goes to the console.
 */
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sandbox, type SandboxOptions } from '../../src/core/sandbox/Sandbox';
import type { RunResult } from '../../src/core/sandbox/protocol';
import { createNodeSandboxWorker } from '../../src/node/nodeSandboxWorker';
import { openVault, type OpenedVault } from '../../src/node/openVault';
import { makeTempDir } from '../helpers/tempVault';

/** Every line after the first is a frame of the code itself. */
const AGENT_FRAME = /^ {4}at (?:async )?(?:[\w$.]+ \()?agent\.ts:\d+:\d+\)?$/;

function expectAgentOnlyStack(stack: unknown, firstLine: string): string[] {
  expect(typeof stack).toBe('string');
  const [head, ...frames] = (stack as string).split('\n');
  expect(head).toBe(firstLine);
  expect(frames.length).toBeGreaterThan(0);
  for (const frame of frames) expect(frame).toMatch(AGENT_FRAME);
  expect(stack).not.toMatch(/file:|node:|\/tmp|\/work|\[worker|ses|blob:/);
  return frames;
}

describe('errors the sandboxed code and the model see', () => {
  let dir = '';
  let remove: () => Promise<void> = () => Promise.resolve();
  let opened: OpenedVault;
  let server: Server | undefined;
  const sandboxes: Sandbox[] = [];

  const sandbox = (options: SandboxOptions = {}): Sandbox => {
    const created = new Sandbox(() => createNodeSandboxWorker(), opened.mem, { limits: { timeMs: 5000 }, ...options });
    sandboxes.push(created);
    return created;
  };

  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir());
    opened = await openVault(dir, { watch: false, git: false });
  });

  afterEach(async () => {
    for (const created of sandboxes.splice(0)) created.dispose();
    server?.close();
    server = undefined;
    vi.restoreAllMocks();
    await opened.close();
    await remove();
  });

  it('gives the code stacks of its own frames only, with the lines of its source', async () => {
    const result = await sandbox().run(
      [
        'function inner(): never {',
        "  throw new RangeError('deep');",
        '}',
        'async function outer() { await null; inner(); }',
        'const stacks: string[] = [];',
        'try { await outer(); } catch (e) { stacks.push(e.stack); }',
        'try { (null as any).x; } catch (e) { stacks.push(e.stack); }',
        "try { Object.defineProperty(Array.prototype, 'x', { value: 1 }); } catch (e) { stacks.push(e.stack); }",
        "try { new Compartment().evaluate('null.y'); } catch (e) { stacks.push(e.stack); }",
        'return stacks;',
      ].join('\n'),
    );
    expect(result.error).toBeNull();
    const [deep, engine, frozen, nested] = result.value as string[];
    const deepFrames = expectAgentOnlyStack(deep, 'RangeError: deep');
    expect(deepFrames[0]).toBe('    at inner (agent.ts:2:9)');
    expect(deepFrames.join('\n')).toContain('at outer (agent.ts:4:38)');
    expectAgentOnlyStack(engine, "TypeError: Cannot read properties of null (reading 'x')");
    expect(frozen).toMatch(/^TypeError: /);
    expectAgentOnlyStack(frozen, (frozen as string).split('\n')[0] ?? '');
    expectAgentOnlyStack(nested, "TypeError: Cannot read properties of null (reading 'y')");
  });

  it('keeps host frames out of logged and returned errors, and reports the line to the model', async () => {
    const result = await sandbox().run(`console.error(new Error('logged'));\nreturn [new TypeError('returned')];`);
    expect(result.error).toBeNull();
    const logged = JSON.parse(result.logs[0]?.text ?? '{}') as { stack?: string };
    expectAgentOnlyStack(logged.stack, 'Error: logged');
    const [returned] = result.value as { stack?: string }[];
    expect(expectAgentOnlyStack(returned?.stack, 'TypeError: returned')).toEqual(['    at agent.ts:2:9']);
    const thrown = await sandbox().run(`const a = 1;\n\nthrow new Error('at three');`);
    expect(thrown.error).toEqual({ code: 'RuntimeError', name: 'Error', message: 'at three', line: 3 });
  });

  it('points a mem error at the line of the call, with no frame of the worker', async () => {
    const result = await sandbox().run(`const a = 1;\ntry { await mem.readFile('missing.md'); } catch (e) { return [e.code, e.stack]; }`);
    const [code, stack] = result.value as [string, string];
    expect(code).toBe('NotFound');
    expect(expectAgentOnlyStack(stack, `NotFoundError: ${(stack.split('\n')[0] ?? '').replace(/^NotFoundError: /, '')}`)).toEqual(['    at agent.ts:2:17']);
  });

  describe('when mem fails with a host path in the message (ENXIO from a socket in the vault)', () => {
    beforeEach(async () => {
      const listening = createServer();
      server = listening;
      await new Promise<void>((resolve) => listening.listen(join(dir, 'sock.md'), resolve));
    });

    const readSocket = `try { await mem.readFile('sock.md'); } catch (e) { return { code: e.code, message: e.message, stack: e.stack }; }`;

    it('names the file vault-relative when the sandbox knows the vault folder, and logs the whole error', async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const result = await sandbox({ hostPaths: [opened.port.root] }).run(readSocket);
      const failure = result.value as { code: string; message: string; stack: string };
      expect(failure.code).toBe('Io');
      expect(failure.message).toBe(`read failed for "sock.md": ENXIO: no such device or address, open 'sock.md'`);
      expect(failure.stack).not.toContain(dir);
      expect(JSON.stringify(result)).not.toContain(opened.port.root);
      const original = logged.mock.calls.map((call) => call.map((part) => (part instanceof Error ? part.message : String(part))).join(' ')).join('\n');
      expect(original).toContain(join(opened.port.root, 'sock.md'));
    });

    it('hides the path as <host path> when the sandbox does not know the vault folder', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const result = await sandbox().run(readSocket);
      expect((result.value as { message: string }).message).toBe(`read failed for "sock.md": ENXIO: no such device or address, open '<host path>'`);
      const uncaught = await sandbox().run(`await mem.readFile('sock.md');`);
      expect(uncaught.error).toMatchObject({ code: 'Io', name: 'IoError', line: 1 });
      expect(uncaught.error?.message).not.toContain(dir);
    });
  });

  it('says nothing on the console about a routine mem error without a host path', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const result: RunResult = await sandbox().run(`return await mem.fileExists('a.md') || await mem.readFile('a.md');`);
    expect(result.error).toMatchObject({ code: 'NotFound' });
    expect(logged).not.toHaveBeenCalled();
  });
});
