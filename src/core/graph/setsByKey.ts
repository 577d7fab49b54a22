/**
 * Adds `value` to the set under `key`, making the set on first use: a `Set` by default, which is
 * right for paths (the app keeps every path as a key of its own, so a `Set` of them adds nothing
 * to V8's string table), or `kind` (a `StringSet`) for strings notes make up.
 */
export function addToSet(map: Map<string, Set<string>>, key: string, value: string, kind: new (values: readonly string[]) => Set<string> = Set): void {
  const set = map.get(key);
  if (set === undefined) map.set(key, new kind([value]));
  else set.add(value);
}

/** Takes `value` out of the set under `key`, and the set out of the map once empty. */
export function removeFromSet(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
