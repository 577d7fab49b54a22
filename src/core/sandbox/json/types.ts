/** Plain JSON data: what `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

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
