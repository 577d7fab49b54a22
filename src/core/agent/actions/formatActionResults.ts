import type { ActionResult } from './types';

/**
 * The results of a batch as the model reads them in the next turn: one entry per action under
 * its cumulative number, errors included, fetched data as JSON.
 */
export function formatActionResults(results: readonly ActionResult[]): string {
  const lines = ['<action_results>'];
  for (const result of results) {
    const where = result.source_path === undefined ? result.target_path : `${result.source_path} -> ${result.target_path}`;
    lines.push(`_${result.index} ${result.kind} ${where}: ${result.status}${result.message === undefined ? '' : ` — ${result.message}`}${result.error === undefined ? '' : ` — ${result.error}`}`);
    if (result.data !== undefined) lines.push(typeof result.data === 'string' ? result.data : JSON.stringify(result.data, null, 1));
  }
  lines.push('</action_results>');
  const failed = results.filter((result) => result.status === 'error').length;
  lines.push(failed === 0 ? 'Continue with more <actions>, or give the final <reply>.' : `${failed} action${failed > 1 ? 's' : ''} failed: read the error, fix and retry, or explain in the <reply>.`);
  return lines.join('\n');
}
