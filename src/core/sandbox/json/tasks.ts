// The walk's units of work: values still to convert and where their results go.

import type { OwnRead } from './ownProperties';
import type { Where } from './paths';
import type { JsonObject, JsonValue } from './types';

/** Where a converted value goes: `holder[key]`, or the end of `holder` when it is an array. */
export interface Slot {
  holder: JsonValue[] | JsonObject;
  key: string | number;
}

export type Task =
  | { kind: 'value'; value: unknown; depth: number; path: Where; slot: Slot; maxLength?: number }
  | { kind: 'json'; value: JsonValue; path: Where; slot: Slot }
  | { kind: 'pair'; key: unknown; value: unknown; depth: number; path: Where; slot: Slot }
  | { kind: 'exit'; object: object };

export type ValueTask = Extract<Task, { kind: 'value' }>;
export type PairTask = Extract<Task, { kind: 'pair' }>;

export function valueTask(value: unknown, depth: number, path: Where, slot: Slot, maxLength?: number): ValueTask {
  return { kind: 'value', value, depth, path, slot, maxLength };
}

/** The task for a property read; `undefined` for a missing property. */
export function propertyTask(read: OwnRead, depth: number, path: Where, slot: Slot): Task | undefined {
  switch (read.kind) {
    case 'data':
      return valueTask(read.value, depth + 1, path, slot);
    case 'accessor':
      return { kind: 'json', value: read.hasGetter ? '[Getter]' : '[Setter]', path, slot };
    case 'unreadable':
      return { kind: 'json', value: '[Unreadable]', path, slot };
    case 'missing':
      return undefined;
  }
}
