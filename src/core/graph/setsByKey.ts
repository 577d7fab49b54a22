import { StringMap } from '../util/StringMap';

/**
 * Sets of strings by key, where most sets hold one string (a vault's file names, each nearly
 * always one file's; aliases; the notes linking to a page): such a set is kept as its string
 * alone, and a `Set` is made only for a second one. A `Set` and its table for every name and alias
 * were 40,000 of the 670,000 objects of a 10,000-note vault's heap, which every garbage collection
 * walks, on a phone's main thread too.
 *
 * The sets are `Set`s by default, which is right for paths (the app keeps every path as a key of
 * its own, so a `Set` of them adds nothing to V8's string table), or `kind` (a `StringSet`) for
 * strings notes make up.
 */
export class SetsByKey {
  private readonly sets = new StringMap<string | Set<string>>();

  constructor(private readonly kind: new (values: readonly string[]) => Set<string> = Set) {}

  add(key: string, value: string): void {
    const set = this.sets.get(key);
    if (set === undefined) this.sets.set(key, value);
    else if (typeof set !== 'string') set.add(value);
    else if (set !== value) this.sets.set(key, new this.kind([set, value]));
  }

  /** Takes `value` out of the set under `key`, and the set out once empty. */
  delete(key: string, value: string): void {
    const set = this.sets.get(key);
    if (set === undefined) return;
    if (typeof set === 'string') {
      if (set === value) this.sets.delete(key);
      return;
    }
    set.delete(value);
    if (set.size === 0) this.sets.delete(key);
    else if (set.size === 1) this.sets.set(key, set.values().next().value as string);
  }

  has(key: string, value: string): boolean {
    const set = this.sets.get(key);
    return set === undefined ? false : typeof set === 'string' ? set === value : set.has(value);
  }

  /** How many strings are under `key`. */
  size(key: string): number {
    const set = this.sets.get(key);
    return set === undefined ? 0 : typeof set === 'string' ? 1 : set.size;
  }

  /** The strings under `key`, in the order they came: a copy, so the set may change while it is read. */
  values(key: string): string[] {
    const set = this.sets.get(key);
    return set === undefined ? [] : typeof set === 'string' ? [set] : [...set];
  }

  /** Every key with its strings (copies, as `values` gives them). */
  *entries(): IterableIterator<[string, string[]]> {
    for (const [key, set] of this.sets) yield [key, typeof set === 'string' ? [set] : [...set]];
  }

  clear(): void {
    this.sets.clear();
  }
}
