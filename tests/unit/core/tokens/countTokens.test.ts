import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../../src/core/tokens/countTokens';

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
