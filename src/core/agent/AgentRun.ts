import type { ChatMessage } from '../llm/types';
import { countTokens } from '../tokens/countTokens';
import { actionsTurn } from './actionsTurn';
import { DEFAULT_BUDGETS, type AgentBudgets } from './budgets';
import { codeTurn } from './codeTurn';
import { withContext } from './requestContext';
import { streamAnswer, turnPrompt, type ModelAnswer } from './modelTurn';
import { RunCommits } from './runCommits';
import type { RunContext, TurnStep } from './runContext';
import { RunControl } from './runStop';
import { RunTally } from './runTally';
import type { AgentDeps, AgentEvent, AgentOutcome, AgentRunOptions } from './runAgent';

/** One run of the think-act-commit loop (see `runAgent`); used once. */
export class AgentRun implements RunContext {
  readonly runId: string;
  readonly budgets: AgentBudgets;
  readonly control: RunControl;
  readonly tally: RunTally;
  readonly commits: RunCommits;
  /** What to append to the conversation: the request, the model's answers, the results. */
  private readonly added: ChatMessage[];
  private readonly baseTokens: number;

  constructor(
    private readonly request: string,
    private readonly history: readonly ChatMessage[],
    readonly deps: AgentDeps,
    private readonly options: AgentRunOptions,
  ) {
    this.runId = options.runId;
    this.budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
    this.control = new RunControl(this.budgets.timeMs, options.signal);
    deps.session.runId = options.runId;
    this.added = [{ role: 'user', content: withContext(request, options.context) }];
    this.tally = new RunTally(this.budgets);
    this.commits = new RunCommits(deps.git, options.runId, (event) => this.emit(event), deps.session.client ?? null);
    this.baseTokens = countTokens(deps.systemPrompt);
  }

  emit(event: AgentEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // A broken listener must not break the run.
    }
  }

  async run(): Promise<AgentOutcome> {
    this.emit({ type: 'state', state: 'accepted' });
    let reply: string | null = null;
    let ending: Pick<AgentOutcome, 'state' | 'error'> = { state: 'completed', error: null };
    try {
      reply = await this.loop();
    } catch (failure) {
      ending = this.control.endingOf(failure);
    } finally {
      this.control.dispose();
    }
    const deferred = this.options.deferCommit === true;
    const { state, error } = deferred ? ending : await this.commits.close(this.request, this.deps.writeSet, ending);
    this.commits.dispose();
    if (reply !== null && state === 'completed') {
      this.emit({ type: 'state', state: 'replying' });
      this.emit({ type: 'reply', text: reply });
    }
    this.emit({ type: 'state', state });
    const { turns, tokens, memCalls } = this.tally;
    return { runId: this.runId, state, reply: state === 'completed' ? reply : null, error, commits: this.commits.hashes, turns, tokens, memCalls, messages: this.added, ...(deferred ? { pending: this.deps.writeSet.paths() } : {}) };
  }

  /** Turns until the model replies; a stop, a budget or a failure ends it by throwing. */
  private async loop(): Promise<string> {
    for (;;) {
      this.control.check();
      this.tally.startTurn();
      this.emit({ type: 'state', state: 'thinking' });
      const answer = await this.askModel();
      const step: TurnStep = this.deps.protocol === 'actions' ? await actionsTurn(this, answer.text, answer.shownThink) : await codeTurn(this, answer.text, answer.shownThink);
      if (step.reply !== null) return step.reply;
      this.added.push({ role: 'user', content: step.feedback });
    }
  }

  /** One model call; its answer joins the conversation and its tokens the tally. */
  private async askModel(): Promise<ModelAnswer> {
    const prompt = await turnPrompt(this.deps, [...this.history, ...this.added], this.budgets.contextTokens, this.baseTokens);
    const turn = this.tally.turns;
    const answer = await streamAnswer(this.deps.provider, prompt, this.control.abortSignal, (text) => this.emit({ type: 'think', turn, text })).catch((failure: unknown) => {
      // A call aborted by a stop ends the run as that stop, not as the provider's error.
      this.control.check();
      throw failure;
    });
    this.tally.addTokens(answer.tokens);
    this.added.push({ role: 'assistant', content: answer.text });
    return answer;
  }
}
