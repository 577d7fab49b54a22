import type { GitService } from '../git/GitService';
import type { GraphIndex } from '../graph/GraphIndex';
import type { PathPolicy } from '../paths/pathPolicy';
import type { VaultPort, VaultRegistry } from '../ports';
import type { MemOptions } from './options';
import type { RunScope } from './runScope';
import type { WriteSet } from './WriteSet';

/** Who is acting through `mem` right now; the agent loop sets `runId` for each run. */
export interface MemSession {
  runId: string;
  /** The MCP client the work is done for (its `clientInfo.name`), named in commit trailers; absent otherwise. */
  client?: string | null;
  /** The conversation the run belongs to, when there is one (memory notes record it). */
  conversationId?: string | null;
  /** The note open in the editor, when the runtime knows (memory notes record it). */
  activeNote?: () => string | null;
}

/**
 * What every `mem` operation works with. Built once per vault by `createMem`; a sandbox run's calls
 * get a copy bound to the run (`MemInstance.forRun`), whose `vault` checks the run's signal and
 * charges its write budget.
 */
export interface MemContext {
  readonly vault: VaultPort;
  readonly options: MemOptions;
  readonly policy: PathPolicy;
  readonly writeSet: WriteSet;
  /** The vault's history, or null when the vault was opened without it. */
  readonly git: GitService | null;
  /** The vault's links, tags, properties and full text, or null when not indexed. */
  readonly graph: GraphIndex | null;
  readonly session: MemSession;
  /** The other vaults on this device, for `recall({ scope: 'all' })`; null or absent on mobile. */
  readonly vaultRegistry?: VaultRegistry | null;
  /** The sandbox run the call belongs to; absent outside runs. Long work checks `run.signal` between slices. */
  readonly run?: RunScope;
}
