/** Limits of one agent run. Every field has a default in `DEFAULT_BUDGETS`. */
export interface AgentBudgets {
  /** Model calls. */
  maxTurns: number;
  /** Wall time of the whole run. */
  timeMs: number;
  /** Tokens sent and received, over all turns. */
  maxTokens: number;
  /** `mem` calls, over all turns. */
  maxMemCalls: number;
  /** Tokens of one execution result fed back to the model; longer results are cut. */
  resultTokens: number;
  /** The model's context window; older turns are compacted to stay under it. */
  contextTokens: number;
}

export const DEFAULT_BUDGETS: AgentBudgets = {
  maxTurns: 10,
  timeMs: 5 * 60_000,
  maxTokens: 400_000,
  maxMemCalls: 2_000,
  resultTokens: 2_000,
  contextTokens: 100_000,
};
