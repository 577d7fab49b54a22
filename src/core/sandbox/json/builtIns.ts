// Built-ins, captured once so later changes to their prototypes cannot redirect the calls.

export const { apply } = Reflect;
export const ownKeys = Reflect.ownKeys;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
export const getPrototypeOf = Object.getPrototypeOf;
export const defineProperty = Object.defineProperty;
export const hasOwn = Object.hasOwn;
export const isArray = Array.isArray;
export const objectPrototype = Object.prototype;
export const errorPrototype = Error.prototype;
export const promisePrototype = Promise.prototype;

export type Method = (...args: never[]) => unknown;

/** A property descriptor with its accessors as plain fields, never called through the descriptor. */
export interface Descriptor {
  value?: unknown;
  get?: unknown;
  set?: unknown;
  enumerable?: boolean;
}

export function descriptorOf(object: object, key: PropertyKey): Descriptor | undefined {
  return getOwnPropertyDescriptor(object, key);
}

export function getterOf(prototype: object, name: PropertyKey): Method | undefined {
  return descriptorOf(prototype, name)?.get as Method | undefined;
}

function methodOf(prototype: object, name: PropertyKey): Method {
  return descriptorOf(prototype, name)?.value as Method;
}

export const dateGetTime = methodOf(Date.prototype, 'getTime');
export const dateToISOString = methodOf(Date.prototype, 'toISOString');
export const regExpSource = getterOf(RegExp.prototype, 'source');
export const regExpFlags: Array<[Method, string]> = [
  ['hasIndices', 'd'],
  ['global', 'g'],
  ['ignoreCase', 'i'],
  ['multiline', 'm'],
  ['dotAll', 's'],
  ['unicode', 'u'],
  ['unicodeSets', 'v'],
  ['sticky', 'y'],
].flatMap(([name, flag]) => {
  const getter = getterOf(RegExp.prototype, name as string);
  return getter ? [[getter, flag as string] as [Method, string]] : [];
});
export const mapSize = getterOf(Map.prototype, 'size');
export const mapEntries = methodOf(Map.prototype, 'entries');
export const mapIteratorNext = methodOf(getPrototypeOf(new Map().entries()) as object, 'next');
export const setSize = getterOf(Set.prototype, 'size');
export const setValues = methodOf(Set.prototype, 'values');
export const setIteratorNext = methodOf(getPrototypeOf(new Set().values()) as object, 'next');
const typedArrayPrototype = getPrototypeOf(Uint8Array.prototype) as object;
export const typedArrayTag = getterOf(typedArrayPrototype, Symbol.toStringTag);
export const typedArrayLength = getterOf(typedArrayPrototype, 'length');
export const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
// Browsers leave SharedArrayBuffer out of pages and workers that are not cross-origin isolated.
export const sharedArrayBufferByteLength =
  typeof SharedArrayBuffer === 'undefined' ? undefined : getterOf(SharedArrayBuffer.prototype, 'byteLength');
export const dataViewByteLength = getterOf(DataView.prototype, 'byteLength');
export const weakMapHas = methodOf(WeakMap.prototype, 'has');
export const weakSetHas = methodOf(WeakSet.prototype, 'has');
export const weakRefDeref = typeof WeakRef === 'undefined' ? undefined : methodOf(WeakRef.prototype, 'deref');

/** Calls a captured built-in; `undefined` when it throws (the brand check failed). */
export function tryCall(method: Method | undefined, self: unknown, args: unknown[] = []): { result: unknown } | undefined {
  if (!method) return undefined;
  try {
    return { result: apply(method, self, args) as unknown };
  } catch {
    return undefined;
  }
}

/** Up to `max` items of a Map (as `[key, value]` pairs) or a Set, read with the built-in iterators. */
export function iterate(object: object, start: Method, next: Method, max: number): unknown[] {
  const items: unknown[] = [];
  const iterator = apply(start, object, []) as unknown;
  while (items.length < max) {
    const step = apply(next, iterator, []) as IteratorResult<unknown>;
    if (step.done === true) break;
    items.push(step.value);
  }
  return items;
}
