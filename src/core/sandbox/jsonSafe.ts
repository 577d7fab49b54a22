/**
 * Reads untrusted values (from the sandbox worker) into plain JSON data without running code they
 * control. The pieces live in `./json/`:
 * - `toJsonSafe` — the entry point and what becomes what; `conversion` — the walk with its own stack;
 * - `objectKind`, `builtInLeaf`, `builtIns` — recognising built-in objects by brand checks made
 *   with built-ins captured at load;
 * - `ownProperties` — reading own data properties and prototypes, never calling an accessor;
 * - `listChildren`, `objectChildren` — the children of arrays, maps, sets, errors and objects;
 * - `output`, `textCuts`, `paths` — the size budget, surrogate-safe cuts and truncation notes;
 * - `logArguments` — console arguments formatted as one capped log line.
 */
export { formatLogArguments } from './json/logArguments';
export { toJsonSafe } from './json/toJsonSafe';
export { DEFAULT_JSON_SAFE_LIMITS, type JsonSafeLimits, type JsonSafeResult, type JsonValue } from './json/types';
