/** Plain JSON data: what `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

type JsonObject = { [key: string]: JsonValue };

/** How much of a value {@link toJsonSafe} keeps; every cut is described in the result. */
export interface JsonSafeLimits {
  /** Longest string kept, in UTF-16 code units (a surrogate pair is never split). Default 20 000. */
  maxStringLength: number;
  /** Most items kept of an array, a `Map` or a `Set`; the first ones are kept. Default 1000. */
  maxArrayLength: number;
  /** Most levels of nested arrays, objects, maps, sets and errors; deeper ones become `"[Object]"`-like strings. Default 20. */
  maxDepth: number;
  /** Most properties kept of one object, in property order. Default 1000. */
  maxKeys: number;
  /** Rough cap on the length of `JSON.stringify(result.value)`; what comes after is left out. Default 200 000. */
  maxTotalChars: number;
}

/** The limits {@link toJsonSafe} uses for any field not given. */
export const DEFAULT_JSON_SAFE_LIMITS: Readonly<JsonSafeLimits> = Object.freeze({
  maxStringLength: 20_000,
  maxArrayLength: 1000,
  maxDepth: 20,
  maxKeys: 1000,
  maxTotalChars: 200_000,
});

/** The converted value, and one human-readable note per cut (`"value.items: array of 5000 items cut to 1000"`). */
export interface JsonSafeResult {
  value: JsonValue;
  truncated: string[];
}

const MAX_NOTES = 20;
const MAX_STACK_CHARS = 2000;
const MAX_PROTOTYPE_CHAIN = 32;

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

/**
 * Formats console arguments the way a log line shows them (strings as is, other values as compact
 * JSON-safe text), capped.
 *
 * Top-level strings are written as they are; numbers, booleans, `null` and `undefined` as words;
 * bigints as `123n`; values that {@link toJsonSafe} turns into a string (functions, dates, …) as
 * that string; arrays and objects as compact JSON, converted with an output budget of the room left
 * on the line. Arguments are joined by spaces. A line longer than `maxChars`, or one whose objects
 * had to be cut, ends with `… [N more characters]` (or `… [truncated]` when N is not known) and stays
 * within `maxChars` in all.
 */
export function formatLogArguments(args: readonly unknown[], maxChars: number): string {
  const cap = Math.max(0, Math.floor(maxChars));
  let line = ''; // never longer than cap + 1, enough to know whether the cap was passed
  let omitted = 0; // characters known to be left out after `line`
  let exact = true; // false once an object's text was cut, so `omitted` is a lower bound
  args.forEach((arg, index) => {
    const room = cap + 1 - line.length;
    const piece = formatLogArgument(arg, room);
    const text = (index > 0 ? ' ' : '') + piece.text;
    const take = Math.max(0, Math.min(text.length, room));
    line += text.slice(0, take);
    omitted += text.length - take;
    if (!piece.complete) exact = false;
  });
  if (line.length <= cap && omitted === 0 && exact) return line;
  const marker = (kept: number): string => (exact ? `… [${line.length + omitted - kept} more characters]` : '… [truncated]');
  for (let kept = Math.min(line.length, cap); kept >= 0; kept--) {
    const at = cutPoint(line, kept);
    const withMarker = line.slice(0, at) + marker(at);
    if (withMarker.length <= cap) return withMarker;
  }
  return line.slice(0, cutPoint(line, cap)); // too short a cap for the marker
}

