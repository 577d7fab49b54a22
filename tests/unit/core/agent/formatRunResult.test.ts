import { describe, expect, it } from 'vitest';
import { formatRunResult } from '../../../../src/core/agent/formatRunResult';
import type { RunResult } from '../../../../src/core/sandbox/protocol';

const base: RunResult = { ok: true, value: null, logs: [], error: null, memCalls: 2, durationMs: 5, truncated: [] };

describe('formatRunResult', () => {
  it('shows the value and the console output of a run that worked', () => {
    const text = formatRunResult({ ...base, value: { files: ['a.md'] }, logs: [{ level: 'log', text: 'hi' }, { level: 'warn', text: 'careful' }] }, 1000);
    expect(text).toBe('[Execution Result] The code ran (2 mem calls, 5 ms).\nReturned: {"files":["a.md"]}\nConsole:\nhi\n[warn] careful');
  });

  it('shows the error with its type and line, and what to do', () => {
    const text = formatRunResult({ ...base, ok: false, error: { code: 'NotFound', name: 'NotFoundError', message: 'No file at "x.md".', line: 4 } }, 1000);
    expect(text).toContain('[Execution Error] NotFoundError on line 4: No file at "x.md".');
    expect(text).toContain('Fix the code');
  });

  it('cuts long results to the token budget, saying how much was cut', () => {
    const text = formatRunResult({ ...base, value: 'y'.repeat(10_000) }, 100);
    expect(text.length).toBeLessThan(500);
    expect(text).toMatch(/more characters cut/);
  });
});
