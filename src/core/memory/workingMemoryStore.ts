import type { VaultPort } from '../ports';
import type { WriteSet } from '../mem/WriteSet';
import { KeyedMutex } from '../util/KeyedMutex';
import { readWorkingMemoryNote, renderWorkingMemoryNote } from './workingMemoryNote';
import { getAt, listAt, moveAt, parseWorkingPath, removeAt, setAt, sizeOf, type WorkingLimits, type WorkingTree, type WorkingValue } from './workingMemoryTree';

export interface WorkingMemoryLocation extends WorkingLimits {
  vault: VaultPort;
  writeSet: WriteSet;
  /** The note, already through the path policy. */
  note: string;
}

export interface WorkingMemorySize {
  /** Characters used (compact JSON). */
  size: number;
  limit: number;
}

// One read-modify-write at a time per vault and note, whoever calls.
const locks = new WeakMap<VaultPort, KeyedMutex>();

function lockOf(vault: VaultPort): KeyedMutex {
  let lock = locks.get(vault);
  if (lock === undefined) {
    lock = new KeyedMutex();
    locks.set(vault, lock);
  }
  return lock;
}

export async function readWorkingTree(location: Pick<WorkingMemoryLocation, 'vault' | 'note'>): Promise<WorkingTree> {
  const info = await location.vault.stat(location.note);
  if (info?.kind !== 'file') return {};
  return readWorkingMemoryNote(location.note, await location.vault.readText(location.note));
}

async function update(location: WorkingMemoryLocation, change: (tree: WorkingTree) => WorkingTree): Promise<WorkingMemorySize> {
  return lockOf(location.vault).run(location.note, async () => {
    const next = change(await readWorkingTree(location));
    const text = renderWorkingMemoryNote(next, location);
    await location.writeSet.track([location.note], () => location.vault.write(location.note, text));
    return { size: sizeOf(next), limit: location.charLimit };
  });
}

/** The working-memory operations, by `/`-path, on the note at `location`. */
export const workingMemoryStore = {
  async get(location: WorkingMemoryLocation, path: unknown): Promise<WorkingValue> {
    return getAt(await readWorkingTree(location), parseWorkingPath(path));
  },
  async list(location: WorkingMemoryLocation, path: unknown): Promise<string[]> {
    return listAt(await readWorkingTree(location), parseWorkingPath(path));
  },
  set(location: WorkingMemoryLocation, path: unknown, value: unknown): Promise<WorkingMemorySize> {
    const names = parseWorkingPath(path);
    return update(location, (tree) => setAt(tree, names, value, location));
  },
  remove(location: WorkingMemoryLocation, path: unknown): Promise<WorkingMemorySize> {
    const names = parseWorkingPath(path);
    return update(location, (tree) => removeAt(tree, names));
  },
  move(location: WorkingMemoryLocation, from: unknown, to: unknown): Promise<WorkingMemorySize> {
    const source = parseWorkingPath(from);
    const target = parseWorkingPath(to);
    return update(location, (tree) => moveAt(tree, source, target, location));
  },
};
