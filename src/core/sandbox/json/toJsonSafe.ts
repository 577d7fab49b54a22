import { Conversion } from './conversion';
import { DEFAULT_JSON_SAFE_LIMITS, type JsonSafeLimits, type JsonSafeResult } from './types';

/**
 * Turns any value into plain JSON data without ever running code the value controls beyond reading
 * own data properties.
 *
 * What becomes what:
 * - strings, booleans, `null` and finite numbers stay (`-0` becomes `0`); `NaN`, `Infinity` and
 *   `-Infinity` become those words as strings; a bigint becomes `"123n"`;
 * - `undefined` is left out of objects, like `JSON.stringify` does, and becomes `null` in arrays (so
 *   indices keep their meaning), for an array hole, and at the top level;
 * - a function becomes `"[Function name]"` (`"[Function]"` without a name), a symbol
 *   `"[Symbol description]"` (`"[Symbol]"`), a promise `"[Promise]"`, a regular expression its
 *   `"/source/flags"`, a `Date` its ISO string (`"Invalid Date"`), typed arrays, `ArrayBuffer`,
 *   `DataView` a summary such as `"[Uint8Array(16)]"`, `WeakMap`/`WeakSet`/`WeakRef` their name in
 *   brackets;
 * - an error becomes `{ name, message, stack?, cause?, ...its own enumerable properties }`, the
 *   stack (left out when empty, as SES makes it) cut to 2000 characters;
 * - a `Map` becomes `{ "[Map]": [[key, value], ...] }`, a `Set` `{ "[Set]": [...] }`;
 * - any other object its own enumerable string-keyed data properties, after a `"[Class]": "Name"`
 *   entry when its prototype is neither `Object.prototype` nor `null` and names a constructor;
 *   symbol keys and an array's non-index properties are left out;
 * - an accessor property becomes `"[Getter]"` (or `"[Setter]"`) and is never called; a property
 *   or object whose read throws (a hostile Proxy) becomes `"[Unreadable]"`; an object met again
 *   inside itself becomes `"[Circular]"` (one met twice side by side is repeated).
 *
 * Safety: only own property descriptors are read (`Reflect.ownKeys`, `Object.getOwnPropertyDescriptor`),
 * every read in a try/catch; built-in types are recognised by calling the built-in methods and
 * getters captured when this module loaded, or by comparing prototypes, never by `instanceof`,
 * `Object.prototype.toString` or anything the value could override; `toJSON`, `toString`,
 * `valueOf`, `Symbol.toPrimitive` and `then` are never called. A Proxy's traps may still run (no
 * code can tell a Proxy from its target), but whatever they throw is caught. The walk uses its own
 * stack, so nesting of any depth is safe, and stops at the limits.
 *
 * @example
 * toJsonSafe({ n: NaN, when: new Date(0), tags: new Set(['a']) }).value
 * // → { n: 'NaN', when: '1970-01-01T00:00:00.000Z', tags: { '[Set]': ['a'] } }
 */
export function toJsonSafe(value: unknown, limits?: Partial<JsonSafeLimits>): JsonSafeResult {
  const merged: JsonSafeLimits = { ...DEFAULT_JSON_SAFE_LIMITS };
  for (const name of Object.keys(merged) as Array<keyof JsonSafeLimits>) {
    const given = limits?.[name];
    if (typeof given === 'number' && given >= 0) merged[name] = given;
  }
  return new Conversion(merged).run(value);
}
