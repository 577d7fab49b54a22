import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../../../src/core/sandbox/Sandbox';
import { createNodeSandboxWorker } from '../../../../src/node/nodeSandboxWorker';
import { useSandboxVault } from '../../../helpers/sandboxVault';

describe('Sandbox', () => {
  const vault = useSandboxVault({ limits: { timeMs: 3000 } });

  describe('running the code as models write it', () => {
    it('strips TypeScript, supports top-level await and return, and reaches mem', async () => {
      const result = await vault.sandbox.run(`
        interface Person { name: string }
        const people: Person[] = [{ name: 'Ada' }];
        await mem.writeFile('People/Ada.md', '# ' + people[0]!.name + '\\n');
        const text = await mem.readFile('People/Ada.md') as string;
        return { text, files: await mem.listFiles('People') };
      `);
      expect(result).toMatchObject({ ok: true, error: null, memCalls: 3, value: { text: '# Ada\n', files: ['People/Ada.md'] } });
      expect(await readFile(join(vault.dir, 'People/Ada.md'), 'utf8')).toBe('# Ada\n');
    });

    it('captures console output by level', async () => {
      const result = await vault.sandbox.run(`console.log('hello', { a: 1 }); console.warn('careful'); return 1;`);
      expect(result.logs).toEqual([
        { level: 'log', text: 'hello {"a":1}' },
        { level: 'warn', text: 'careful' },
      ]);
    });

    it('gives working Date and Math.random for daily notes and ids', async () => {
      const result = await vault.sandbox.run(`return { year: new Date().getFullYear(), now: Date.now() > 0, random: typeof Math.random() };`);
      expect(result.value).toEqual({ year: new Date().getFullYear(), now: true, random: 'number' });
    });

    it('runs code that merely mentions import( and HTML comments', async () => {
      const result = await vault.sandbox.run(`
        // A note about JavaScript: import('x') loads a module; <!-- is an HTML comment -->
        const note = "Use import(\\"x\\") for lazy loading. <!-- hidden -->";
        return note.length > 0 && /import\\(/.test(note);
      `);
      expect(result).toMatchObject({ ok: true, value: true });
    });

    it('refuses a real dynamic import, naming the line', async () => {
      const result = await vault.sandbox.run(`const a = 1;\nconst m = await import('node:fs');\nreturn m;`);
      expect(result).toMatchObject({ ok: false, error: { code: 'DynamicImport', line: 2 } });
    });
  });

  describe('errors the model can act on', () => {
    it('reports a syntax error with its line', async () => {
      const result = await vault.sandbox.run(`const a = 1;\nconst b = ;\nreturn a;`);
      expect(result).toMatchObject({ ok: false, error: { code: 'SyntaxError', line: 2 } });
    });

    it('reports a runtime error with its line and type', async () => {
      const result = await vault.sandbox.run(`const a = 1;\n\nnull.boom;\nreturn a;`);
      expect(result).toMatchObject({ ok: false, error: { code: 'RuntimeError', name: 'TypeError', line: 3 } });
    });

    it('passes mem errors through with their code', async () => {
      const result = await vault.sandbox.run(`return await mem.readFile('missing.md');`);
      expect(result).toMatchObject({ ok: false, error: { code: 'NotFound', name: 'NotFoundError', line: 1 } });
      const caught = await vault.sandbox.run(`try { await mem.readFile('../../etc/passwd'); } catch (e) { return [e.code, e.name]; }`);
      expect(caught.value).toEqual(['PathRefused', 'PathRefusedError']);
    });
  });

  describe('limits', () => {
    it('stops code that runs too long, and the next run gets a fresh worker', async () => {
      const result = await vault.sandbox.run(`while (true) {}`, { limits: { timeMs: 300 } });
      expect(result).toMatchObject({ ok: false, error: { code: 'TimeLimit' } });
      expect(result.error?.message).toContain('300 ms');
      expect(await vault.sandbox.run('return 2;')).toMatchObject({ ok: true, value: 2 });
      expect(vault.workersStarted()).toBe(2);
    });

    it('reuses the worker between runs that ended normally', async () => {
      await vault.sandbox.run('return 1;');
      await vault.sandbox.run('throw new Error("x");');
      await vault.sandbox.run('return 3;');
      expect(vault.workersStarted()).toBe(1);
    });

    it('stops at the mem call limit and the write limit, saying which', async () => {
      const calls = await vault.sandbox.run(`for (let i = 0; i < 10; i++) await mem.fileExists('a.md');`, { limits: { maxMemCalls: 5 } });
      expect(calls).toMatchObject({ ok: false, memCalls: 6, error: { code: 'MemCallLimit' } });
      expect(calls.error?.message).toContain('5 mem calls');
      const writes = await vault.sandbox.run(`await mem.writeFile('a.md', 'x'.repeat(600)); await mem.writeFile('b.md', 'y'.repeat(600));`, { limits: { maxBytesWritten: 1000 } });
      expect(writes).toMatchObject({ ok: false, error: { code: 'WriteLimit' } });
      expect(await vault.mem.fileExists('b.md')).toBe(false);
    });

    it('caps output with a visible note', async () => {
      const result = await vault.sandbox.run(`for (let i = 0; i < 100; i++) console.log('x'.repeat(100)); return 'y'.repeat(5000);`, { limits: { maxOutputChars: 2000 } });
      expect(result.ok).toBe(true);
      expect(JSON.stringify(result.value).length).toBeLessThanOrEqual(2100);
      expect(result.logs.reduce((sum, line) => sum + line.text.length, 0)).toBeLessThanOrEqual(2000);
      expect(result.truncated.length).toBeGreaterThan(0);
    });

    it('cancels at once through an AbortSignal', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const result = await vault.sandbox.run(`while (true) {}`, { signal: controller.signal });
      expect(result).toMatchObject({ ok: false, error: { code: 'Cancelled' } });
      expect(result.durationMs).toBeLessThan(2000);
    });

    it('cancels a run aborted while its worker starts, without running the code', async () => {
      const controller = new AbortController();
      const sandbox = new Sandbox(
        () => {
          controller.abort();
          return createNodeSandboxWorker();
        },
        vault.mem,
        { limits: { timeMs: 3000 } },
      );
      try {
        const result = await sandbox.run(`await mem.writeFile('ran.md', 'x'); while (true) {}`, { signal: controller.signal });
        expect(result).toMatchObject({ ok: false, error: { code: 'Cancelled' } });
        expect(result.durationMs).toBeLessThan(2000);
        expect(await vault.mem.fileExists('ran.md')).toBe(false);
        expect(await sandbox.run('return 4;')).toMatchObject({ ok: true, value: 4 });
      } finally {
        sandbox.dispose();
      }
    });
  });
});
