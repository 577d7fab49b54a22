import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MEM_REFERENCE } from '../../../../src/core/agent/memReference.generated';
import { ACTIONS_PROMPT } from '../../../../src/core/agent/actions/actionsPrompt';
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

describe('the system prompt and memory', () => {
  const runtime = { now: new Date(2026, 10, 22, 9, 30), vaultName: 'Work', noteCount: 3 };

  it('tells the model to remember what it learns, proactively, and to recall before re-investigating', () => {
    for (const phrase of ['mem.remember(content, tags)', 'without asking', 'mem.recall', 'mem.workingMemory']) expect(BASE_PROMPT).toContain(phrase);
  });

  it('places the memories after the instructions and before the runtime context', () => {
    const prompt = buildSystemPrompt({ customInstructions: 'Be brief.', memories: '## Memories from earlier work\n\nTeal.', runtime });
    const order = ['Be brief.', '## Memories from earlier work', '## Context'].map((text) => prompt.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('uses the action protocol in place of code for protocol "actions", with no TypeScript and no mem reference', () => {
    const prompt = buildSystemPrompt({ protocol: 'actions', runtime });
    expect(prompt.startsWith(ACTIONS_PROMPT)).toBe(true);
    for (const kind of ['set', 'get', 'rm', 'mv', 'ls', 'search']) expect(ACTIONS_PROMPT).toContain(`| ${kind} |`);
    for (const phrase of ['/working_memory/', '/storage/', '<target_path>', '<source_path>', '<content>', '_1, _2', 'NOT shown to you']) expect(ACTIONS_PROMPT).toContain(phrase);
    expect(prompt).not.toContain('<typescript>');
    expect(prompt).not.toContain(MEM_REFERENCE);
    expect(buildSystemPrompt({ runtime }).startsWith(BASE_PROMPT)).toBe(true);
  });
});
