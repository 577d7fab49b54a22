import { describe, expect, it } from 'vitest';
import { createAgentMemory } from '../../../../src/core/memory/agentMemory';
import { countTokens } from '../../../../src/core/tokens/countTokens';
import { nodeRuntime, useMemFixture } from '../../../helpers/memHarness';

describe('createAgentMemory', () => {
  const vault = useMemFixture(nodeRuntime, { workingMemoryCharLimit: 300 });

  it('has no preamble without memories or without a budget', async () => {
    const memory = createAgentMemory(vault.mem, vault.context);
    expect(await memory.preamble('anything', 1000)).toBeNull();
    await vault.mem.remember('A fact.');
    expect(await memory.preamble('anything', 0)).toBeNull();
    expect(await memory.preamble('anything', 5)).toBeNull();
  });

  it('shows a memory that is both relevant and recent once, relevant ones first, within the budget', async () => {
    await vault.mem.remember('Old relevant: the invoice template lives in Finance.', ['finance']);
    for (let i = 0; i < 6; i++) await vault.mem.remember(`Recent ${i}`);
    const memory = createAgentMemory(vault.mem, vault.context);
    const text = (await memory.preamble('Where is the invoice template?', 1000)) ?? '';
    expect(text.startsWith('## Memories from earlier work')).toBe(true);
    expect(text.split('Old relevant').length).toBe(2);
    expect(text.indexOf('Old relevant')).toBeLessThan(text.indexOf('Recent'));
    expect(text).toContain('[finance]');
    const small = (await memory.preamble('Where is the invoice template?', 90)) ?? '';
    expect(countTokens(small)).toBeLessThanOrEqual(90);
    expect(small).toContain('Old relevant');
    expect(small).not.toContain('Recent 5');
  });

  it('renders the working memory with its size, or says why it cannot', async () => {
    const memory = createAgentMemory(vault.mem, vault.context);
    await vault.mem.workingMemory('set', '/focus', 'invoices');
    expect(await memory.workingMemory()).toBe(`## Working memory (${JSON.stringify({ focus: 'invoices' }).length} of 300 characters used; at most 300 characters, 8 children per node)\n\nKept in the note "Memories/Working memory.md".\n\n\`\`\`yaml\nfocus: invoices\n\`\`\``);
    await vault.seed('Memories/Working memory.md', '```yaml\n[oops\n```\n');
    expect(await memory.workingMemory()).toMatch(/^## Working memory \(at most 300 characters, 8 children per node\)\n\nIt cannot be shown: The working-memory note "Memories\/Working memory.md" cannot be read/);
  });
});
