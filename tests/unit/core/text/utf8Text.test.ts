import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayContainLowered, splitUtf8Lines, utf8Lines, writeUtf8 } from '../../../../src/core/text/utf8Text';
import { Slicer } from '../../../../src/core/util/Slicer';

const text = fc.array(fc.oneof(fc.constantFrom('\n', '\r\n', '\ufeff', 'é', '東京', '😀', ' '), fc.string({ maxLength: 6 })), { maxLength: 30 }).map((parts) => parts.join(''));

describe('utf8Lines', () => {
  it('gives the lines of text.split("\\n"), for any lines asked, from the UTF-8 bytes', () => {
    fc.assert(
      fc.property(text, fc.uniqueArray(fc.nat({ max: 40 }), { maxLength: 12 }), (value, lines) => {
        // Lone surrogates have no UTF-8 form: the bytes are those of the text as a file would hold it.
        const wellFormed = new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(value));
        const wanted = [...lines].sort((a, b) => a - b);
        const all = wellFormed.split('\n');
        expect(utf8Lines(new TextEncoder().encode(wellFormed), wanted)).toEqual(wanted.map((line) => all[line]));
      }),
      { numRuns: 500, seed: 5 },
    );
  });

  it('keeps a byte-order mark on the first line, and gives empty lines at either end', () => {
    const bytes = new TextEncoder().encode('\ufeffone\n\ntwo\n');
    expect(utf8Lines(bytes, [0, 1, 2, 3, 4])).toEqual(['\ufeffone', '', 'two', '', undefined]);
    expect(utf8Lines(new Uint8Array(0), [0, 1])).toEqual(['', undefined]);
  });
});

describe('mayContainLowered', () => {
  const pieces = fc.constantFrom('Sourdough', 'STARTER', 'ki', 'İstanbul', 'K\u212Aelvin', '\u212A', 'é', 'Ä', 'ß', '东京', '😀', '\n', ' ', 'i\u0307', 'MiX', 'x');
  const noteText = fc.array(fc.oneof(pieces, fc.string({ maxLength: 4 })), { maxLength: 16 }).map((parts) => parts.join(''));
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('never rules out a note whose lower-cased text contains the query', () => {
    fc.assert(
      fc.property(noteText, fc.nat(), fc.nat({ max: 12 }), fc.string({ maxLength: 5 }), (text, from, length, other) => {
        const lowered = text.toLowerCase();
        const start = from % Math.max(lowered.length, 1);
        for (const query of [lowered.slice(start, start + length), other.toLowerCase(), 'k', 'i', 'ki']) {
          if (lowered.includes(query)) expect(mayContainLowered(encode(text), query)).toBe(true);
        }
      }),
      { numRuns: 2000, seed: 9 },
    );
  });

  it('rules out plain ASCII notes without the query, ignoring case', () => {
    expect(mayContainLowered(encode('A Sourdough STARTER, fed daily.'), 'starter')).toBe(true);
    expect(mayContainLowered(encode('A Sourdough STARTER, fed daily.'), 'sourdough starter')).toBe(true);
    expect(mayContainLowered(encode('A Sourdough STARTER, fed daily.'), 'rye')).toBe(false);
    expect(mayContainLowered(encode('Café crème, naïve'), 'cafe')).toBe(false);
    expect(mayContainLowered(encode('short'), 'much longer than the note')).toBe(false);
    // İ lower-cases to "i̇", the Kelvin sign to "k": such notes are never ruled out.
    expect(mayContainLowered(encode('\u212Aayak'), 'kay')).toBe(true);
    expect(mayContainLowered(encode('İnce'), 'ince')).toBe(true);
    // A query outside ASCII is left to the plain comparison.
    expect(mayContainLowered(encode('plain'), 'café')).toBe(true);
  });
});

describe('splitUtf8Lines', () => {
  it('gives text.split("\\n") of the decoded bytes, whatever the size of the pieces it decodes', async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 12 }), async (value, chunk) => {
        const wellFormed = new TextDecoder('utf-8', { ignoreBOM: true }).decode(new TextEncoder().encode(value));
        expect(await splitUtf8Lines(new TextEncoder().encode(wellFormed), new Slicer(0), chunk)).toEqual(wellFormed.split('\n'));
      }),
      { numRuns: 300, seed: 8 },
    );
  });
});

describe('writeUtf8', () => {
  it('writes what TextEncoder gives, where it is asked, and says where it ends', () => {
    const names = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '/', 'é', '漢', '😀', '\uD800', '\uDC00', '\uFFFD'), maxLength: 12 });
    fc.assert(
      fc.property(names, fc.nat({ max: 5 }), (value, at) => {
        const out = new Uint8Array(at + value.length * 3 + 1).fill(0xaa);
        const end = writeUtf8(out, at, value);
        const expected = new TextEncoder().encode(value);
        expect(end).toBe(at + expected.length);
        expect([...out.subarray(at, end)]).toEqual([...expected]);
        // Nothing before it or after it is touched.
        expect(out.subarray(0, at).every((byte) => byte === 0xaa)).toBe(true);
        expect(out.subarray(end).every((byte) => byte === 0xaa)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
