// The walk: converts a value with its own stack of tasks, so nesting of any depth is safe.

import { isArray } from './builtIns';
import { arrayChildren, collectionChildren } from './listChildren';
import { objectChildren } from './objectChildren';
import { classifyObject, type ObjectKind } from './objectKind';
import { JsonOutput } from './output';
import { className, functionName } from './ownProperties';
import type { Where } from './paths';
import { valueTask, type PairTask, type Task, type ValueTask } from './tasks';
import { cutString } from './textCuts';
import type { JsonObject, JsonSafeLimits, JsonSafeResult, JsonValue } from './types';

type ContainerKind = Exclude<ObjectKind, { kind: 'leaf' }>;

/** A container's empty JSON value and the tasks that fill it (`undefined` when it cannot be read). */
function containerOf(
  output: JsonOutput,
  object: object,
  shape: ContainerKind,
  depth: number,
  path: Where,
): { container: JsonValue[] | JsonObject; children: Task[] | undefined } {
  if (shape.kind === 'Array') {
    const container: JsonValue[] = [];
    return { container, children: arrayChildren(output, object as unknown[], depth, path, container) };
  }
  const container: JsonObject = {};
  if (shape.kind === 'Error' || shape.kind === 'Object') {
    const errorChain = shape.kind === 'Error' ? shape.chain : undefined;
    return { container, children: objectChildren(output, object, errorChain, className(shape.chain[0]), depth, path, container) };
  }
  return { container, children: collectionChildren(output, object, shape.kind, shape.size, depth, path, container) };
}

export class Conversion {
  private readonly output: JsonOutput;
  private readonly stack: Task[] = [];
  /** The objects being converted on the current path, to tell a cycle from a shared reference. */
  private readonly active = new Set<object>();

  constructor(private readonly limits: JsonSafeLimits) {
    this.output = new JsonOutput(limits);
  }

  run(value: unknown): JsonSafeResult {
    const root: JsonValue[] = [];
    this.stack.push({ kind: 'value', value, depth: 0, path: undefined, slot: { holder: root, key: 0 } });
    while (!this.output.exhausted) {
      const task = this.stack.pop();
      if (!task) break;
      if (task.kind === 'exit') this.active.delete(task.object);
      else if (task.kind === 'json') this.output.put(task.slot, task.path, task.value);
      else if (task.kind === 'pair') this.visitPair(task);
      else this.visit(task);
    }
    return { value: root[0] ?? null, truncated: this.output.finish() };
  }

  private visit(task: ValueTask): void {
    const { value, path, slot } = task;
    const output = this.output;
    switch (typeof value) {
      case 'string': {
        const max = Math.min(task.maxLength ?? Infinity, this.limits.maxStringLength);
        if (value.length > max) output.note(path, `string of ${value.length} characters cut to ${max}`);
        output.put(slot, path, cutString(value, max));
        return;
      }
      case 'number':
        output.put(slot, path, Number.isFinite(value) ? value + 0 : String(value));
        return;
      case 'boolean':
        output.put(slot, path, value);
        return;
      case 'bigint':
        output.put(slot, path, `${value}n`);
        return;
      case 'symbol':
        output.put(slot, path, value.description === undefined ? '[Symbol]' : `[Symbol ${value.description}]`);
        return;
      case 'undefined':
        if (isArray(slot.holder)) output.put(slot, path, null);
        return;
      case 'function': {
        const name = functionName(value);
        output.put(slot, path, name === '' ? '[Function]' : `[Function ${name}]`);
        return;
      }
      default:
        if (value === null) output.put(slot, path, null);
        else this.visitObject(value as object, task);
    }
  }

  private visitObject(object: object, task: ValueTask): void {
    const { depth, path, slot } = task;
    if (this.active.has(object)) {
      this.output.put(slot, path, '[Circular]');
      return;
    }
    const shape = classifyObject(object);
    if (shape.kind === 'leaf') {
      this.output.put(slot, path, shape.text);
      return;
    }
    if (depth >= this.limits.maxDepth) {
      this.output.note(path, `nested deeper than ${this.limits.maxDepth} levels: replaced by "[${shape.kind}]"`);
      this.output.put(slot, path, `[${shape.kind}]`);
      return;
    }
    const { container, children } = containerOf(this.output, object, shape, depth, path);
    if (!children) {
      this.output.put(slot, path, '[Unreadable]');
      return;
    }
    if (!this.output.put(slot, path, container)) return;
    this.active.add(object);
    this.stack.push({ kind: 'exit', object });
    for (let i = children.length - 1; i >= 0; i--) this.stack.push(children[i] as Task);
  }

  private visitPair(task: PairTask): void {
    const pair: JsonValue[] = [];
    if (!this.output.put(task.slot, task.path, pair)) return;
    this.stack.push(valueTask(task.value, task.depth, { parent: task.path, key: 1 }, { holder: pair, key: 1 }));
    this.stack.push(valueTask(task.key, task.depth, { parent: task.path, key: 0 }, { holder: pair, key: 0 }));
  }
}
