import type { PathPolicy } from '../paths/pathPolicy';
import type { VaultPort } from '../ports';
import type { MemOptions } from './options';
import type { WriteSet } from './WriteSet';

/** What every `mem` operation works with. Built once per vault by `createMem`. */
export interface MemContext {
  readonly vault: VaultPort;
  readonly options: MemOptions;
  readonly policy: PathPolicy;
  readonly writeSet: WriteSet;
}
