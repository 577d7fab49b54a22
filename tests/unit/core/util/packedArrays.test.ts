import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packArrays, packArraysInSlices, unpackArrays, type PackedArray } from '../../../../src/core/util/packedArrays';
import { Slicer } from '../../../../src/core/util/Slicer';

const array: fc.Arbitrary<PackedArray> = fc.oneof(
  fc.uint8Array({ maxLength: 13 }),
  fc.uint16Array({ maxLength: 13 }),
  fc.uint32Array({ maxLength: 13 }),
);

/** The array as a view into the middle of a larger buffer full of other numbers. */
const view: fc.Arbitrary<PackedArray> = fc.tuple(array, fc.nat({ max: 5 }), fc.nat({ max: 5 })).map(([contents, before, after]) => {
  const Kind = contents.constructor as new (length: number) => PackedArray;
  const larger = new Kind(before + contents.length + after).fill(0xaa);
  larger.set(contents, before);
  return larger.subarray(before, before + contents.length);
});

const kindAndContents = (arrays: readonly PackedArray[]): [string, number[]][] => arrays.map((a) => [a.constructor.name, Array.from(a)]);

/** `bytes` copied into a fresh buffer at `offset`, as a pooled read may hand them over. */
function at(bytes: Uint8Array, offset: number): Uint8Array {
  const placed = new Uint8Array(new ArrayBuffer(offset + bytes.length + 3), offset, bytes.length);
  placed.set(bytes);
  return placed;
}

/** A pack whose last array ends exactly at its end: 32 bytes of header, then 3 + 1 padding, 6 + 2 padding, 8. */
function smallPack(): Uint8Array {
  return packArrays([Uint8Array.of(1, 2, 3), Uint16Array.of(400, 500, 65_535), Uint32Array.of(7, 0xffffffff)]);
}

/** The pack's header as 32-bit words: magic, count, then kind and length of each array. */
function header(bytes: Uint8Array): Uint32Array {
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
}

