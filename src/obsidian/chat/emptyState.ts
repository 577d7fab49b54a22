import { setIcon, type App } from 'obsidian';

/** A starter prompt of the empty chat: its text, and the note to attach with it. */
export interface StarterPrompt {
  text: string;
  attach: string | null;
}

export interface EmptyStateOptions {
  /** `OpenAI · gpt-4o-mini`: what answers, shown as a button that opens the settings. */
  model: string;
  openSettings: () => void;
  start: (prompt: StarterPrompt) => void;
}

/** Three prompts that fit the vault: the active note, its biggest folder, the week's work. */
export function starterPrompts(app: App): StarterPrompt[] {
  const prompts: StarterPrompt[] = [];
  const active = app.workspace.getActiveFile();
  if (active !== null) prompts.push({ text: `Summarise ${active.basename} in a few bullet points`, attach: active.path });
  const counts = new Map<string, number>();
  for (const note of app.vault.getMarkdownFiles()) {
    const top = note.path.includes('/') ? (note.path.split('/', 1)[0] ?? '') : '';
    if (top !== '') counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  const folder = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
  prompts.push({ text: folder === undefined ? 'Find my notes that mention a deadline' : `Find notes in ${folder} that still have open tasks`, attach: null });
  prompts.push({ text: 'What did I work on this week?', attach: null });
  if (active === null) prompts.push({ text: 'Which notes link to each other the most?', attach: null });
  return prompts.slice(0, 3);
}

/** The empty chat: what it is, which model answers (a click opens the settings), and three starter prompts. */
export function renderEmptyState(parent: HTMLElement, app: App, options: EmptyStateOptions): HTMLElement {
  const empty = parent.createDiv('recursa-empty');
  setIcon(empty.createDiv('recursa-empty-icon'), 'bot');
  empty.createDiv({ cls: 'recursa-empty-title', text: 'Ask Recursa about your notes' });
  empty.createDiv({ cls: 'recursa-empty-text', text: 'It reads and edits the vault for you. Every change is saved in the vault\'s history, where you can look at it and undo it.' });
  const model = empty.createEl('button', { cls: 'recursa-empty-model', attr: { 'aria-label': `Model: ${options.model}. Open settings` } });
  setIcon(model.createSpan('recursa-empty-model-icon'), 'cpu');
  model.createSpan({ text: options.model });
  model.addEventListener('click', () => options.openSettings());
  const list = empty.createDiv({ cls: 'recursa-starters', attr: { role: 'group', 'aria-label': 'Starter prompts' } });
  for (const prompt of starterPrompts(app)) {
    const button = list.createEl('button', { cls: 'recursa-starter', text: prompt.text });
    button.addEventListener('click', () => options.start(prompt));
  }
  return empty;
}
