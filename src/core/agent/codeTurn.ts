import type { RunResult } from '../sandbox/protocol';
import { formatRunResult } from './formatRunResult';
import { correctionMessage, parseResponse } from './protocolParser';
import { feedbackStep, replyStep, settleAnswer, type RunContext, type TurnStep } from './runContext';

const CODE_FORMAT = { tags: '<think>, <typescript>, <reply>', correction: correctionMessage };

/** One answer in the code protocol: its `<typescript>` blocks run in turn, and their results go back unless it replied. */
export async function codeTurn(run: RunContext, text: string, shownThink: string): Promise<TurnStep> {
  const parsed = parseResponse(text);
  const correction = settleAnswer(run, { think: parsed.thinks.at(-1) ?? '', shownThink, usable: parsed.usable }, CODE_FORMAT);
  if (correction !== null) return feedbackStep(correction);
  if (parsed.code.length > 0) {
    const ran = await runBlocks(run, parsed.code);
    return parsed.reply !== null && ran.allOk ? replyStep(parsed.reply) : feedbackStep(ran.feedback);
  }
  if (parsed.reply !== null) return replyStep(parsed.reply);
  return feedbackStep('Continue: act with <typescript>, or give the final <reply>.');
}

/** Runs the blocks in order, up to the first that fails; the feedback holds each result and the notes on commits it made. */
async function runBlocks(run: RunContext, blocks: readonly string[]): Promise<{ allOk: boolean; feedback: string }> {
  run.emit({ type: 'state', state: 'acting' });
  const feedback: string[] = [];
  let allOk = true;
  for (const [index, code] of blocks.entries()) {
    const result = await runBlock(run, index, code);
    feedback.push(formatRunResult(result, run.budgets.resultTokens), ...run.commits.takeNotes());
    if (!result.ok) {
      allOk = false;
      break;
    }
  }
  run.emit(run.tally.usage());
  run.tally.checkMemCalls();
  return { allOk, feedback: feedback.join('\n\n') };
}

/** Runs one block with what is left of the run's `mem` calls and time (at most 10 s). */
async function runBlock(run: RunContext, index: number, code: string): Promise<RunResult> {
  run.control.check();
  run.emit({ type: 'code', turn: run.tally.turns, index, code });
  run.tally.checkMemCalls();
  const limits = { maxMemCalls: run.tally.remainingMemCalls(), timeMs: Math.max(1, Math.min(10_000, run.control.remainingMs())) };
  const result = await run.deps.runner.run(code, { signal: run.control.abortSignal, limits });
  run.tally.addMemCalls(result.memCalls);
  run.emit({ type: 'result', turn: run.tally.turns, index, result });
  run.control.check();
  return result;
}
