import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_JSON_SAFE_LIMITS, formatLogArguments, toJsonSafe, type JsonValue } from '../../../../src/core/sandbox/jsonSafe';

function convert(value: unknown): JsonValue {
  return toJsonSafe(value).value;
}

/** How many arrays are nested inside each other, following the first item. */
function arrayDepth(value: JsonValue): number {
  let depth = 0;
  for (let current: JsonValue | undefined = value; Array.isArray(current); current = current[0]) depth++;
  return depth;
}

describe('toJsonSafe', () => {
  describe('when the value is JSON data', () => {
    it('returns the same data, as JSON.parse(JSON.stringify(value)) would', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const result = toJsonSafe(value);
          expect(result.value).toStrictEqual(JSON.parse(JSON.stringify(value)));
          expect(result.truncated).toEqual([]);
        }),
        { seed: 4242, numRuns: 500 },
      );
    });

    it('keeps a key named __proto__ as an ordinary own key', () => {
      const value = toJsonSafe(JSON.parse('{"__proto__": {"x": 1}}')).value as Record<string, JsonValue>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ x: 1 });
    });

    it('turns -0 into 0', () => {
      expect(Object.is(convert(-0), 0)).toBe(true);
    });
  });

  describe('when the value is not JSON data', () => {
    it('writes NaN and the infinities as strings', () => {
      expect(convert([NaN, Infinity, -Infinity])).toEqual(['NaN', 'Infinity', '-Infinity']);
    });

    it('writes a bigint with its n', () => {
      expect(convert({ big: 123n, negative: -5n })).toEqual({ big: '123n', negative: '-5n' });
    });

    it('names symbols and functions', () => {
      const named = function total(): number {
        return 1;
      };
      const anonymous = [(): number => 1][0];
      class Shape {}
      expect(convert([Symbol('tag'), Symbol(), named, anonymous, Shape, Math.max])).toEqual([
        '[Symbol tag]',
        '[Symbol]',
        '[Function total]',
        '[Function]',
        '[Function Shape]',
        '[Function max]',
      ]);
    });

    it('leaves undefined out of objects and writes null for it in arrays, holes and at the top', () => {
      // eslint-disable-next-line no-sparse-arrays -- the hole is the point
      expect(convert({ a: undefined, b: [undefined, , 1] })).toEqual({ b: [null, null, 1] });
      expect(convert(undefined)).toBeNull();
    });

    it('writes dates as ISO strings', () => {
      expect(convert([new Date(0), new Date(NaN)])).toEqual(['1970-01-01T00:00:00.000Z', 'Invalid Date']);
    });

    it('writes regular expressions as their literal', () => {
      expect(convert([/a+b/gi, /x/dsuy])).toEqual(['/a+b/gi', '/x/dsuy']);
    });

    it('summarises binary data, promises and weak collections', () => {
      expect(
        convert([new Uint8Array(16), new Float64Array(3), new ArrayBuffer(8), new DataView(new ArrayBuffer(4)), Promise.resolve(1), new WeakMap(), new WeakSet(), new WeakRef({})]),
      ).toEqual(['[Uint8Array(16)]', '[Float64Array(3)]', '[ArrayBuffer(8)]', '[DataView(4)]', '[Promise]', '[WeakMap]', '[WeakSet]', '[WeakRef]']);
    });

    it('writes errors as name, message, stack, cause and their own enumerable properties', () => {
      const error = Object.assign(new TypeError('bad input', { cause: 'upstream' }), { code: 'InvalidArgument', data: { path: 'a.md' } });
      const value = convert(error) as Record<string, JsonValue>;
      expect(value).toEqual({
        name: 'TypeError',
        message: 'bad input',
        stack: expect.stringMatching(/^TypeError: bad input\n/) as unknown,
        cause: 'upstream',
        code: 'InvalidArgument',
        data: { path: 'a.md' },
      });
    });

    it('uses the name a subclass sets and cuts long stacks', () => {
      class NotFound extends Error {
        override name = 'NotFound';
      }
      const error = new NotFound('gone');
      error.stack = `NotFound: gone\n${'    at somewhere (file.js:1:1)\n'.repeat(200)}`;
      const result = toJsonSafe(error);
      const value = result.value as Record<string, JsonValue>;
      expect(value.name).toBe('NotFound');
      expect(value.message).toBe('gone');
      expect((value.stack as string).length).toBe(2000);
      expect(result.truncated).toEqual([`value.stack: string of ${error.stack.length} characters cut to 2000`]);
    });

    it('writes maps and sets as tagged lists, converting keys and values', () => {
      const key = { id: 1 };
      const value = convert({ map: new Map<unknown, unknown>([['a', 1], [key, new Set([NaN, 'b'])]]), empty: new Set() });
      expect(value).toEqual({ map: { '[Map]': [['a', 1], [{ id: 1 }, { '[Set]': ['NaN', 'b'] }]] }, empty: { '[Set]': [] } });
    });

    it('names the class of an instance and keeps its own data', () => {
      class Point {
        x = 1;
        y = 2;
        get length(): number {
          return 3;
        }
      }
      expect(convert(new Point())).toEqual({ '[Class]': 'Point', x: 1, y: 2 });
      expect(convert(Object.assign(Object.create(null) as object, { a: 1 }))).toEqual({ a: 1 });
    });

    it('leaves out symbol keys and non-enumerable properties', () => {
      const object = { shown: 1, [Symbol('hidden')]: 2 };
      Object.defineProperty(object, 'quiet', { value: 3, enumerable: false });
      expect(convert(object)).toEqual({ shown: 1 });
    });
  });

  describe('when the value refers to itself', () => {
    it('writes [Circular] for a cycle through objects and arrays', () => {
      const object: Record<string, unknown> = { name: 'root' };
      object.self = object;
      object.list = [object, { back: object }];
      expect(convert(object)).toEqual({ name: 'root', self: '[Circular]', list: ['[Circular]', { back: '[Circular]' }] });
    });

    it('writes [Circular] for a cycle through a Map or a Set', () => {
      const map = new Map<string, unknown>();
      const set = new Set<unknown>([map]);
      map.set('set', set);
      map.set('self', map);
      expect(convert(map)).toEqual({ '[Map]': [['set', { '[Set]': ['[Circular]'] }], ['self', '[Circular]']] });
    });

    it('repeats a value shared side by side, which is no cycle', () => {
      const shared = { n: 1 };
      expect(convert([shared, shared])).toEqual([{ n: 1 }, { n: 1 }]);
    });
  });

  describe('when the value is hostile', () => {
    it('reports getters without calling them', () => {
      let calls = 0;
      const object = {
        get secret(): string {
          calls++;
          throw new Error('never');
        },
        set onlySet(_: number) {
          calls++;
        },
      };
      const array: unknown[] = [1];
      Object.defineProperty(array, 0, {
        get() {
          calls++;
          return 1;
        },
      });
      expect(convert([object, array])).toEqual([{ secret: '[Getter]', onlySet: '[Setter]' }, ['[Getter]']]);
      expect(calls).toBe(0);
    });

    it('never calls toJSON, toString, valueOf, Symbol.toPrimitive, then or a toStringTag getter', () => {
      let called: string[] = [];
      const mark = (name: string) => (): void => {
        called.push(name);
      };
      const hostile = {
        toJSON: mark('toJSON'),
        toString: mark('toString'),
        valueOf: mark('valueOf'),
        then: mark('then'),
        [Symbol.toPrimitive]: mark('toPrimitive'),
        get [Symbol.toStringTag](): string {
          called.push('toStringTag');
          return 'Date';
        },
      };
      class Sneaky {
        toJSON(): void {
          called.push('inherited toJSON');
        }
        static [Symbol.hasInstance](): boolean {
          called.push('hasInstance');
          return true;
        }
      }
      const expected: JsonValue = [
        { toJSON: '[Function]', toString: '[Function]', valueOf: '[Function]', then: '[Function]' },
        { '[Class]': 'Sneaky' },
        {},
      ];
      expect(convert([hostile, new Sneaky(), Object.create(hostile) as object])).toEqual(expected);
      expect(called).toEqual([]);
      called = [];
      formatLogArguments([hostile, new Sneaky()], 1000);
      expect(called).toEqual([]);
    });

    it('does not call getters for the class name, an error name or message, or a function name', () => {
      let calls = 0;
      class Watched {}
      Object.defineProperty(Watched.prototype, 'constructor', {
        get() {
          calls++;
          return Watched;
        },
      });
      const error = new Error('real');
      Object.defineProperty(error, 'message', {
        get() {
          calls++;
          return 'fake';
        },
      });
      Object.defineProperty(error, 'name', {
        get() {
          calls++;
          return 'Fake';
        },
      });
      Object.defineProperty(error, 'stack', {
        get() {
          calls++;
          return 'fake';
        },
      });
      const fn = (): void => undefined;
      Object.defineProperty(fn, 'name', {
        get() {
          calls++;
          return 'fake';
        },
      });
      calls = 0; // redefining `stack` makes V8 format the stack, which reads name and message
      expect(convert([new Watched(), error, fn])).toEqual([{}, { name: 'Error' }, '[Function]']);
      expect(calls).toBe(0);
    });

    it('reads maps and sets with the built-in iterators, not overridden ones', () => {
      let calls = 0;
      class LyingMap extends Map<string, number> {
        override entries(): MapIterator<[string, number]> {
          calls++;
          return new Map([['lie', 0]]).entries();
        }
        override [Symbol.iterator](): MapIterator<[string, number]> {
          calls++;
          return this.entries();
        }
        override get size(): number {
          calls++;
          return 0;
        }
      }
      const map = new LyingMap([['truth', 1]]);
      expect(convert(map)).toEqual({ '[Map]': [['truth', 1]] });
      expect(calls).toBe(0);
    });

    it('does not mistake an object made from a built-in prototype for the built-in', () => {
      expect(convert([Object.create(Date.prototype) as object, Object.create(Map.prototype) as object])).toEqual([
        { '[Class]': 'Date' },
        { '[Class]': 'Map' },
      ]);
    });

    it('writes [Unreadable] where a Proxy trap throws', () => {
      const thrower = (): never => {
        throw new Error('trap');
      };
      const noKeys = new Proxy({ a: 1 }, { ownKeys: thrower });
      const noDescriptor = new Proxy({ a: 1, b: 2 }, { getOwnPropertyDescriptor: thrower });
      const noPrototype = new Proxy({ a: 1 }, { getPrototypeOf: thrower });
      const noLength = new Proxy([1, 2], { getOwnPropertyDescriptor: thrower });
      const { proxy: revoked, revoke } = Proxy.revocable({}, {});
      revoke();
      expect(convert([noKeys, noDescriptor, noPrototype, noLength, revoked])).toEqual([
        '[Unreadable]',
        { a: '[Unreadable]', b: '[Unreadable]' },
        { a: 1 },
        '[Unreadable]',
        '[Unreadable]',
      ]);
    });

    it('only ever asks a Proxy for its keys, own descriptors and prototype', () => {
      const traps = new Set<string>();
      const handler: ProxyHandler<object> = {};
      const logging = new Proxy(handler, {
        get(_target, trap) {
          traps.add(String(trap));
          return undefined; // no trap: the operation goes to the target
        },
      });
      const target = { a: 1, nested: { b: [1, 2] }, when: new Date(0) };
      expect(convert(new Proxy(target, logging))).toEqual({ a: 1, nested: { b: [1, 2] }, when: '1970-01-01T00:00:00.000Z' });
      expect([...traps].sort()).toEqual(['getOwnPropertyDescriptor', 'getPrototypeOf', 'ownKeys']);
    });
  });

  describe('when the value is large', () => {
    it('survives 100 000 levels of nesting and keeps maxDepth of them', () => {
      let array: unknown[] = [];
      let object: Record<string, unknown> = {};
      for (let i = 0; i < 100_000; i++) {
        array = [array];
        object = { next: object };
      }
      const arrays = toJsonSafe(array);
      expect(arrayDepth(arrays.value)).toBe(DEFAULT_JSON_SAFE_LIMITS.maxDepth);
      expect(arrays.truncated).toEqual([`value${'[0]'.repeat(20)}: nested deeper than 20 levels: replaced by "[Array]"`]);
      const objects = toJsonSafe(object, { maxDepth: 3 });
      expect(objects.value).toEqual({ next: { next: { next: '[Object]' } } });
      expect(objects.truncated).toEqual(['value.next.next.next: nested deeper than 3 levels: replaced by "[Object]"']);
    });

    it('keeps the first items of a million-item array', () => {
      const result = toJsonSafe({ items: Array.from({ length: 1_000_000 }, (_, i) => i) });
      const items = (result.value as { items: number[] }).items;
      expect(items).toHaveLength(1000);
      expect(items[999]).toBe(999);
      expect(result.truncated).toEqual(['value.items: array of 1000000 items cut to 1000']);
    });

    it('cuts a 10 MB string without splitting a surrogate pair', () => {
      const big = 'x'.repeat(10_000_000);
      expect(toJsonSafe(big)).toEqual({ value: 'x'.repeat(20_000), truncated: ['value: string of 10000000 characters cut to 20000'] });
      expect(toJsonSafe('ab😀', { maxStringLength: 3 }).value).toBe('ab');
    });

    it('keeps the first maxKeys properties', () => {
      const object = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]));
      const result = toJsonSafe(object);
      expect(Object.keys(result.value as object)).toHaveLength(1000);
      expect(result.truncated).toEqual(['value: object with 1500 keys cut to 1000']);
    });

    it('keeps the first entries of a large Map or Set', () => {
      const result = toJsonSafe({ m: new Map(Array.from({ length: 5 }, (_, i) => [i, i])), s: new Set([1, 2, 3]) }, { maxArrayLength: 2 });
      expect(result.value).toEqual({ m: { '[Map]': [[0, 0], [1, 1]] }, s: { '[Set]': [1, 2] } });
      expect(result.truncated).toEqual(['value.m: Map of 5 entries cut to 2', 'value.s: Set of 3 entries cut to 2']);
    });

    it('stops near maxTotalChars and says where', () => {
      const result = toJsonSafe({ rows: Array.from({ length: 100 }, () => 'y'.repeat(1000)) }, { maxTotalChars: 10_000 });
      const text = JSON.stringify(result.value);
      expect(text.length).toBeLessThanOrEqual(10_000);
      expect(text.length).toBeGreaterThan(9_900);
      expect(result.truncated).toEqual([
        expect.stringMatching(/^value\.rows\[9\]: output limit of 10000 characters reached: string cut to \d+ characters and everything after it left out$/) as unknown,
      ]);
    });

    it('lists at most 20 cuts and counts the rest', () => {
      const result = toJsonSafe(Array.from({ length: 50 }, () => 'z'.repeat(10)), { maxStringLength: 5 });
      expect(result.truncated).toHaveLength(21);
      expect(result.truncated[0]).toBe('value[0]: string of 10 characters cut to 5');
      expect(result.truncated[20]).toBe('and 30 more cuts');
    });

    it('formats awkward keys in the paths of its notes', () => {
      const result = toJsonSafe({ 'a b': [{ ok: 'long text' }] }, { maxStringLength: 4 });
      expect(result.truncated).toEqual(['value["a b"][0].ok: string of 9 characters cut to 4']);
    });

    it('uses the default for each limit not given or not a number of at least 0', () => {
      const result = toJsonSafe('x'.repeat(30_000), { maxStringLength: undefined, maxDepth: -1 });
      expect((result.value as string).length).toBe(20_000);
    });
  });
});

