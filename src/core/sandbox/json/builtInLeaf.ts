// Summaries of built-in objects that have no JSON children (dates, regular expressions, buffers, …).

import {
  arrayBufferByteLength,
  dataViewByteLength,
  dateGetTime,
  dateToISOString,
  objectPrototype,
  promisePrototype,
  regExpFlags,
  regExpSource,
  sharedArrayBufferByteLength,
  tryCall,
  typedArrayLength,
  typedArrayTag,
  weakMapHas,
  weakRefDeref,
  weakSetHas,
} from './builtIns';

/** The summary string of a built-in object without JSON children, recognised by brand checks. */
export function describeBuiltInLeaf(object: object, chain: readonly object[]): string | undefined {
  const time = tryCall(dateGetTime, object);
  if (time) {
    if (typeof time.result !== 'number' || Number.isNaN(time.result)) return 'Invalid Date';
    const iso = tryCall(dateToISOString, object);
    return typeof iso?.result === 'string' ? iso.result : 'Invalid Date';
  }
  const source = tryCall(regExpSource, object);
  if (source && typeof source.result === 'string') {
    const flags = regExpFlags.map(([getter, flag]) => (tryCall(getter, object)?.result === true ? flag : '')).join('');
    return `/${source.result}/${flags}`;
  }
  const tag = tryCall(typedArrayTag, object);
  if (tag && typeof tag.result === 'string') {
    const length = tryCall(typedArrayLength, object)?.result;
    return `[${tag.result}(${typeof length === 'number' ? length : '?'})]`;
  }
  for (const [getter, name] of [
    [arrayBufferByteLength, 'ArrayBuffer'],
    [sharedArrayBufferByteLength, 'SharedArrayBuffer'],
    [dataViewByteLength, 'DataView'],
  ] as const) {
    const byteLength = tryCall(getter, object);
    if (byteLength && typeof byteLength.result === 'number') return `[${name}(${byteLength.result})]`;
  }
  if (tryCall(weakMapHas, object, [objectPrototype])) return '[WeakMap]';
  if (tryCall(weakSetHas, object, [objectPrototype])) return '[WeakSet]';
  if (tryCall(weakRefDeref, object)) return '[WeakRef]';
  if (chain.includes(promisePrototype)) return '[Promise]';
  return undefined;
}
