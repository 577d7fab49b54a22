// Reading an object's own data properties and prototypes, never calling an accessor.

import { descriptorOf, getPrototypeOf, hasOwn, objectPrototype } from './builtIns';

const MAX_PROTOTYPE_CHAIN = 32;

export type OwnRead =
  | { kind: 'data'; value: unknown; enumerable: boolean }
  | { kind: 'accessor'; hasGetter: boolean; getter: unknown; enumerable: boolean }
  | { kind: 'missing' }
  | { kind: 'unreadable' };

export function readOwn(object: object, key: string): OwnRead {
  try {
    const descriptor = descriptorOf(object, key);
    if (!descriptor) return { kind: 'missing' };
    const enumerable = descriptor.enumerable === true;
    if (hasOwn(descriptor, 'value')) return { kind: 'data', value: descriptor.value, enumerable };
    return { kind: 'accessor', hasGetter: descriptor.get !== undefined, getter: descriptor.get, enumerable };
  } catch {
    return { kind: 'unreadable' };
  }
}

/** A data property found on the object or its prototypes (e.g. an error's `name`); accessors are not followed. */
export function readInherited(object: object, key: string, chain: readonly object[]): OwnRead {
  for (const holder of [object, ...chain]) {
    const read = readOwn(holder, key);
    if (read.kind !== 'missing') return read;
  }
  return { kind: 'missing' };
}

export function prototypeChain(object: object): object[] {
  const chain: object[] = [];
  let current: object = object;
  try {
    while (chain.length < MAX_PROTOTYPE_CHAIN) {
      const next = getPrototypeOf(current) as object | null;
      if (next === null) break;
      chain.push(next);
      current = next;
    }
  } catch {
    // A Proxy's getPrototypeOf trap threw: judge the object by what is known so far.
  }
  return chain;
}

export function functionName(fn: object): string {
  const read = readOwn(fn, 'name');
  return read.kind === 'data' && typeof read.value === 'string' ? read.value : '';
}

/** The name of the class an object was made by, from its prototype's own `constructor` data property. */
export function className(prototype: object | undefined): string | undefined {
  if (prototype === undefined || prototype === objectPrototype) return undefined;
  const constructor = readOwn(prototype, 'constructor');
  if (constructor.kind !== 'data' || typeof constructor.value !== 'function') return undefined;
  const name = functionName(constructor.value);
  return name === '' || name === 'Object' ? undefined : name;
}
