import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEM_REFERENCE } from '../../../../src/core/agent/memReference.generated';
import { BASE_PROMPT, buildSystemPrompt } from '../../../../src/core/agent/systemPrompt';
import { MEM_METHOD_NAMES } from '../../../../src/core/mem';
// @ts-expect-error -- a plain .mjs script without type declarations
import { generateMemReference, OUTPUT } from '../../../../scripts/generate-mem-reference.mjs';

describe('the system prompt', () => {
  it('carries a mem reference generated from the current code', () => {
    expect(readFileSync(OUTPUT as string, 'utf8')).toBe((generateMemReference as () => string)());
    for (const name of MEM_METHOD_NAMES) expect(MEM_REFERENCE).toContain(`### mem.${name}(`);
    expect(BASE_PROMPT).toContain(MEM_REFERENCE);
  });

  it("states the protocol and the efficiency rule of the seed", () => {
    for (const phrase of ['<think>', '<typescript>', '<reply>', 'fewest turns', 'mem.commitChanges']) expect(BASE_PROMPT).toContain(phrase);
  });

  it('layers AGENTS.md, the user instructions and the runtime context after the built-in prompt, in that order', () => {
    const prompt = buildSystemPrompt({
      agentsMd: 'Vault rule: dates as YYYY-MM-DD.',
      customInstructions: 'Answer in French.',
      runtime: { now: new Date(2026, 10, 22, 9, 30), vaultName: 'Work', noteCount: 1234 },
    });
    const order = [BASE_PROMPT.slice(0, 40), 'Vault rule', 'Answer in French', 'local date 2026-11-22, Sunday', 'Vault: Work', 'Notes: 1234'].map((text) => prompt.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('leaves out empty layers', () => {
    const prompt = buildSystemPrompt({ agentsMd: '  ', customInstructions: null, runtime: { now: new Date(0), vaultName: 'V', noteCount: 0 } });
    expect(prompt).not.toContain('AGENTS.md');
    expect(prompt).not.toContain("user's instructions");
  });
});
