// The child tasks of an array, a Map or a Set.

import { iterate, mapEntries, mapIteratorNext, setIteratorNext, setValues } from './builtIns';
import type { JsonOutput } from './output';
import { readOwn } from './ownProperties';
import type { Path, Where } from './paths';
import { propertyTask, valueTask, type Slot, type Task } from './tasks';
import type { JsonObject, JsonValue } from './types';

/** An array's first items, read as own properties; `undefined` when its length cannot be read. */
export function arrayChildren(output: JsonOutput, array: unknown[], depth: number, path: Where, container: JsonValue[]): Task[] | undefined {
  const lengthRead = readOwn(array, 'length');
  if (lengthRead.kind !== 'data' || typeof lengthRead.value !== 'number') return undefined;
  const length = lengthRead.value;
  const count = Math.min(length, output.limits.maxArrayLength);
  if (length > count) output.note(path, `array of ${length} items cut to ${count}`);
  const children: Task[] = [];
  for (let i = 0; i < count; i++) {
    const itemPath: Path = { parent: path, key: i };
    const slot: Slot = { holder: container, key: i };
    const read = readOwn(array, String(i));
    children.push(propertyTask(read, depth, itemPath, slot) ?? { kind: 'json', value: null, path: itemPath, slot });
  }
  return children;
}

/**
 * A Map's first entries (as `[key, value]` pairs) or a Set's first items, listed under `"[Map]"` or
 * `"[Set]"`; `undefined` when the built-in iterator throws.
 */
export function collectionChildren(
  output: JsonOutput,
  collection: object,
  kind: 'Map' | 'Set',
  size: number,
  depth: number,
  path: Where,
  container: JsonObject,
): Task[] | undefined {
  let items: unknown[];
  try {
    items =
      kind === 'Map'
        ? iterate(collection, mapEntries, mapIteratorNext, output.limits.maxArrayLength)
        : iterate(collection, setValues, setIteratorNext, output.limits.maxArrayLength);
  } catch {
    return undefined;
  }
  if (size > items.length) output.note(path, `${kind} of ${size} entries cut to ${items.length}`);
  const key = `[${kind}]`;
  const list: JsonValue[] = [];
  const listPath: Path = { parent: path, key };
  const children: Task[] = [{ kind: 'json', value: list, path: listPath, slot: { holder: container, key } }];
  items.forEach((item, index) => {
    const itemPath: Path = { parent: listPath, key: index };
    const slot: Slot = { holder: list, key: index };
    if (kind === 'Set') children.push(valueTask(item, depth + 1, itemPath, slot));
    else {
      const [entryKey, entryValue] = item as [unknown, unknown];
      children.push({ kind: 'pair', key: entryKey, value: entryValue, depth: depth + 1, path: itemPath, slot });
    }
  });
  return children;
}
