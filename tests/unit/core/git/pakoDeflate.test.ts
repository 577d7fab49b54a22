import fc from 'fast-check';
import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { PakoDeflater } from '../../../../src/core/git/pakoDeflate';

/** pako's one-shot deflate with the parameters `PakoDeflater` picks: a new state for every call. */
function freshDeflate(bytes: Uint8Array): Uint8Array {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes.byteLength + 262))));
  return pako.deflate(bytes, { level: 1, windowBits, memLevel: bytes.byteLength < 1 << 20 ? 5 : 8 });
}

const noteLike = fc
  .array(fc.constantFrom('the ', 'garden ', '[[Link]] ', '- [ ] task\n', '# Heading\n', 'tags: x\n', '\u00e9t\u00e9 ', '\n'), { maxLength: 400 })
  .map((parts) => new TextEncoder().encode(parts.join('')));
const random = fc.uint8Array({ maxLength: 5000 });

describe('PakoDeflater', () => {
  it('gives, object after object, the bytes a new pako stream gives, which inflate back', () => {
    const deflater = new PakoDeflater();
    fc.assert(
      fc.property(fc.array(fc.oneof(noteLike, random), { minLength: 1, maxLength: 8 }), (objects) => {
        for (const bytes of objects) {
          const deflated = deflater.deflate(bytes);
          expect(deflated).toEqual(freshDeflate(bytes));
          expect(pako.inflate(deflated)).toEqual(bytes);
        }
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('takes input that does not compress at all, and does not keep a huge output buffer afterwards', () => {
    const deflater = new PakoDeflater();
    const noise = new Uint8Array(3 << 20);
    for (let at = 0, state = 1; at < noise.length; at += 1) noise[at] = (state = Math.imul(state, 1103515245) + 12345) >>> 24;
    const deflated = deflater.deflate(noise);
    expect(deflated.byteLength).toBeGreaterThan(noise.byteLength);
    expect(Buffer.from(pako.inflate(deflated)).equals(noise)).toBe(true);
    expect(deflater.deflate(new TextEncoder().encode('small'))).toEqual(freshDeflate(new TextEncoder().encode('small')));
    expect((deflater as unknown as { output: Uint8Array }).output.byteLength).toBeLessThan(1 << 20);
  });
});
