import type { AgentBudgets } from './budgets';
import { RunStopped } from './runStop';

/** How many answers without a usable tag the model may give before the run fails. */
const MAX_CORRECTIONS = 2;

/** What a run has used — turns, tokens, `mem` calls, corrections — held against its budgets. */
export class RunTally {
  turns = 0;
  tokens = 0;
  memCalls = 0;
  private corrections = 0;

  constructor(private readonly budgets: AgentBudgets) {}

  /** Counts a new turn; fails the run when its turns are used up. */
  startTurn(): void {
    if (this.turns >= this.budgets.maxTurns) throw new RunStopped('failed', `The run used its ${this.budgets.maxTurns} turns without finishing.`);
    this.turns++;
  }

  addTokens(tokens: number): void {
    this.tokens += tokens;
  }

  /** Fails the run when it has used more tokens than its budget. */
  checkTokens(): void {
    if (this.tokens > this.budgets.maxTokens) throw new RunStopped('failed', `The run used more than its budget of ${this.budgets.maxTokens} tokens.`);
  }

  addMemCalls(calls: number): void {
    this.memCalls += calls;
  }

  remainingMemCalls(): number {
    return this.budgets.maxMemCalls - this.memCalls;
  }

  /** Fails the run when it has fewer than `needed` `mem` calls left. */
  checkMemCalls(needed = 1): void {
    if (needed > this.remainingMemCalls()) throw new RunStopped('failed', `The run used its budget of ${this.budgets.maxMemCalls} mem calls.`);
  }

  /** Counts a correction; fails the run after the last one allowed. `tags` names the expected format. */
  correct(tags: string): void {
    this.corrections++;
    if (this.corrections > MAX_CORRECTIONS) throw new RunStopped('failed', `The model did not answer in the expected format (${tags}) after two corrections.`);
  }

  usage(): { type: 'usage'; turns: number; tokens: number; memCalls: number } {
    return { type: 'usage', turns: this.turns, tokens: this.tokens, memCalls: this.memCalls };
  }
}
