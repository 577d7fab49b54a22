import { setIcon, type App, type Component } from 'obsidian';
import type { AgentEvent, AgentOutcome, RunState } from '../../core/agent/runAgent';
import type { RunResult } from '../../core/sandbox/protocol';
import { fenceCode } from './neutralizeMarkdown';
import { renderModelMarkdown } from './renderModelMarkdown';
import { renderChanges, renderError, renderReplyActions, renderSources, type ErrorActions, type ReplyActions, type RunChangeActions } from './runRows';

export type { RunChangeActions } from './runRows';

const STATUS_TEXT: Partial<Record<RunState, string>> = {
  accepted: 'Starting…',
  thinking: 'Thinking…',
  acting: 'Working in your notes…',
  committing: 'Saving the changes to history…',
  replying: 'Writing the reply…',
};

/**
 * One exchange in the chat: the request (with the notes attached to it), a live status line (the
 * model's `<think>` text), each step the agent took (collapsed: its code and result), the reply
 * with Copy / Insert / Save, its sources, the files it changed with their diffs and a Revert, and
 * any error with the action that fixes it.
 */
export class RunView {
  readonly el: HTMLElement;
  private readonly statusEl: HTMLElement;
  private readonly statusTextEl: HTMLElement;
  private readonly stepsEl: HTMLElement;
  private readonly codeBlocks = new Map<string, HTMLDetailsElement>();
  private readonly phaseEl: HTMLElement;
  private readonly tailEl: HTMLElement;
  private replyEl: HTMLElement | null = null;
  /** The reply's Markdown as the model wrote it (what Copy copies). */
  reply: string | null = null;
  private finished = false;
  private phase = 'Starting…';
  private think: string | null = null;

  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly component: Component,
    request: string,
    attached: readonly string[],
    private readonly replyActions: ReplyActions | null = null,
  ) {
    this.el = parent.createDiv({ cls: 'recursa-run', attr: { role: 'group', 'aria-label': 'Exchange' } });
    const bubble = this.el.createDiv({ cls: 'recursa-message recursa-message-user' });
    if (attached.length > 0) {
      const chips = bubble.createDiv({ cls: 'recursa-message-context', attr: { 'aria-label': 'Attached notes' } });
      for (const path of attached) chips.createSpan({ cls: 'recursa-context-chip', text: path.replace(/\.md$/, ''), attr: { title: path } });
    }
    bubble.createDiv({ cls: 'recursa-message-text', text: request });
    this.stepsEl = this.el.createDiv('recursa-steps');
    this.statusEl = this.el.createDiv({ cls: 'recursa-status', attr: { role: 'status', 'aria-live': 'polite' } });
    setIcon(this.statusEl.createSpan('recursa-status-icon'), 'loader-2');
    this.statusTextEl = this.statusEl.createSpan({ cls: 'recursa-status-text', text: this.phase });
    this.phaseEl = this.statusEl.createSpan('recursa-status-phase');
    this.tailEl = this.el.createDiv('recursa-run-tail');
  }

  /** The rendered reply, once there is one. */
  get replyElement(): HTMLElement | null {
    return this.replyEl;
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

  private showStatus(): void {
    this.statusTextEl.setText(this.think ?? this.phase);
    this.phaseEl.setText(this.think === null ? '' : this.phase);
    this.statusEl.toggleClass('is-thinking', this.think !== null);
  }

  /** The run ended: hide the status; show the reply or the error. */
  async finish(outcome: AgentOutcome, actions: ErrorActions): Promise<void> {
    this.finished = true;
    this.statusEl.detach();
    if (outcome.state === 'completed' && outcome.reply !== null) {
      if (this.replyEl === null) await this.showReply(outcome.reply);
      return;
    }
    const message = outcome.state === 'cancelled' ? 'Stopped.' : (outcome.error ?? 'The run did not finish.');
    this.showError(message, actions, outcome.state === 'cancelled');
  }

  /** The run could not start or failed outside the agent. */
  fail(message: string, actions: ErrorActions): void {
    this.finished = true;
    this.statusEl.detach();
    this.showError(message, actions, false);
  }

  /** A past run of a resumed conversation: its steps and reply as they were, without results. */
  async showPast(code: readonly string[], reply: string | null): Promise<void> {
    this.finished = true;
    this.statusEl.detach();
    for (const [index, block] of code.entries()) {
      const details = this.addCode(0, index, block);
      details.querySelector('.recursa-code-summary-text')?.setText('Worked in your notes');
      details.removeClass('is-running');
    }
    if (reply !== null) await this.showReply(reply);
  }

  /** The notes the run read and changed, under the reply. */
  showSources(read: readonly string[], changed: readonly string[]): void {
    const row = renderSources(this.tailEl, this.app, { read, changed });
    if (row !== null) this.tailEl.prepend(row);
  }

  /** The "changes" row: the files the run changed (each opens its diff) and a Revert button. */
  showChanges(actions: RunChangeActions): void {
    if (actions.files.length > 0) renderChanges(this.tailEl, actions);
  }

  /** A place under the reply for a block of the chat's own (the review of the run's changes). */
  addBlock(cls: string): HTMLElement {
    return this.tailEl.createDiv(cls);
  }

  private addCode(turn: number, index: number, code: string): HTMLDetailsElement {
    const details = this.stepsEl.createEl('details', { cls: 'recursa-code is-running' });
    const summary = details.createEl('summary', { cls: 'recursa-code-summary', attr: { 'aria-label': 'A step of the agent; show its code and result' } });
    setIcon(summary.createSpan('recursa-code-chevron'), 'chevron-right');
    setIcon(summary.createSpan('recursa-code-icon'), 'code');
    summary.createSpan({ cls: 'recursa-code-summary-text', text: 'Working in your notes…' });
    summary.createSpan({ cls: 'recursa-code-more', text: 'Details' });
    const body = details.createDiv('recursa-code-body');
    body.createDiv({ cls: 'recursa-code-heading', text: 'Code' });
    void renderModelMarkdown(this.app, fenceCode(code, 'ts'), body.createDiv('recursa-code-source markdown-rendered'), '', this.component);
    this.codeBlocks.set(`${turn}:${index}`, details);
    return details;
  }

  private showResult(turn: number, index: number, result: RunResult): void {
    const details = this.codeBlocks.get(`${turn}:${index}`);
    if (details === undefined) return;
    details.removeClass('is-running');
    // A step that failed is part of the work (the model reads the error and goes on), not an alarm.
    details.toggleClass('is-retried', !result.ok);
    const summary = details.querySelector('.recursa-code-summary-text');
    const steps = `${result.memCalls} ${result.memCalls === 1 ? 'vault call' : 'vault calls'}`;
    summary?.setText(result.ok ? `Worked in your notes · ${steps}` : `A step did not work: ${result.error?.message ?? 'error'}`);
    const body = details.querySelector('.recursa-code-body');
    if (!(body instanceof HTMLElement)) return;
    body.createDiv({ cls: 'recursa-code-heading', text: result.ok ? 'Result' : 'What went wrong' });
    const output = body.createDiv('recursa-code-result');
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
    this.reply = text;
    const wrap = this.el.createDiv('recursa-reply');
    this.el.insertBefore(wrap, this.tailEl);
    this.replyEl = wrap;
    const reply = wrap.createDiv({ cls: 'recursa-message recursa-message-agent markdown-rendered' });
    await renderModelMarkdown(this.app, text, reply, '', this.component);
    if (this.replyActions !== null) renderReplyActions(wrap, this.replyActions);
  }

  private showError(message: string, actions: ErrorActions, quiet: boolean): void {
    const row = renderError(this.tailEl, message, quiet, {
      ...actions,
      retry: () => {
        // The retry shows the request again; this exchange stays only for the changes it made.
        if (this.el.querySelector('.recursa-changes, .recursa-review') === null) this.el.detach();
        else row.detach();
        actions.retry();
      },
    });
  }
}
