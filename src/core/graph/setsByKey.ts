import { StringSet } from '../util/StringMap';

/** Adds `value` to the set under `key`, making the set on first use. */
export function addToSet(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new StringSet([value]));
  else set.add(value);
}

/** Takes `value` out of the set under `key`, and the set out of the map once empty. */
export function removeFromSet(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