/** One argument as a log line shows it; an object's text is built for about `room` characters. */
function formatLogArgument(arg: unknown, room: number): { text: string; complete: boolean } {
  switch (typeof arg) {
    case 'string':
      return { text: arg, complete: true };
    case 'number':
    case 'boolean':
    case 'undefined':
      return { text: String(arg), complete: true };
    case 'bigint':
      return { text: `${arg}n`, complete: true };
    default: {
      if (arg === null) return { text: 'null', complete: true };
      if (room <= 0) return { text: '', complete: false };
      const { value, truncated } = toJsonSafe(arg, { maxTotalChars: Math.min(room, DEFAULT_JSON_SAFE_LIMITS.maxTotalChars) });
      return { text: typeof value === 'string' ? value : JSON.stringify(value), complete: truncated.length === 0 };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Built-ins, captured once so later changes to their prototypes cannot redirect the calls.

const { apply } = Reflect;
const ownKeys = Reflect.ownKeys;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const getPrototypeOf = Object.getPrototypeOf;
const defineProperty = Object.defineProperty;
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const objectPrototype = Object.prototype;
const errorPrototype = Error.prototype;
const promisePrototype = Promise.prototype;

type Method = (...args: never[]) => unknown;

/** A property descriptor with its accessors as plain fields, never called through the descriptor. */
interface Descriptor {
  value?: unknown;
  get?: unknown;
  set?: unknown;
  enumerable?: boolean;
}

function descriptorOf(object: object, key: PropertyKey): Descriptor | undefined {
  return getOwnPropertyDescriptor(object, key);
}

function getterOf(prototype: object, name: PropertyKey): Method | undefined {
  return descriptorOf(prototype, name)?.get as Method | undefined;
}

function methodOf(prototype: object, name: PropertyKey): Method {
  return descriptorOf(prototype, name)?.value as Method;
}

const dateGetTime = methodOf(Date.prototype, 'getTime');
const dateToISOString = methodOf(Date.prototype, 'toISOString');
const regExpSource = getterOf(RegExp.prototype, 'source');
const regExpFlags: Array<[Method, string]> = [
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
const mapSize = getterOf(Map.prototype, 'size');
const mapEntries = methodOf(Map.prototype, 'entries');
const mapIteratorNext = methodOf(getPrototypeOf(new Map().entries()) as object, 'next');
const setSize = getterOf(Set.prototype, 'size');
const setValues = methodOf(Set.prototype, 'values');
const setIteratorNext = methodOf(getPrototypeOf(new Set().values()) as object, 'next');
const typedArrayPrototype = getPrototypeOf(Uint8Array.prototype) as object;
const typedArrayTag = getterOf(typedArrayPrototype, Symbol.toStringTag);
const typedArrayLength = getterOf(typedArrayPrototype, 'length');
const arrayBufferByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
// Browsers leave SharedArrayBuffer out of pages and workers that are not cross-origin isolated.
const sharedArrayBufferByteLength =
  typeof SharedArrayBuffer === 'undefined' ? undefined : getterOf(SharedArrayBuffer.prototype, 'byteLength');
const dataViewByteLength = getterOf(DataView.prototype, 'byteLength');
const weakMapHas = methodOf(WeakMap.prototype, 'has');
const weakSetHas = methodOf(WeakSet.prototype, 'has');
const weakRefDeref = typeof WeakRef === 'undefined' ? undefined : methodOf(WeakRef.prototype, 'deref');

/** Calls a captured built-in; `undefined` when it throws (the brand check failed). */
function tryCall(method: Method | undefined, self: unknown, args: unknown[] = []): { result: unknown } | undefined {
  if (!method) return undefined;
  try {
    return { result: apply(method, self, args) as unknown };
  } catch {
    return undefined;
  }
}

type OwnRead =
  | { kind: 'data'; value: unknown; enumerable: boolean }
  | { kind: 'accessor'; hasGetter: boolean; getter: unknown; enumerable: boolean }
  | { kind: 'missing' }
  | { kind: 'unreadable' };

function readOwn(object: object, key: string): OwnRead {
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
function readInherited(object: object, key: string, chain: readonly object[]): OwnRead {
  for (const holder of [object, ...chain]) {
    const read = readOwn(holder, key);
    if (read.kind !== 'missing') return read;
  }
  return { kind: 'missing' };
}

function prototypeChain(object: object): object[] {
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

function functionName(fn: object): string {
  const read = readOwn(fn, 'name');
  return read.kind === 'data' && typeof read.value === 'string' ? read.value : '';
}

/** The name of the class an object was made by, from its prototype's own `constructor` data property. */
function className(prototype: object | undefined): string | undefined {
  if (prototype === undefined || prototype === objectPrototype) return undefined;
  const constructor = readOwn(prototype, 'constructor');
  if (constructor.kind !== 'data' || typeof constructor.value !== 'function') return undefined;
  const name = functionName(constructor.value);
  return name === '' || name === 'Object' ? undefined : name;
}

/** The summary string of a built-in object without JSON children, recognised by brand checks. */
function describeBuiltInLeaf(object: object, chain: readonly object[]): string | undefined {
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

/** Up to `max` items of a Map (as `[key, value]` pairs) or a Set, read with the built-in iterators. */
function iterate(object: object, start: Method, next: Method, max: number): unknown[] {
  const items: unknown[] = [];
  const iterator = apply(start, object, []) as unknown;
  while (items.length < max) {
    const step = apply(next, iterator, []) as IteratorResult<unknown>;
    if (step.done === true) break;
    items.push(step.value);
  }
  return items;
}

function cutString(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

function cutPoint(text: string, at: number): number {
  const last = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && last >= 0xd800 && last <= 0xdbff ? at - 1 : at;
}

function jsonCost(value: JsonValue): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (value === null) return 4;
  return 2;
}

// ---------------------------------------------------------------------------------------------
// The walk

/** Where a converted value goes: `holder[key]`, or the end of `holder` when it is an array. */
interface Slot {
  holder: JsonValue[] | JsonObject;
  key: string | number;
}

/** A path segment, formatted only when a note needs it. */
interface Path {
  parent: Where;
  key: string | number;
}

/** `undefined` is the value itself. */
type Where = Path | undefined;

type Task =
  | { kind: 'value'; value: unknown; depth: number; path: Where; slot: Slot; maxLength?: number }
  | { kind: 'json'; value: JsonValue; path: Where; slot: Slot }
  | { kind: 'pair'; key: unknown; value: unknown; depth: number; path: Where; slot: Slot }
  | { kind: 'exit'; object: object };

type ValueTask = Extract<Task, { kind: 'value' }>;

function formatPath(path: Where): string {
  const keys: Array<string | number> = [];
  for (let node = path; node; node = node.parent) keys.push(node.key);
  let text = 'value';
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string | number;
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) text += `.${key}`;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}

class Conversion {
  private readonly notes: string[] = [];
  private unlistedNotes = 0;
  private readonly stack: Task[] = [];
  /** The objects being converted on the current path, to tell a cycle from a shared reference. */
  private readonly active = new Set<object>();
  private used = 0;
  private exhausted = false;

  constructor(private readonly limits: JsonSafeLimits) {}

  run(value: unknown): JsonSafeResult {
    const root: JsonValue[] = [];
    this.stack.push({ kind: 'value', value, depth: 0, path: undefined, slot: { holder: root, key: 0 } });
    while (!this.exhausted) {
      const task = this.stack.pop();
      if (!task) break;
      if (task.kind === 'exit') this.active.delete(task.object);
      else if (task.kind === 'json') this.put(task.slot, task.path, task.value);
      else if (task.kind === 'pair') this.visitPair(task);
      else this.visit(task);
    }
    if (this.unlistedNotes > 0) this.notes.push(`and ${this.unlistedNotes} more cuts`);
    return { value: root[0] ?? null, truncated: this.notes };
  }

  private note(path: Where, text: string): void {
    if (this.notes.length < MAX_NOTES) this.notes.push(`${formatPath(path)}: ${text}`);
    else this.unlistedNotes++;
  }

  /** Places a value, or as much of a string as fits; false once the output limit is reached. */
  private put(slot: Slot, path: Where, value: JsonValue): boolean {
    const keyCost = isArray(slot.holder) ? 1 : String(slot.key).length + 4;
    const room = this.limits.maxTotalChars - this.used - keyCost;
    if (jsonCost(value) > room) {
      this.exhausted = true;
      if (typeof value === 'string' && room > 2) {
        this.assign(slot, cutString(value, room - 2));
        this.note(path, `output limit of ${this.limits.maxTotalChars} characters reached: string cut to ${room - 2} characters and everything after it left out`);
      } else {
        this.note(path, `output limit of ${this.limits.maxTotalChars} characters reached: this and everything after it left out`);
      }
      return false;
    }
    this.used += keyCost + jsonCost(value);
    this.assign(slot, value);
    return true;
  }

  private assign(slot: Slot, value: JsonValue): void {
    if (isArray(slot.holder)) slot.holder.push(value);
    // defineProperty, so a key named `__proto__` stays an ordinary key.
    else defineProperty(slot.holder, slot.key, { value, enumerable: true, writable: true, configurable: true });
  }

  private child(value: unknown, depth: number, path: Where, slot: Slot, maxLength?: number): ValueTask {
    return { kind: 'value', value, depth, path, slot, maxLength };
  }

  private visit(task: ValueTask): void {
    const { value, path, slot } = task;
    switch (typeof value) {
      case 'string': {
        const max = Math.min(task.maxLength ?? Infinity, this.limits.maxStringLength);
        if (value.length > max) this.note(path, `string of ${value.length} characters cut to ${max}`);
        this.put(slot, path, cutString(value, max));
        return;
      }
      case 'number':
        this.put(slot, path, Number.isFinite(value) ? value + 0 : String(value));
        return;
      case 'boolean':
        this.put(slot, path, value);
        return;
      case 'bigint':
        this.put(slot, path, `${value}n`);
        return;
      case 'symbol':
        this.put(slot, path, value.description === undefined ? '[Symbol]' : `[Symbol ${value.description}]`);
        return;
      case 'undefined':
        if (isArray(slot.holder)) this.put(slot, path, null);
        return;
      case 'function': {
        const name = functionName(value);
        this.put(slot, path, name === '' ? '[Function]' : `[Function ${name}]`);
        return;
      }
      default:
        if (value === null) this.put(slot, path, null);
        else this.visitObject(value as object, task);
    }
  }

  private visitObject(object: object, task: ValueTask): void {
    const { depth, path, slot } = task;
    if (this.active.has(object)) {
      this.put(slot, path, '[Circular]');
      return;
    }
    let array: boolean;
    try {
      array = isArray(object);
    } catch {
      this.put(slot, path, '[Unreadable]'); // a revoked Proxy
      return;
    }
    const chain = array ? [] : prototypeChain(object);
    const leaf = array ? undefined : describeBuiltInLeaf(object, chain);
    if (leaf !== undefined) {
      this.put(slot, path, leaf);
      return;
    }
    const map = array ? undefined : tryCall(mapSize, object);
    const set = array || map ? undefined : tryCall(setSize, object);
    const error = !array && !map && !set && chain.includes(errorPrototype);
    const kind = array ? 'Array' : map ? 'Map' : set ? 'Set' : error ? 'Error' : 'Object';
    if (depth >= this.limits.maxDepth) {
      this.note(path, `nested deeper than ${this.limits.maxDepth} levels: replaced by "[${kind}]"`);
      this.put(slot, path, `[${kind}]`);
      return;
    }

    let children: Task[] | undefined;
    let container: JsonValue[] | JsonObject;
    if (array) {
      container = [];
      children = this.arrayChildren(object as unknown[], depth, path, container);
    } else if (map || set) {
      container = {};
      children = this.collectionChildren(object, map ? 'Map' : 'Set', Number(map?.result ?? set?.result), depth, path, container);
    } else {
      container = {};
      children = this.objectChildren(object, error ? chain : undefined, className(chain[0]), depth, path, container);
    }
    if (!children) {
      this.put(slot, path, '[Unreadable]');
      return;
    }
    if (!this.put(slot, path, container)) return;
    this.active.add(object);
    this.stack.push({ kind: 'exit', object });
    for (let i = children.length - 1; i >= 0; i--) this.stack.push(children[i] as Task);
  }

  private arrayChildren(array: unknown[], depth: number, path: Where, container: JsonValue[]): Task[] | undefined {
    const lengthRead = readOwn(array, 'length');
    if (lengthRead.kind !== 'data' || typeof lengthRead.value !== 'number') return undefined;
    const length = lengthRead.value;
    const count = Math.min(length, this.limits.maxArrayLength);
    if (length > count) this.note(path, `array of ${length} items cut to ${count}`);
    const children: Task[] = [];
    for (let i = 0; i < count; i++) {
      const itemPath: Path = { parent: path, key: i };
      const slot: Slot = { holder: container, key: i };
      const read = readOwn(array, String(i));
      children.push(this.propertyTask(read, depth, itemPath, slot) ?? { kind: 'json', value: null, path: itemPath, slot });
    }
    return children;
  }

  private collectionChildren(
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
          ? iterate(collection, mapEntries, mapIteratorNext, this.limits.maxArrayLength)
          : iterate(collection, setValues, setIteratorNext, this.limits.maxArrayLength);
    } catch {
      return undefined;
    }
    if (size > items.length) this.note(path, `${kind} of ${size} entries cut to ${items.length}`);
    const key = `[${kind}]`;
    const list: JsonValue[] = [];
    const listPath: Path = { parent: path, key };
    const children: Task[] = [{ kind: 'json', value: list, path: listPath, slot: { holder: container, key } }];
    items.forEach((item, index) => {
      const itemPath: Path = { parent: listPath, key: index };
      const slot: Slot = { holder: list, key: index };
      if (kind === 'Set') children.push(this.child(item, depth + 1, itemPath, slot));
      else {
        const [entryKey, entryValue] = item as [unknown, unknown];
        children.push({ kind: 'pair', key: entryKey, value: entryValue, depth: depth + 1, path: itemPath, slot });
      }
    });
    return children;
  }

  private visitPair(task: Extract<Task, { kind: 'pair' }>): void {
    const pair: JsonValue[] = [];
    if (!this.put(task.slot, task.path, pair)) return;
    this.stack.push(this.child(task.value, task.depth, { parent: task.path, key: 1 }, { holder: pair, key: 1 }));
    this.stack.push(this.child(task.key, task.depth, { parent: task.path, key: 0 }, { holder: pair, key: 0 }));
  }

  /**
   * An object's own enumerable string-keyed properties; for an error (`errorChain` given) its
   * `name`, `message`, `stack` and `cause` first.
   */
  private objectChildren(
    object: object,
    errorChain: readonly object[] | undefined,
    ofClass: string | undefined,
    depth: number,
    path: Where,
    container: JsonObject,
  ): Task[] | undefined {
    let keys: Array<string | symbol>;
    try {
      keys = ownKeys(object);
    } catch {
      return undefined;
    }
    const children: Task[] = [];
    const taken = new Set<string>();
    const add = (key: string, task: (path: Path, slot: Slot) => Task | undefined): void => {
      const made = task({ parent: path, key }, { holder: container, key });
      if (made) {
        children.push(made);
        taken.add(key);
      }
    };
    if (errorChain) {
      const name = readInherited(object, 'name', errorChain);
      add('name', (p, s) => ({ kind: 'json', value: name.kind === 'data' && typeof name.value === 'string' ? name.value : 'Error', path: p, slot: s }));
      const message = readInherited(object, 'message', errorChain);
      if (message.kind === 'data' && typeof message.value === 'string') add('message', (p, s) => this.child(message.value, depth + 1, p, s));
      const stack = this.errorStack(object, errorChain);
      if (stack) add('stack', (p, s) => this.child(stack, depth + 1, p, s, MAX_STACK_CHARS));
      const cause = readOwn(object, 'cause');
      if (cause.kind === 'data') add('cause', (p, s) => this.child(cause.value, depth + 1, p, s));
    } else if (ofClass !== undefined) {
      add('[Class]', (p, s) => ({ kind: 'json', value: ofClass, path: p, slot: s }));
    }

    let kept = 0;
    let stringKeys = 0;
    for (const key of keys) {
      if (typeof key !== 'string') continue;
      stringKeys++;
      if (kept >= this.limits.maxKeys || taken.has(key)) continue;
      const read = readOwn(object, key);
      if ((read.kind === 'data' || read.kind === 'accessor') && !read.enumerable) continue;
      if (read.kind === 'missing') continue;
      kept++;
      add(key, (p, s) => this.propertyTask(read, depth, p, s));
    }
    if (kept >= this.limits.maxKeys && stringKeys > kept) this.note(path, `object with ${stringKeys} keys cut to ${kept}`);
    return children;
  }

  /** The task for a property read; `undefined` for a missing property. */
  private propertyTask(read: OwnRead, depth: number, path: Where, slot: Slot): Task | undefined {
    switch (read.kind) {
      case 'data':
        return this.child(read.value, depth + 1, path, slot);
      case 'accessor':
        return { kind: 'json', value: read.hasGetter ? '[Getter]' : '[Setter]', path, slot };
      case 'unreadable':
        return { kind: 'json', value: '[Unreadable]', path, slot };
      case 'missing':
        return undefined;
    }
  }

  /**
   * An error's stack: an own (or inherited) data property, or the value of the `stack` accessor
   * this realm's `Error.prototype` defines (SES installs one); no other getter is called.
   */
  private errorStack(error: object, chain: readonly object[]): string | undefined {
    const read = readInherited(error, 'stack', chain);
    if (read.kind === 'data') return typeof read.value === 'string' ? read.value : undefined;
    if (read.kind !== 'accessor') return undefined;
    const trusted = getterOf(errorPrototype, 'stack');
    if (trusted === undefined || read.getter !== trusted) return undefined;
    const stack = tryCall(trusted, error)?.result;
    return typeof stack === 'string' ? stack : undefined;
  }
}
