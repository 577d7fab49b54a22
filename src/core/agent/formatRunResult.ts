import type { RunResult } from '../sandbox/protocol';

/**
 * One execution result as the model reads it in the next turn: the value, the console output, or
 * the error with its line — cut to about `maxTokens` (4 characters a token) with a note saying so.
 */
export function formatRunResult(result: RunResult, maxTokens: number): string {
  const lines: string[] = [];
  if (result.ok) {
    lines.push(`[Execution Result] The code ran (${result.memCalls} mem calls, ${result.durationMs} ms).`);
    lines.push(`Returned: ${result.value === null ? 'nothing' : JSON.stringify(result.value)}`);
  } else {
    const error = result.error;
    const where = error?.line === undefined ? '' : ` on line ${error.line}`;
    lines.push(`[Execution Error] ${error?.name ?? error?.code ?? 'Error'}${where}: ${error?.message ?? 'the code failed'}`);
    lines.push('Changes made before the error are kept. Fix the code and try again, or explain the problem in a <reply>.');
  }
  if (result.logs.length > 0) {
    lines.push('Console:');
    for (const line of result.logs) lines.push(`${line.level === 'log' ? '' : `[${line.level}] `}${line.text}`);
  }
  if (result.truncated.length > 0) lines.push(`(Cut: ${result.truncated.join('; ')})`);
  const text = lines.join('\n');
  const maxChars = maxTokens * 4;
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n[... ${text.length - maxChars} more characters cut; return less, or summarise in code]`;
}
