import type { AgentEvent } from '../agent/runAgent';

/**
 * Turns the agent's events into progress messages: each `<think>` line once, as soon as it is
 * complete (the last one when the model stops thinking), each code run and its outcome, and each
 * commit. The `think` events carry the turn's whole think text so far; only what is new is told.
 */
export function agentProgress(send: (message: string) => void): (event: AgentEvent) => void {
  let turn = -1;
  let text = '';
  let told = 0;
  const tell = (lines: string): void => {
    for (const line of lines.split('\n')) if (line.trim() !== '') send(line.trim());
  };
  const flush = (): void => {
    tell(text.slice(told));
    told = text.length;
  };
  return (event) => {
    if (event.type === 'think') {
      if (event.turn !== turn || !event.text.startsWith(text.slice(0, told))) {
        if (event.turn !== turn) flush();
        turn = event.turn;
        told = 0;
      }
      text = event.text;
      const end = text.lastIndexOf('\n');
      if (end >= told) {
        tell(text.slice(told, end));
        told = end + 1;
      }
      return;
    }
    if (event.type === 'state' && event.state === 'thinking') return;
    flush();
    if (event.type === 'code') send(`Running code (turn ${event.turn}): ${firstLine(event.code)}`);
    if (event.type === 'result') {
      const { result } = event;
      send(result.ok ? `The code finished in ${result.durationMs} ms.` : `The code failed: ${result.error?.code ?? 'Error'}: ${result.error?.message ?? 'unknown error'}`);
    }
    if (event.type === 'commit') send(`Committed ${event.hash.slice(0, 7)}.`);
  };
}

function firstLine(code: string): string {
  const line = code.trim().split('\n', 1)[0] ?? '';
  const more = code.trim().includes('\n') ? ' …' : '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : `${line}${more}`;
}
