import { describe, expect, it } from 'vitest';
import { plainMatch } from '../../../../src/core/memory/plainMatch';

describe('plainMatch', () => {
  it('scores exact words above prefixes above typos, and 0 when nothing matches', () => {
    const text = 'Fixed the authentication bug in the login flow';
    expect(plainMatch(text, 'authentication')).toBe(1);
    expect(plainMatch(text, 'auth')).toBe(1);
    expect(plainMatch(text, 'authentcation')).toBe(0.5);
    expect(plainMatch(text, 'database')).toBe(0);
    expect(plainMatch(text, 'login database')).toBe(0.5);
  });

  it('is 0 for a query without words', () => {
    expect(plainMatch('anything', '  ,. ')).toBe(0);
  });

  it('agrees with a naive edit distance on random words', () => {
    const naive = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      return d[a.length]![b.length]!;
    };
    const letters = 'abcde';
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 300; n++) {
      const word = Array.from({ length: 5 + (next() % 6) }, () => letters[next() % letters.length]).join('');
      const term = Array.from({ length: 5 + (next() % 6) }, () => letters[next() % letters.length]).join('');
      const edits = Math.floor(term.length * 0.2);
      const expected = word.includes(term) ? 1 : word.startsWith(term) ? 0.8 : edits > 0 && naive(word, term) <= edits ? 0.5 : 0;
      expect(plainMatch(word, term), `${word} / ${term}`).toBe(expected);
    }
  });
});