describe('formatLogArguments', () => {
  it('writes strings as they are and other primitives as words', () => {
    expect(formatLogArguments(['found', 3, 'notes', true, null, undefined, 7n, NaN], 200)).toBe('found 3 notes true null undefined 7n NaN');
  });

  it('writes objects as compact JSON and other values as their summary', () => {
    const listed = function listed(): void {};
    expect(formatLogArguments([{ a: [1, 'x'], m: new Map([[1, 2]]) }, listed, new Date(0), Symbol('s')], 200)).toBe(
      '{"a":[1,"x"],"m":{"[Map]":[[1,2]]}} [Function listed] 1970-01-01T00:00:00.000Z [Symbol s]',
    );
  });

  it('returns a line of exactly maxChars unchanged', () => {
    expect(formatLogArguments(['abc', 'de'], 6)).toBe('abc de');
  });

  it('cuts a long line and says how much was left out', () => {
    const line = formatLogArguments(['a'.repeat(100), 'b'.repeat(50)], 60);
    expect(line.length).toBeLessThanOrEqual(60);
    const kept = line.indexOf('…');
    expect(line).toBe(`${'a'.repeat(kept)}… [${151 - kept} more characters]`);
  });

  it('marks a line whose objects were cut', () => {
    const line = formatLogArguments(['rows:', Array.from({ length: 1000 }, (_, i) => i)], 80);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^rows: \[0,1,2,.*… \[truncated\]$/);
  });

  it('cuts without a marker when maxChars is too small for one', () => {
    expect(formatLogArguments(['abcdefgh'], 5)).toBe('abcde');
  });

  it('does not convert arguments past the cap', () => {
    let traps = 0;
    const watched = new Proxy(
      { a: 1 },
      {
        ownKeys(target) {
          traps++;
          return Reflect.ownKeys(target);
        },
      },
    );
    expect(formatLogArguments(['x'.repeat(50), watched], 20)).toBe(`${'x'.repeat(7)}… [truncated]`);
    expect(traps).toBe(0);
    expect(formatLogArguments([watched], 20)).toBe('{"a":1}');
    expect(traps).toBe(1);
  });
});
