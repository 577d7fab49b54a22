import type { RunResult } from '../sandbox/protocol';
import type { JsonValue } from '../sandbox/jsonSafe';
import { formatActionResults } from './actions/formatActionResults';
import { parseActionsResponse } from './actions/parseActions';
import type { ActionResult } from './actions/types';
import { RunStopped } from './runStop';
import { feedbackStep, replyStep, settleAnswer, type RunContext, type TurnStep } from './runContext';

const ACTIONS_FORMAT = { tags: '<think>, <actions>, <reply>', correction: actionsCorrection };

/** One answer in the action protocol: its actions run as one step, and their results go back unless it replied and all succeeded. */
export async function actionsTurn(run: RunContext, text: string, shownThink: string): Promise<TurnStep> {
  const parsed = parseActionsResponse(text);
  const correction = settleAnswer(run, { think: parsed.think, shownThink, usable: parsed.usable }, ACTIONS_FORMAT);
  if (correction !== null) return feedbackStep(correction);
  if (parsed.actions.length === 0) {
    return parsed.reply !== null ? replyStep(parsed.reply) : feedbackStep('Continue: send <actions>, or give the final <reply>.');
  }
  const actions = run.deps.actions;
  if (actions === undefined) throw new RunStopped('failed', 'The action protocol is on, but this agent has no action runner.');
  run.control.check();
  run.tally.checkMemCalls(parsed.actions.length);
  run.emit({ type: 'state', state: 'acting' });
  run.emit({ type: 'code', turn: run.tally.turns, index: 0, code: actionsText(text) });
  const begun = Date.now();
  const results = await actions.run(parsed.actions, run.runId);
  run.tally.addMemCalls(results.length);
  const failed = results.filter((result) => result.status === 'error').length;
  run.emit({ type: 'result', turn: run.tally.turns, index: 0, result: asRunResult(results, failed, Date.now() - begun) });
  run.emit(run.tally.usage());
  run.control.check();
  return parsed.reply !== null && failed === 0 ? replyStep(parsed.reply) : feedbackStep(formatActionResults(results));
}

/** The actions' results as the result of one code block, for the events. */
function asRunResult(results: readonly ActionResult[], failed: number, durationMs: number): RunResult {
  return {
    ok: failed === 0,
    value: JSON.parse(JSON.stringify(results)) as JsonValue,
    logs: [],
    error: failed === 0 ? null : { code: 'ActionFailed', message: `${failed} of ${results.length} actions failed.` },
    memCalls: results.length,
    durationMs,
    truncated: [],
  };
}

/** The correction for an answer in the action protocol without a usable tag. */
function actionsCorrection(): string {
  return (
    'Your answer had no <think>, <actions> or <reply> block, so nothing was done. ' +
    'Answer again: <think> with one short status sentence, then <actions> with <action> elements, or <reply> with the final answer when the work is done.'
  );
}

/** The `<actions>` part of an answer, for the user to see what ran. */
function actionsText(text: string): string {
  const start = text.search(/<actions?\s*>/i);
  if (start < 0) return text.trim();
  const end = text.toLowerCase().lastIndexOf('</actions>');
  return text.slice(start, end < 0 ? undefined : end + '</actions>'.length).trim();
}
