import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charCodeString, isAscii, latin1String } from '../../../../src/core/text/asciiString';
import { hexAt, toHex } from '../../../../src/core/git/sha1';

const utf8 = new TextDecoder();

describe('isAscii', () => {
  it('is true for bytes below 0x80 and for no bytes at all', () => {
    expect(isAscii(Uint8Array.from([0x00, 0x41, 0x7f]))).toBe(true);
    expect(isAscii(new Uint8Array(0))).toBe(true);
  });

  it('is false as soon as one byte is 0x80 or above, wherever it is', () => {
    expect(isAscii(Uint8Array.from([0x80]))).toBe(false);
    expect(isAscii(new TextEncoder().encode(`${'a'.repeat(5000)}é`))).toBe(false);
  });
});

describe('latin1String', () => {
  it('gives the same text as UTF-8 decoding for any ASCII bytes, across the chunks it builds in', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 10_000 }), (raw) => {
        const bytes = raw.map((byte) => byte & 0x7f);
        expect(latin1String(bytes)).toBe(utf8.decode(bytes));
      }),
    );
  });

  it('builds long texts whole: exactly one chunk, one past it, and several', () => {
    for (const length of [4096, 4097, 3 * 4096 + 5]) {
      const bytes = Uint8Array.from({ length }, (_, at) => 0x41 + (at % 26));
      const text = latin1String(bytes);
      expect(text.length).toBe(length);
      expect(text).toBe(utf8.decode(bytes));
    }
  });

  it('reads a view at an offset, not its whole buffer', () => {
    const buffer = new TextEncoder().encode('xxhello');
    expect(latin1String(buffer.subarray(2))).toBe('hello');
  });

  it('maps bytes above 0x7f to the Latin-1 character of the same number', () => {
    expect(latin1String(Uint8Array.from([0xe9, 0xff]))).toBe('\u00e9\u00ff');
  });
});

describe('charCodeString', () => {
  it('gives back any string from its UTF-16 code units, lone surrogates too, across chunks', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 10_000 }), (text) => {
        expect(charCodeString(codeUnits(text))).toBe(text);
      }),
    );
    const lone = '\ud800 😀 \udfff'.repeat(3000);
    expect(charCodeString(codeUnits(lone))).toBe(lone);
  });
});

function codeUnits(text: string): Uint16Array {
  return Uint16Array.from({ length: text.length }, (_, at) => text.charCodeAt(at));
}

describe('hex digits', () => {
  it('spells every byte with two lower-case digits, for ids and for other lengths', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const expected = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
        expect(toHex(bytes)).toBe(expected);
      }),
    );
  });

  it('reads an id in the middle of a buffer, and each call is a string of its own', () => {
    const bytes = Uint8Array.from({ length: 50 }, (_, at) => at * 5);
    const first = hexAt(bytes, 10, 20);
    const second = hexAt(bytes, 30, 20);
    expect(first).toBe(toHex(bytes.subarray(10, 30)));
    expect(second).toBe(toHex(bytes.subarray(30, 50)));
    expect(first).not.toBe(second);
  });
});
