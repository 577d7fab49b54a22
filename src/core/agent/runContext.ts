import type { AgentBudgets } from './budgets';
import type { RunCommits } from './runCommits';
import type { AgentDeps, AgentEvent } from './runAgent';
import type { RunControl } from './runStop';
import type { RunTally } from './runTally';

/** What a turn works with: the run's dependencies, budgets, stop control, tally, commits and events. */
export interface RunContext {
  readonly runId: string;
  readonly deps: AgentDeps;
  readonly budgets: AgentBudgets;
  readonly control: RunControl;
  readonly tally: RunTally;
  readonly commits: RunCommits;
  emit(event: AgentEvent): void;
}

/** How a turn ends: the reply that ends the run, or what to send back to the model. */
export interface TurnStep {
  reply: string | null;
  feedback: string;
}

/** The expected format of an answer, named for the correction that ends the run. */
export interface AnswerFormat {
  tags: string;
  correction: () => string;
}

/**
 * What every answer goes through before anything in it runs: its last `<think>` is told if the
 * stream did not tell it, the usage is told, the token budget is held, and an answer without a
 * usable tag gets a correction. Returns that correction, or null when the answer is usable.
 */
export function settleAnswer(run: RunContext, answer: { think: string; shownThink: string; usable: boolean }, format: AnswerFormat): string | null {
  if (answer.think !== answer.shownThink && answer.think !== '') run.emit({ type: 'think', turn: run.tally.turns, text: answer.think });
  run.emit(run.tally.usage());
  run.tally.checkTokens();
  if (answer.usable) return null;
  run.tally.correct(format.tags);
  return format.correction();
}

export function replyStep(reply: string): TurnStep {
  return { reply, feedback: '' };
}

export function feedbackStep(feedback: string): TurnStep {
  return { reply: null, feedback };
}
