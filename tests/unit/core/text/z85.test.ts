import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z85Encode } from '../../../../scripts/cl100k-ranks.mjs';
import { Z85_ALPHABET, z85Decode } from '../../../../src/core/text/z85';

describe('Z85', () => {
  it('decodes the test vector of ZeroMQ RFC 32', () => {
    expect([...z85Decode('HelloWorld')]).toEqual([0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b]);
    expect(z85Encode(new Uint8Array([0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b]))).toBe('HelloWorld');
  });

  it('round-trips random bytes through the build\'s encoder, padded with zeros to four', () => {
    for (const size of [0, 1, 2, 3, 4, 5, 7, 8, 63, 64, 65, 1000, 4099]) {
      const bytes = new Uint8Array(randomBytes(size));
      const text = z85Encode(bytes);
      expect(text.length).toBe(Math.ceil(size / 4) * 5);
      const decoded = z85Decode(text);
      expect([...decoded.subarray(0, size)]).toEqual([...bytes]);
      expect(decoded.subarray(size).every((byte) => byte === 0)).toBe(true);
    }
  });

  it('spans the whole alphabet and both ends of a group', () => {
    expect(new Set(Z85_ALPHABET).size).toBe(85);
    expect(Z85_ALPHABET).not.toMatch(/["'`\\]/);
    expect([...z85Decode('00000')]).toEqual([0, 0, 0, 0]);
    expect([...z85Decode('%nSc0')]).toEqual([0xff, 0xff, 0xff, 0xff]);
  });

  it('refuses text that is not Z85', () => {
    expect(() => z85Decode('Hell')).toThrow(/groups of five/);
    expect(() => z85Decode('Hell"')).toThrow(/not a Z85 character/);
    expect(() => z85Decode('Hellé')).toThrow(/not a Z85 character/);
    expect(() => z85Decode('#####')).toThrow(/larger than four bytes/);
  });
});
