import { describe, expect, it } from 'vitest';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { countTokens, countTokensInSlices } from '../../../../src/core/tokens/countTokens';

describe('countTokens', () => {
  it('counts cl100k_base tokens, not characters', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('tokenization')).toBe(2);
    expect(countTokens(' '.repeat(40))).toBeLessThan(40);
  });

  it('treats special-token spellings in a note as plain text', () => {
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });
});

describe('countTokens on large and pathological text', () => {
  const direct = (text: string): number => new Tiktoken(cl100kBase).encode(text, [], []).length;

  it('counts long prose exactly as one encoder pass would, though it works in pieces', async () => {
    const prose = Array.from({ length: 4000 }, (_, i) => `Sentence ${i} talks about notes, links and [[Page ${i % 50}]].`).join(' ');
    expect(prose.length).toBeGreaterThan(100_000);
    expect(countTokens(prose)).toBe(direct(prose));
    expect(await countTokensInSlices(prose)).toBe(direct(prose));
  });

  it('counts runs of letters or whitespace in slices, within a token per slice', () => {
    for (const run of ['a'.repeat(2048), `x${' '.repeat(2048)}x`, `x${'\u00a0'.repeat(2048)}x`]) {
      expect(Math.abs(countTokens(run) - direct(run))).toBeLessThanOrEqual(2048 / 256 + 1);
    }
  });
});