describe('packed arrays', () => {
  it('give back the arrays packed, of the same kinds and contents', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(array, view), { maxLength: 6 }), (arrays) => {
        const packed = packArrays(arrays);
        expect(packed.byteLength % 4).toBe(0);
        const unpacked = unpackArrays(packed);
        expect(unpacked).not.toBeNull();
        expect(kindAndContents(unpacked ?? [])).toEqual(kindAndContents(arrays));
        // Viewed in place, not copied.
        for (const one of unpacked ?? []) expect(one.buffer).toBe(packed.buffer);
      }),
      { numRuns: 300, seed: 31 },
    );
  });

  it('pack a list of byte arrays as their concatenation, in one go or in slices', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 9 }), { maxLength: 6 }), fc.uint32Array({ maxLength: 5 }), async (chunks, numbers) => {
        const joined = Uint8Array.from(chunks.flatMap((chunk) => [...chunk]));
        const expected = packArrays([numbers, joined]);
        expect(packArrays([numbers, chunks])).toEqual(expected);
        expect(await packArraysInSlices([numbers, chunks], new Slicer(0))).toEqual(expected);
        const [backNumbers, backBytes] = unpackArrays(expected) ?? [];
        expect(backNumbers).toEqual(numbers);
        expect(backBytes).toEqual(joined);
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  it('pack a view of a larger buffer as just its own contents', () => {
    fc.assert(
      fc.property(fc.array(view, { maxLength: 6 }), (views) => {
        const copies = views.map((one) => one.slice());
        expect([...packArrays(views)]).toEqual([...packArrays(copies)]);
      }),
      { numRuns: 200, seed: 37 },
    );
    const numbers = (length: number): number[] => Array.from({ length }, (_, i) => i + 1);
    const unpacked = unpackArrays(
      packArrays([
        Uint32Array.from(numbers(100)).subarray(10, 13),
        new Uint8Array(Uint8Array.from(numbers(100)).buffer, 1, 3),
        new Uint16Array(Uint16Array.from(numbers(100)).buffer, 6, 3),
        Uint8Array.from(numbers(100)).subarray(99),
      ]),
    );
    expect(kindAndContents(unpacked ?? [])).toEqual([
      ['Uint32Array', [11, 12, 13]],
      ['Uint8Array', [2, 3, 4]],
      ['Uint16Array', [4, 5, 6]],
      ['Uint8Array', [100]],
    ]);
  });

  it('round-trip lengths 0, 1 and odd ones of every kind', () => {
    const arrays: PackedArray[] = [];
    for (const length of [0, 1, 2, 3, 5, 7, 1001]) {
      arrays.push(Uint8Array.from({ length }, (_, i) => (i * 37 + 1) & 0xff));
      arrays.push(Uint16Array.from({ length }, (_, i) => (i * 4099 + 3) & 0xffff));
      arrays.push(Uint32Array.from({ length }, (_, i) => (i * 2_654_435_761 + 5) >>> 0));
    }
    expect(kindAndContents(unpackArrays(packArrays(arrays)) ?? [])).toEqual(kindAndContents(arrays));
    expect(unpackArrays(packArrays([]))).toEqual([]);
    expect(kindAndContents(unpackArrays(packArrays([new Uint8Array(0)])) ?? [])).toEqual([['Uint8Array', []]]);
  });

  it('unpack bytes that start at any offset', () => {
    fc.assert(
      fc.property(fc.array(array, { maxLength: 6 }), fc.integer({ min: 0, max: 7 }), (arrays, offset) => {
        const placed = at(packArrays(arrays), offset);
        expect(placed.byteOffset).toBe(offset);
        expect(kindAndContents(unpackArrays(placed) ?? [])).toEqual(kindAndContents(arrays));
      }),
      { numRuns: 200, seed: 41 },
    );
    for (const offset of [1, 2, 3, 5]) {
      expect(kindAndContents(unpackArrays(at(smallPack(), offset)) ?? [])).toEqual(kindAndContents(unpackArrays(smallPack()) ?? []));
    }
  });

  it('refuse every truncation of a pack', () => {
    const packed = smallPack();
    expect(packed.byteLength).toBe(52);
    expect(unpackArrays(packed)).not.toBeNull();
    for (let length = 0; length < packed.byteLength; length += 1) {
      // As a copy of its own, as a shorter view of the whole (the rest still in the buffer), and misaligned.
      expect(unpackArrays(packed.slice(0, length)), `copy of ${length}`).toBeNull();
      expect(unpackArrays(packed.subarray(0, length)), `view of ${length}`).toBeNull();
      expect(unpackArrays(at(packed.subarray(0, length), 1)), `misaligned ${length}`).toBeNull();
    }
  });

  it('lose nothing when only the padding after the last array is cut', () => {
    // One byte of data ends at 17; the pack is padded to 20.
    const packed = packArrays([Uint8Array.of(9)]);
    expect(packed.byteLength).toBe(20);
    for (let length = 0; length < 17; length += 1) expect(unpackArrays(packed.slice(0, length)), `${length}`).toBeNull();
    for (let length = 17; length <= 20; length += 1) {
      const unpacked = unpackArrays(packed.slice(0, length));
      if (unpacked !== null) expect(kindAndContents(unpacked)).toEqual([['Uint8Array', [9]]]);
    }
  });

  it('refuse a wrong magic number', () => {
    for (let byte = 0; byte < 4; byte += 1) {
      const damaged = smallPack();
      damaged[byte] = (damaged[byte] as number) ^ 0x20;
      expect(unpackArrays(damaged)).toBeNull();
    }
    const swapped = smallPack();
    swapped.subarray(0, 4).reverse();
    expect(unpackArrays(swapped)).toBeNull();
    expect(unpackArrays(new Uint8Array(52))).toBeNull();
  });

  it('refuse an unknown kind', () => {
    for (const kind of [3, 4, 255, 0xffffffff]) {
      for (const array of [0, 1, 2]) {
        const damaged = smallPack();
        header(damaged)[2 + array * 2] = kind;
        expect(unpackArrays(damaged), `kind ${kind} for array ${array}`).toBeNull();
      }
    }
  });

  it('refuse a length or a count beyond the end', () => {
    // The last array ends at the end: one element more is beyond it.
    for (const extra of [1, 2]) {
      const damaged = smallPack();
      header(damaged)[7] = 2 + extra;
      expect(unpackArrays(damaged), `last array longer by ${extra}`).toBeNull();
    }
    // An earlier array longer by a little runs into the next one, which the format cannot tell; by a lot, beyond the end.
    const lengths = [3, 3, 2];
    for (const array of [0, 1, 2]) {
      for (const extra of [1000, 0xffffffff - (lengths[array] as number)]) {
        const damaged = smallPack();
        header(damaged)[3 + array * 2] = (lengths[array] as number) + extra;
        expect(unpackArrays(damaged), `array ${array} longer by ${extra}`).toBeNull();
      }
    }
    for (const count of [7, 1000, 0xffffffff]) {
      const damaged = smallPack();
      header(damaged)[1] = count;
      expect(unpackArrays(damaged), `count ${count}`).toBeNull();
    }
  });

  it('never throw on damaged or foreign bytes', () => {
    const damagedPack = fc
      .tuple(fc.array(array, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), fc.integer({ min: 0, max: 3 }))
      .map(([arrays, changes, cut, offset]) => {
        const bytes = packArrays(arrays);
        for (const [where, value] of changes) bytes[where % bytes.length] = value;
        return at(bytes.subarray(0, bytes.length - (cut % 9)), offset);
      });
    fc.assert(
      fc.property(fc.oneof(damagedPack, fc.uint8Array({ maxLength: 64 })), (bytes) => {
        const unpacked = unpackArrays(bytes);
        for (const one of unpacked ?? []) {
          expect([Uint8Array, Uint16Array, Uint32Array].some((kind) => one instanceof kind)).toBe(true);
          // Whatever is given back lies within the bytes given.
          expect(one.byteLength).toBeLessThanOrEqual(bytes.byteLength);
        }
      }),
      { numRuns: 500, seed: 43 },
    );
  });
});
