// Telling what kind of object a value is, by brand checks and prototypes, never by `instanceof`.

import { describeBuiltInLeaf } from './builtInLeaf';
import { errorPrototype, isArray, mapSize, setSize, tryCall } from './builtIns';
import { prototypeChain } from './ownProperties';

/**
 * What an object is, as far as the walk cares: a leaf (written as one string), or a container of
 * the given kind; errors and plain objects carry their prototype chain.
 */
export type ObjectKind =
  | { kind: 'leaf'; text: string }
  | { kind: 'Array' }
  | { kind: 'Map'; size: number }
  | { kind: 'Set'; size: number }
  | { kind: 'Error'; chain: object[] }
  | { kind: 'Object'; chain: object[] };

export function classifyObject(object: object): ObjectKind {
  let array: boolean;
  try {
    array = isArray(object);
  } catch {
    return { kind: 'leaf', text: '[Unreadable]' }; // a revoked Proxy
  }
  if (array) return { kind: 'Array' };
  const chain = prototypeChain(object);
  const leaf = describeBuiltInLeaf(object, chain);
  if (leaf !== undefined) return { kind: 'leaf', text: leaf };
  const map = tryCall(mapSize, object);
  if (map) return { kind: 'Map', size: Number(map.result) };
  const set = tryCall(setSize, object);
  if (set) return { kind: 'Set', size: Number(set.result) };
  return { kind: chain.includes(errorPrototype) ? 'Error' : 'Object', chain };
}
