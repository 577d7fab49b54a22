import { isRecursaError } from '../errors';
import type { GitEvent, GitService } from '../git/GitService';
import type { WriteSet } from '../mem/WriteSet';
import type { AgentEvent, AgentOutcome } from './runAgent';

type Ending = { state: AgentOutcome['state']; error: string | null };

/**
 * The commits of one run: each one the vault's history makes for it is told as an event, the
 * model's own and the closing one that takes what the model left uncommitted.
 */
export class RunCommits {
  /** Commits made during the run, oldest first. */
  readonly hashes: string[] = [];
  /** What the model should hear about its commits besides their hashes (paths the ignore rules kept out). */
  private readonly notes: string[] = [];
  /** True while the closing commit is made: its event is the one commit the loop itself asked for. */
  private closing = false;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    private readonly git: GitService | null,
    private readonly runId: string,
    private readonly emit: (event: AgentEvent) => void,
    /** The MCP client the run is for, named in the closing commit's trailers. */
    private readonly client: string | null = null,
  ) {
    this.unsubscribe = git?.onEvent((event) => this.told(event));
  }

  /** The notes gathered since the last call. */
  takeNotes(): string[] {
    return this.notes.splice(0);
  }

  /**
   * Commits what the agent changed and did not commit, however the run ended. A commit that fails
   * is added to the run's error, and fails a run that had completed.
   */
  async close(request: string, writeSet: WriteSet, ending: Ending): Promise<Ending> {
    if (this.git === null || writeSet.size === 0) return ending;
    this.emit({ type: 'state', state: 'committing' });
    this.closing = true;
    try {
      // Its commit event, like every commit of the run, is told by the listener.
      await this.git.commitAgentChanges(closingMessage(request, this.runId, ending.state), this.runId, this.client);
      return ending;
    } catch (failure) {
      if (isRecursaError(failure) && failure.code === 'NothingToCommit') return ending;
      const error = `${ending.error === null ? '' : `${ending.error} `}The changes could not be committed: ${failure instanceof Error ? failure.message : String(failure)}`;
      return { state: ending.state === 'completed' ? 'failed' : ending.state, error };
    }
  }

  /** Stops listening to the history. */
  dispose(): void {
    this.unsubscribe?.();
  }

  private told(event: GitEvent): void {
    if (event.type !== 'commit' || event.run !== this.runId) return;
    this.hashes.push(event.hash);
    this.emit({ type: 'commit', hash: event.hash, automatic: this.closing });
    if (event.ignored !== undefined && event.ignored.length > 0) this.notes.push(ignoredNote(event.hash, event.ignored));
  }
}

function ignoredNote(hash: string, ignored: readonly string[]): string {
  const one = ignored.length === 1;
  return `Note: commit ${hash.slice(0, 7)} left out ${ignored.map((path) => `"${path}"`).join(', ')}: the vault's .gitignore excludes ${one ? 'it' : 'them'}, so ${one ? 'it stays' : 'they stay'} out of history.`;
}

/** The closing commit's message: the request's first line, and how the run ended. */
function closingMessage(request: string, runId: string, state: AgentOutcome['state']): string {
  const firstLine = request.trim().split('\n', 1)[0] ?? '';
  const subject = firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine;
  const how = state === 'completed' ? 'finished' : state === 'cancelled' ? 'was cancelled' : state === 'timed-out' ? 'ran out of time' : 'failed';
  return `Recursa: ${subject || 'agent changes'}\n\nCommitted when run ${runId} ${how}, with changes the agent had not committed itself.\n\nRequest: ${request.trim().slice(0, 1000)}`;
}
