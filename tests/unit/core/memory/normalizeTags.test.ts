import { describe, expect, it } from 'vitest';
import { normalizeTag, normalizeTags } from '../../../../src/core/memory/normalizeTags';

describe('normalizeTags', () => {
  it('lower-cases, turns spaces and underscores into hyphens and drops other characters', () => {
    expect(normalizeTags(['Bug Fix', 'auth_flow', '#Q3!', 'C++ & Rust'])).toEqual(['bug-fix', 'auth-flow', 'q3', 'c-rust']);
  });

  it('keeps nested tags and letters of any script, drops empties and duplicates in order', () => {
    expect(normalizeTags(['Projects/Alpha', 'projects/alpha', '   ', '!!!', 'Café Ünïcode', '日本語'])).toEqual(['projects/alpha', 'café-ünïcode', '日本語']);
  });

  it('trims hyphens and slashes at the ends and collapses runs', () => {
    expect(normalizeTag('--a__ _b--//c/-')).toBe('a-b/c');
    expect(normalizeTag('/a//b/')).toBe('a/b');
  });
});
