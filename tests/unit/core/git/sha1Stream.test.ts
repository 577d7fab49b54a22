import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import Sha1Stream from '../../../../src/core/git/sha1Stream';
import { seededRandom } from '../../../helpers/seededRandom';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('Sha1Stream', () => {
  it('gives the FIPS 180-4 test vectors', () => {
    const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);
    expect(new Sha1Stream().update(ascii('')).digest('hex')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(new Sha1Stream().update(ascii('abc')).digest('hex')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(new Sha1Stream().update(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).digest('hex')).toBe('84983e441c3bd26ebaae4aa1f95129e5e54670f1');
  });

  it('agrees with node:crypto on random data given in random pieces, across block and padding edges', () => {
    const random = seededRandom(1);
    for (const size of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 70_000]) {
      const data = Uint8Array.from({ length: size }, () => Math.floor(random() * 256));
      const stream = new Sha1Stream();
      for (let at = 0; at < size; ) {
        const piece = Math.min(size - at, 1 + Math.floor(random() * 150));
        stream.update(at % 2 === 0 ? data.subarray(at, at + piece) : data.slice(at, at + piece).buffer);
        at += piece;
      }
      const digest = stream.digest();
      expect(digest).toBeInstanceOf(Uint8Array);
      expect(hex(digest as Uint8Array), `${size} bytes`).toBe(createHash('sha1').update(data).digest('hex'));
    }
  });

  it('takes a Buffer, and refuses text and a second digest', () => {
    const stream = new Sha1Stream().update(Buffer.from('blob 0\0'));
    expect(stream.digest('hex')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(() => stream.digest()).toThrow(/twice/);
    expect(() => new Sha1Stream().update('text' as unknown as Uint8Array)).toThrow(TypeError);
  });
});
