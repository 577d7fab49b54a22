import { setIcon, type App, type Component } from 'obsidian';
import type { AgentEvent, AgentOutcome, RunState } from '../../core/agent/runAgent';
import type { RunResult } from '../../core/sandbox/protocol';
import { fenceCode } from './neutralizeMarkdown';
import { renderModelMarkdown } from './renderModelMarkdown';

const STATUS_TEXT: Partial<Record<RunState, string>> = {
  accepted: 'Starting…',
  thinking: 'Thinking…',
  acting: 'Running code…',
  committing: 'Saving the changes to history…',
  replying: 'Writing the reply…',
};

/** What a run's "changes" row can do; given once the run's commits are known. */
export interface RunChangeActions {
  files: string[];
  showDiff: (path: string) => void;
  revert: () => Promise<boolean>;
}

/**
 * One exchange in the chat: the request, a live status line (the model's `<think>` text), each code
 * block the agent ran (collapsed; highlighted code and its result or error), the reply, the files
 * the run changed with their diffs and a Revert, and any error with a Retry.
 */
export class RunView {
  readonly el: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly statusTextEl: HTMLElement;
  private readonly stepsEl: HTMLElement;
  private readonly codeBlocks = new Map<string, HTMLDetailsElement>();
  private readonly phaseEl: HTMLElement;
  private replyEl: HTMLElement | null = null;
  private finished = false;
  private phase = 'Starting…';
  private think: string | null = null;

  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly component: Component,
    request: string,
    context: string | null,
  ) {
    this.el = parent.createDiv({ cls: 'recursa-run', attr: { role: 'group', 'aria-label': 'Exchange' } });
    const bubble = this.el.createDiv({ cls: 'recursa-message recursa-message-user' });
    if (context !== null) bubble.createDiv({ cls: 'recursa-context-chip', text: context });
    bubble.createDiv({ cls: 'recursa-message-text', text: request });
    this.stepsEl = this.el.createDiv('recursa-steps');
    this.statusEl = this.el.createDiv({ cls: 'recursa-status', attr: { role: 'status', 'aria-live': 'polite' } });
    setIcon(this.statusEl.createSpan('recursa-status-icon'), 'loader-2');
    this.statusTextEl = this.statusEl.createSpan({ cls: 'recursa-status-text', text: this.phase });
    this.phaseEl = this.statusEl.createSpan('recursa-status-phase');
  }

  /** Shows one event of the running agent. */
  onEvent(event: AgentEvent): void {
    if (this.finished) return;
    switch (event.type) {
      case 'state':
        this.phase = STATUS_TEXT[event.state] ?? this.phase;
        this.showStatus();
        break;
      case 'think':
        if (event.text.trim() !== '') this.think = event.text.trim();
        this.showStatus();
        break;
      case 'code':
        this.addCode(event.turn, event.index, event.code);
        break;
      case 'result':
        this.showResult(event.turn, event.index, event.result);
        break;
      case 'reply':
        void this.showReply(event.text);
        break;
      default:
        break;
    }
  }

  /** The user pressed Stop: say so at once, whatever the run still has to finish. */
  stopping(): void {
    this.think = null;
    this.phase = 'Stopping…';
    this.showStatus();
  }

  /** The model's think text when there is one, with the phase beside it; else the phase. */
  private showStatus(): void {
    this.statusTextEl.setText(this.think ?? this.phase);
    this.phaseEl.setText(this.think === null ? '' : this.phase);
    this.statusEl.toggleClass('is-thinking', this.think !== null);
  }

  /** The run ended: hide the status; show the reply or the error with a Retry. */
  async finish(outcome: AgentOutcome, retry: () => void): Promise<void> {
    this.finished = true;
    this.statusEl.detach();
    if (outcome.state === 'completed' && outcome.reply !== null) {
      if (this.replyEl === null) await this.showReply(outcome.reply);
      return;
    }
    const message = outcome.state === 'cancelled' ? 'Stopped.' : (outcome.error ?? 'The run did not finish.');
    this.showError(message, retry, outcome.state === 'cancelled');
  }

  /** The run could not start or failed outside the agent. */
  fail(message: string, retry: () => void): void {
    this.finished = true;
    this.statusEl.detach();
    this.showError(message, retry, false);
  }

  /** A past run of a resumed conversation: code and reply as they were, without results. */
  async showPast(code: readonly string[], reply: string | null): Promise<void> {
    this.finished = true;
    this.statusEl.detach();
    for (const [index, block] of code.entries()) {
      const details = this.addCode(0, index, block);
      details.querySelector('.recursa-code-summary-text')?.setText('Code');
      details.removeClass('is-running');
    }
    if (reply !== null) await this.showReply(reply);
  }

  /** The "changes" row: the files the run changed (each opens its diff) and a Revert button. */
  showChanges(actions: RunChangeActions): void {
    if (actions.files.length === 0) return;
    const row = this.el.createDiv({ cls: 'recursa-changes', attr: { role: 'group', 'aria-label': 'Changes made by this run' } });
    const label = row.createSpan('recursa-changes-label');
    setIcon(label.createSpan('recursa-changes-icon'), 'git-commit');
    label.createSpan({ text: actions.files.length === 1 ? 'Changed 1 file' : `Changed ${actions.files.length} files` });
    const files = row.createDiv('recursa-changes-files');
    for (const path of actions.files) {
      const button = files.createEl('button', { cls: 'recursa-file-chip', text: path, attr: { 'aria-label': `Show the changes to ${path}` } });
      button.addEventListener('click', () => actions.showDiff(path));
    }
    const revert = row.createEl('button', { cls: 'recursa-revert-button', attr: { 'aria-label': 'Revert the changes of this run' } });
    setIcon(revert, 'undo-2');
    revert.createSpan({ text: 'Revert' });
    revert.addEventListener('click', () => {
      revert.disabled = true;
      void actions.revert().then((reverted) => {
        if (reverted) {
          row.addClass('is-reverted');
          revert.empty();
          revert.createSpan({ text: 'Reverted' });
        } else revert.disabled = false;
      });
    });
  }

  private addCode(turn: number, index: number, code: string): HTMLDetailsElement {
    const details = this.stepsEl.createEl('details', { cls: 'recursa-code is-running' });
    const summary = details.createEl('summary', { cls: 'recursa-code-summary' });
    setIcon(summary.createSpan('recursa-code-icon'), 'code');
    summary.createSpan({ cls: 'recursa-code-summary-text', text: 'Running code…' });
    const body = details.createDiv('recursa-code-body');
    void renderModelMarkdown(this.app, fenceCode(code, 'ts'), body.createDiv('recursa-code-source markdown-rendered'), '', this.component);
    this.codeBlocks.set(`${turn}:${index}`, details);
    return details;
  }

  private showResult(turn: number, index: number, result: RunResult): void {
    const details = this.codeBlocks.get(`${turn}:${index}`);
    if (details === undefined) return;
    details.removeClass('is-running');
    details.toggleClass('is-error', !result.ok);
    const summary = details.querySelector('.recursa-code-summary-text');
    const calls = `${result.memCalls} mem ${result.memCalls === 1 ? 'call' : 'calls'}`;
    summary?.setText(result.ok ? `Ran code · ${calls} · ${result.durationMs} ms` : `Code failed: ${result.error?.message ?? 'error'}`);
    const body = details.querySelector('.recursa-code-body');
    if (!(body instanceof HTMLElement)) return;
    const output = body.createDiv(`recursa-code-result${result.ok ? '' : ' recursa-error'}`);
    if (!result.ok && result.error !== null) {
      const where = result.error.line === undefined ? '' : ` (line ${result.error.line})`;
      output.createDiv({ text: `${result.error.name ?? result.error.code}${where}: ${result.error.message}` });
    } else {
      output.createEl('pre', { text: result.value === null ? 'Returned nothing.' : JSON.stringify(result.value, null, 2) });
    }
    if (result.logs.length > 0) output.createEl('pre', { cls: 'recursa-code-logs', text: result.logs.map((line) => line.text).join('\n') });
  }

  private async showReply(text: string): Promise<void> {
    this.replyEl?.detach();
    const reply = this.el.createDiv({ cls: 'recursa-message recursa-message-agent markdown-rendered' });
    this.replyEl = reply;
    const changes = this.el.querySelector('.recursa-changes');
    if (changes !== null) this.el.insertBefore(reply, changes);
    await renderModelMarkdown(this.app, text, reply, '', this.component);
  }

  private showError(message: string, retry: () => void, quiet: boolean): void {
    const row = this.el.createDiv({ cls: `recursa-run-error${quiet ? ' is-quiet' : ''}`, attr: { role: 'alert' } });
    if (!quiet) setIcon(row.createSpan('recursa-error-icon'), 'alert-triangle');
    row.createSpan({ cls: 'recursa-run-error-text', text: message });
    const button = row.createEl('button', { cls: 'recursa-retry-button', text: 'Retry', attr: { 'aria-label': 'Retry this request' } });
    button.addEventListener('click', () => {
      // The retry shows the request again; this exchange stays only for the changes it made.
      if (this.el.querySelector('.recursa-changes') === null) this.el.detach();
      else row.detach();
      retry();
    });
  }
}
