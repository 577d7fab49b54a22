import { afterEach, beforeEach } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh, empty real folder for one test; `remove()` deletes it. */
export async function makeTempDir(prefix = 'recursa-test-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A fresh temp folder for each test of the enclosing `describe`, removed after it. */
export function useTempDir(prefix?: string): { readonly dir: string } {
  const state = { dir: '' };
  let remove: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir: state.dir, remove } = await makeTempDir(prefix));
  });
  afterEach(async () => remove());
  return state;
}
