// The chat as a person uses it, at desktop and at phone width: the empty state, notes attached with
// the picker, the sources under a reply, copying / inserting / saving a reply, errors that say what
// to do, and the rough edges a first use ran into (scrolling, long paths, the diff, the list of
// conversations). Screenshots of each state, light and dark, go to tests/e2e/screenshots/.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import type { ScriptedReply } from '../helpers/modelServer';
import { CHAT_WIDTHS, useChatSuite } from './harness/chatSuite';
import { answer, NOTES } from './harness/chatVault';
import { contrastOf } from './helpers/contrast';

const ALPHA = 'Projects/Alpha.md';
const SAM = 'People/Sam.md';

describe.each(CHAT_WIDTHS)('the chat at $width width', ({ width, viewport, phone }) => {
  const chat = useChatSuite({ tempPrefix: 'recursa-chat-ux-', viewport, phone, width, beforeEachTimeoutMs: 30_000 });
  const { screenshot, openChat, input, send } = chat;

  const lastUser = (at = -1): string => {
    const body = chat.server.requests.at(at)?.body as { messages: { role: string; content: string }[] } | undefined;
    return body?.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  };
  const openedSettingsTab = (): Promise<string | null | undefined> => chat.harness.page.evaluate(() => window.recursaHarness?.app().setting.openedTab);
  const replyText = () => chat.harness.page.locator('.recursa-message-agent').last().textContent();

  it('shows the model in use and three starter prompts that fit the vault; a starter sends its note along', async () => {
    const { page } = chat.harness;
    await page.evaluate(() => window.recursaHarness?.openNote('Projects/Alpha.md'));
    await openChat();
    const model = page.locator('.recursa-empty-model');
    expect(await model.textContent()).toBe('Custom (OpenAI-compatible) · test-model');
    const starters = page.locator('.recursa-starter');
    expect(await starters.allTextContents()).toEqual(['Summarise Alpha in a few bullet points', 'Find notes in People that still have open tasks', 'What did I work on this week?']);
    await screenshot('empty-state');

    await page.getByRole('button', { name: 'Model: Custom (OpenAI-compatible) · test-model. Open settings' }).click();
    expect(await openedSettingsTab()).toBe('recursa');

    chat.server.script([{ text: answer({ reply: 'Alpha ships on Friday.' }) }]);
    await starters.first().click();
    await expect.poll(replyText, { timeout: 15_000 }).toBe('Alpha ships on Friday.');
    expect(await page.locator('.recursa-message-user .recursa-message-text').textContent()).toBe('Summarise Alpha in a few bullet points');
    expect(await page.locator('.recursa-message-user .recursa-context-chip').textContent()).toBe('Projects/Alpha');
    expect(lastUser()).toContain(`<note path="${ALPHA}">\n${NOTES[ALPHA]}\n</note>`);
  });

  it('attaches notes and folders picked with @ and [[, with their token counts; the title and the commit keep only what was typed', async () => {
    const { page } = chat.harness;
    await openChat();
    await input().focus();
    await page.keyboard.type('Compare @');
    const picker = page.locator('.recursa-note-picker');
    await expect.poll(() => picker.count()).toBe(1);
    await page.keyboard.type('sam');
    expect(await picker.locator('.suggestion-item').first().textContent()).toBe('People/Sam');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      const readings = await contrastOf(page, '.recursa-note-picker *');
      expect(readings.length).toBeGreaterThan(2);
      const low = readings.filter((reading) => reading.ratio < 4.5);
      expect(low, theme).toEqual([]);
    }
    await page.evaluate(() => window.recursaHarness?.setTheme('light'));
    await screenshot('note-picker');
    await page.keyboard.press('Enter');
    await expect.poll(() => picker.count()).toBe(0);
    expect(await input().inputValue()).toBe('Compare ');
    await page.keyboard.type('with [[');
    await expect.poll(() => picker.count()).toBe(1);
    await page.keyboard.type('proj');
    // Folders are found like notes.
    expect(await picker.locator('.suggestion-item').allTextContents()).toEqual(expect.arrayContaining(['Projects/', 'Projects/Alpha']));
    await picker.getByRole('option', { name: 'Folder Projects/' }).click();
    await expect.poll(() => picker.count()).toBe(0);
    await page.keyboard.type('the launch plan');
    expect(await input().inputValue()).toBe('Compare with the launch plan');

    const chips = page.locator('.recursa-context .recursa-context-chip');
    await expect.poll(() => chips.locator('.recursa-context-tokens').allTextContents()).toEqual([expect.stringMatching(/^\d+ tokens$/), expect.stringMatching(/^\d+ tokens$/)]);
    expect(await chips.locator('.recursa-context-name').allTextContents()).toEqual(['People/Sam', 'Projects/']);
    await screenshot('attached-notes');
    // A chip can be taken off again.
    await page.locator('.recursa-context').getByRole('button', { name: 'Remove Projects from the request' }).click();
    expect(await chips.locator('.recursa-context-name').allTextContents()).toEqual(['People/Sam']);
    await page.keyboard.type(' for Sam');

    chat.server.script([
      { text: answer({ code: "const text = await mem.readFile('Inbox.md');\nawait mem.updateFile('Inbox.md', text, text + 'Compared.\\n');\nreturn 'ok';" }) },
      { text: answer({ reply: 'Sam is on track.' }) },
    ]);
    await input().press('Enter');
    await expect.poll(replyText, { timeout: 15_000 }).toBe('Sam is on track.');
    const sent = lastUser(0);
    expect(sent).toContain(`\n- ${SAM}`);
    expect(sent).toContain(`<note path="${SAM}">\n${NOTES[SAM]}\n</note>`);
    expect(sent.endsWith('\n\nCompare with the launch plan for Sam')).toBe(true);
    expect(await chips.count()).toBe(0);

    // The commit and the conversation's title hold what the person typed, nothing of the notes.
    await expect.poll(() => gitCli(chat.dir, 'log', '-1', '--format=%s').trim()).toBe('Recursa: Compare with the launch plan for Sam');
    expect(gitCli(chat.dir, 'log', '-1', '--format=%B')).not.toMatch(/attached|<note/);
    await page.getByRole('button', { name: 'Past conversations' }).click();
    await expect.poll(() => page.locator('.recursa-conversation-title').allTextContents()).toEqual(['Compare with the launch plan for Sam']);
    await page.locator('.recursa-conversation-item').click();
    // Shown again, the request is what was typed, with its chip.
    await expect.poll(() => page.locator('.recursa-message-user .recursa-message-text').allTextContents()).toEqual(['Compare with the launch plan for Sam']);
    expect(await page.locator('.recursa-message-user .recursa-context-chip').allTextContents()).toEqual(['People/Sam']);
  });

  it('lists the notes the agent read and changed under its reply, marked apart, as links that open them', async () => {
    const { page } = chat.harness;
    await openChat();
    chat.server.script([
      {
        text: answer({
          code: `const sam = await mem.readFile('${SAM}');\nconst text = await mem.readFile('${ALPHA}');\nawait mem.updateFile('${ALPHA}', text, text + '- [ ] Call Sam\\n');\nreturn sam.length;`,
        }),
      },
      { text: answer({ reply: 'Added a task to call Sam.' }) },
    ]);
    await send('Add a task to call Sam');
    const sources = page.locator('.recursa-sources');
    await expect.poll(() => sources.count(), { timeout: 15_000 }).toBe(1);
    expect(await sources.locator('.recursa-source.is-changed .recursa-path').evaluateAll((els) => els.map((el) => el.getAttribute('title')))).toEqual([ALPHA]);
    expect(await sources.locator('.recursa-source.is-read .recursa-path').evaluateAll((els) => els.map((el) => el.getAttribute('title')))).toEqual([SAM]);
    expect(await sources.locator('.recursa-source-kind').allTextContents()).toEqual(['changed', 'read']);
    await screenshot('sources');
    await sources.getByRole('link', { name: `Read: ${SAM}. Open it` }).click();
    await expect.poll(() => page.evaluate(() => window.recursaHarness?.activeFile())).toBe(SAM);
  });

  it('copies, inserts at the cursor and saves a reply as a note, each from the keyboard', async () => {
    const { page } = chat.harness;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: 'https://recursa.test' });
    await page.evaluate(() => window.recursaHarness?.openNote('Inbox.md'));
    await openChat();
    const reply = 'Call **Sam** today.\n\n- [ ] Book the room';
    chat.server.script([{ text: answer({ reply }) }]);
    await send('What should I do today?');
    await expect.poll(() => page.locator('.recursa-reply-actions').count(), { timeout: 15_000 }).toBe(1);

    // Into the row by keyboard: Tab from Copy reaches Insert, with a visible focus ring.
    const copy = page.getByRole('button', { name: 'Copy the reply as Markdown' });
    await copy.focus();
    await page.keyboard.press('Tab');
    const insert = page.getByRole('button', { name: 'Insert the reply at the cursor in the active note' });
    expect(await insert.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle === 'solid')).toBe(true);
    await screenshot('reply-actions');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(reply);

    await insert.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => readFile(join(chat.dir, 'Inbox.md'), 'utf8')).toBe(`${NOTES['Inbox.md']}${reply}`);

    await page.getByRole('button', { name: 'Save the reply as a new note' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => readFile(join(chat.dir, 'What should I do today.md'), 'utf8').catch(() => null)).toBe(`${reply}\n`);
    await expect.poll(() => page.evaluate(() => window.recursaHarness?.activeFile())).toBe('What should I do today.md');
  });

  const FAILURES: { kind: string; replies: ScriptedReply[]; sentence: string; fix: string | null; raw: string }[] = [
    { kind: 'auth', replies: [{ status: 401 }], sentence: "The provider did not accept the API key. Check the key in Recursa's settings.", fix: 'Open settings', raw: 'Incorrect API key provided' },
    {
      kind: 'quota',
      replies: [{ status: 429, body: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } } }],
      sentence: 'Your account with the provider has run out of quota. Check your plan, or choose another provider.',
      fix: 'Open settings',
      raw: 'You exceeded your current quota',
    },
    { kind: 'model-not-found', replies: [{ status: 404 }], sentence: "The model in Recursa's settings is not available at this provider. Choose another model.", fix: 'Choose a model', raw: 'does not exist' },
    {
      kind: 'context-too-long',
      replies: [{ status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } }],
      sentence: 'The conversation is too long for the model. Start a new chat, or attach fewer notes.',
      fix: 'New chat',
      raw: 'maximum context length',
    },
    {
      kind: 'unreachable',
      replies: Array.from({ length: 6 }, () => ({ dropConnection: true }) as const),
      sentence: "Recursa could not reach the model's server. Check that it is running and the address is right, then try again.",
      fix: null,
      raw: 'broke',
    },
  ];

  it('says what went wrong in a plain sentence, with the action that fixes it and the server text behind Details', async () => {
    const { page } = chat.harness;
    await openChat();
    for (const failure of FAILURES) {
      chat.server.script(failure.replies);
      await send(`Summarise my inbox (${failure.kind})`);
      const error = page.locator('.recursa-run-error');
      await expect.poll(() => error.locator('.recursa-run-error-text').textContent(), { timeout: 30_000 }).toBe(failure.sentence);
      expect(await error.getAttribute('role')).toBe('alert');
      const buttons = await error.locator('.recursa-run-error-actions button').allTextContents();
      expect(buttons).toEqual(failure.fix === null ? ['Retry'] : [failure.fix, 'Retry']);
      const details = error.locator('.recursa-error-details');
      expect(await details.getAttribute('open')).toBeNull();
      await details.locator('summary').click();
      expect(await details.locator('.recursa-error-raw').textContent()).toContain(failure.raw);
      // Readable text, not an all-red box.
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
        for (const reading of await contrastOf(page, '.recursa-run-error-text, .recursa-error-raw')) expect(reading.ratio, `${theme}: ${reading.text}`).toBeGreaterThanOrEqual(4.5);
      }
      await page.evaluate(() => window.recursaHarness?.setTheme('light'));
      await screenshot(`error-${failure.kind}`);
      if (failure.fix === 'Open settings' || failure.fix === 'Choose a model') {
        await error.getByRole('button', { name: failure.fix }).click();
        expect(await openedSettingsTab()).toBe('recursa');
        await page.evaluate(() => window.recursaHarness?.app().setting.close());
      }
      if (failure.fix === 'New chat') {
        await error.getByRole('button', { name: 'New chat' }).click();
        expect(await page.locator('.recursa-empty').count()).toBe(1);
      } else await page.getByRole('button', { name: 'New chat' }).click();
    }
  });
});
