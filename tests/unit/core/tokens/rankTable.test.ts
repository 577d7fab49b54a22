import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RankTable } from '../../../../src/core/tokens/rankTable';

const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes);
const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

describe('RankTable', () => {
  it('finds each token by its bytes, whole or between offsets of a longer key, as a Map would', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 12 }), fc.nat(200_000)), { maxLength: 300 }), fc.uint8Array({ maxLength: 12 }), (tokens, probe) => {
        const line = tokens.map(([bytes]) => base64(bytes)).join(' ');
        const table = new RankTable(tokens.length, line.length);
        const expected = new Map<string, number>();
        let at = 0;
        for (const [bytes, rank] of tokens) {
          const text = base64(bytes);
          table.addBase64(line, at, at + text.length, rank);
          at += text.length + 1;
          expected.set(latin1(bytes), rank);
        }
        expect(table.size).toBe(expected.size);
        for (const [key, rank] of expected) {
          expect(table.get(key)).toBe(rank);
          expect(table.get(`xy${key}z`, 2, 2 + key.length)).toBe(rank);
        }
        expect(table.get(latin1(probe))).toBe(expected.get(latin1(probe)));
      }),
      { numRuns: 200 },
    );
  });

  it('takes base64 with or without its padding, keeps the later rank of a token added twice, and refuses what is not base64', () => {
    const table = new RankTable(4, 64);
    table.addBase64('IQ==', 0, 4, 7);
    table.addBase64('IQ', 0, 2, 9);
    table.addBase64('aGk=', 0, 4, 3);
    expect(table.size).toBe(2);
    expect(table.get('!')).toBe(9);
    expect(table.get('hi')).toBe(3);
    expect(table.get('h')).toBeUndefined();
    expect(() => table.addBase64('a*b=', 0, 4, 1)).toThrow('is not base64');
  });

  it('says when it is full rather than overwrite a token', () => {
    const table = new RankTable(1, 8);
    table.addBase64('YQ==', 0, 4, 0);
    expect(() => table.addBase64('Yg==', 0, 4, 1)).toThrow('full');
    expect(table.get('a')).toBe(0);
  });
});
