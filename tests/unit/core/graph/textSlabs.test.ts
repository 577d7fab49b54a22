import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesOf, TextSlabs, type TextSpan } from '../../../../src/core/graph/textSlabs';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const SLAB = 64;

/** Texts short and long (past a slab), ASCII and not (2-, 3- and 4-byte characters), and empty. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\n'), minLength: 15, maxLength: 40 }),
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), key: fc.nat({ max: 7 }), text }),
  fc.record({ kind: fc.constant('drop' as const), key: fc.nat({ max: 7 }) }),
);

/** Holds spans by key as `IndexedVault` holds notes' texts: a write replaces, a drop lets go. */
class Owner {
  readonly spans = new Map<number, TextSpan>();
  readonly slabs = new TextSlabs(() => this.spans.values(), SLAB);

  write(key: number, value: string): void {
    const before = this.spans.get(key);
    this.spans.set(key, this.slabs.write(value));
    if (before !== undefined) this.slabs.release(before);
  }

  drop(key: number): void {
    const before = this.spans.get(key);
    if (before === undefined) return;
    this.spans.delete(key);
    this.slabs.release(before);
  }
}

describe('text slabs', () => {
  it('give back every text held, through replacements, drops and emptied slabs', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const owner = new Owner();
        const model = new Map<number, string>();
        for (const change of steps) {
          if (change.kind === 'write') {
            owner.write(change.key, change.text);
            model.set(change.key, change.text);
          } else {
            owner.drop(change.key);
            model.delete(change.key);
          }
          for (const [key, value] of model) expect(decoder.decode(bytesOf(owner.spans.get(key) as TextSpan))).toBe(value);
        }
        // Every slab still held counts exactly the bytes of the spans in it, and is at least half in
        // use, but for the one being written (the slab of the latest write, or a text's own).
        const live = new Map<TextSpan['slab'], number>();
        for (const span of owner.spans.values()) live.set(span.slab, (live.get(span.slab) ?? 0) + span.end - span.start);
        const current = owner.slabs.write('').slab;
        for (const [slab, bytes] of live) {
          expect(slab.live).toBe(bytes);
          if (slab !== current) expect(slab.live * 2).toBeGreaterThanOrEqual(slab.used);
        }
      }),
      { numRuns: 300, seed: 5 },
    );
  });

  it('writes texts one after another into a shared slab, and a text longer than a slab into its own', () => {
    const slabs = new TextSlabs(() => [], SLAB);
    const first = slabs.write('alpha');
    const second = slabs.write('βeta');
    expect(second.slab).toBe(first.slab);
    expect([first.start, first.end, second.start, second.end]).toEqual([0, 5, 5, 10]);
    const long = slabs.write('x'.repeat(SLAB + 1));
    expect(long.slab).not.toBe(first.slab);
    expect(long.slab.bytes.length).toBe(SLAB + 1);
    expect(slabs.write('after').slab).toBe(first.slab);
  });

  it('moves the texts out of a slab once under half of it is in use, never out of the one being written', () => {
    const owner = new Owner();
    for (let key = 0; key < 4; key++) owner.write(key, '0123456789abcdef');
    owner.write(4, 'in the next slab');
    const first = owner.spans.get(0)?.slab;
    const next = owner.spans.get(4)?.slab;
    expect(next).not.toBe(first);
    owner.drop(0);
    owner.drop(1);
    expect(owner.spans.get(3)?.slab).toBe(first);
    owner.drop(2);
    expect(owner.spans.get(3)?.slab).toBe(next);
    expect(decoder.decode(bytesOf(owner.spans.get(3) as TextSpan))).toBe('0123456789abcdef');
    expect(first?.live).toBe(0);
    owner.drop(4);
    expect(owner.spans.get(3)?.slab).toBe(next);
  });
});
