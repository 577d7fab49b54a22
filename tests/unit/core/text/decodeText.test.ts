import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeText, utf8Length } from '../../../../src/core/text/decodeText';

describe('decodeText', () => {
  it('decodes UTF-8 and keeps a byte-order mark', () => {
    expect(decodeText(new TextEncoder().encode('\uFEFFhé 🙂'))).toBe('\uFEFFhé 🙂');
  });

  describe('when the bytes are not text', () => {
    it('returns null for a NUL byte near the start', () => {
      expect(decodeText(Uint8Array.from([0x41, 0x00, 0x42]))).toBeNull();
    });

    it('returns null for invalid UTF-8', () => {
      expect(decodeText(Uint8Array.from([0xc3, 0x28]))).toBeNull();
    });
  });
});

describe('utf8Length', () => {
  it('matches the encoder for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 2000 },
    );
  });
});
