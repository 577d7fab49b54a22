// The chat view in headless Chromium: the real plugin over the test obsidian module, a real vault
// folder with a real git history, the scripted model server. Screenshots of every state, light
// and dark, go to tests/e2e/screenshots/.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { useChatSuite } from './harness/chatSuite';
import { answer, NOTES } from './harness/chatVault';

const ALPHA = 'Projects/Alpha.md';
/** The notes (the plugin's own folder holds conversations and the index cache, outside the notes). */
const NOTE_FOLDERS = ['Projects', 'People', 'Inbox.md'];
const ADD_TASK = `const text = await mem.readFile('${ALPHA}');
// Add the call to the task list.
await mem.updateFile('${ALPHA}', text, text + '- [ ] Call Sam about the launch\\n');
return { updated: '${ALPHA}' };`;

describe('the chat view in a browser', () => {
  const chat = useChatSuite({ tempPrefix: 'recursa-chat-' });
  const { screenshot, send } = chat;

  it('shows a request through: think status, code block, reply, changes; revert restores the file', async () => {
    const { page } = chat.harness;
    chat.server.script([
      // Streamed in small pieces, so the think line grows as the person watches.
      { text: answer({ think: 'Reading the Alpha project note.', code: ADD_TASK }), chunkSizes: [5], delayMs: 30 },
      { text: answer({ think: 'Done; telling the user.', reply: 'I added **Call Sam about the launch** to [[Projects/Alpha]].' }) },
    ]);
    await page.evaluate(() => window.recursaHarness?.openNote('Projects/Alpha.md'));
    await page.getByRole('button', { name: 'Open agent chat' }).click();
    await screenshot('empty');
    // Record every status text and code block as they appear, to prove the person saw them.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        for (const el of Array.from(document.querySelectorAll('.recursa-status-text, .recursa-code-summary-text'))) {
          const text = el.textContent ?? '';
          if (seen.at(-1) !== text && !seen.includes(text)) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const input = page.getByRole('textbox', { name: 'Message to the agent' });
    await input.fill('Add a task to call Sam to the Alpha project');
    await input.press('Enter');

    const reply = page.locator('.recursa-message-agent');
    await expect.poll(() => reply.textContent(), { timeout: 15_000 }).toContain('I added Call Sam about the launch to Projects/Alpha.');
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen).toContain('Reading the Alpha project note.');
    const partial = seen.filter((text) => text !== 'Reading the Alpha project note.' && text.length > 0 && 'Reading the Alpha project note.'.startsWith(text));
    expect(partial.length).toBeGreaterThan(0);
    expect(seen.some((text) => text.startsWith('Worked in your notes · 2 vault calls'))).toBe(true);
    expect(await reply.locator('strong').textContent()).toBe('Call Sam about the launch');

    const code = page.locator('details.recursa-code');
    expect(await code.count()).toBe(1);
    expect(await code.getAttribute('open')).toBeNull();
    await code.locator('summary').click();
    expect(await code.locator('.token.keyword').first().textContent()).toBe('const');
    expect(await code.locator('.recursa-code-result').textContent()).toContain('"updated": "Projects/Alpha.md"');

    const changes = page.locator('.recursa-changes');
    await expect.poll(() => changes.count()).toBe(1);
    expect(await changes.locator('.recursa-file-chip').allTextContents()).toEqual(['Projects/Alpha']);
    expect(await changes.locator('.recursa-file-chip .recursa-path').getAttribute('title')).toBe(ALPHA);
    expect(await page.locator('.recursa-usage').textContent()).toMatch(/^2 steps · [\d.]+k? tokens · 2 vault calls$/);
    await screenshot('reply');

    const changed = await readFile(join(chat.dir, ALPHA), 'utf8');
    expect(changed).toBe(`${NOTES[ALPHA]}- [ ] Call Sam about the launch\n`);
    expect(gitCli(chat.dir, 'status', '--porcelain', '--', ...NOTE_FOLDERS)).toBe('');
    expect(gitCli(chat.dir, 'log', '-1', '--format=%s')).toContain('Recursa: Add a task to call Sam');

    // The file's diff.
    await changes.getByRole('button', { name: `Show the changes to ${ALPHA}` }).click();
    const diff = page.locator('.recursa-diff');
    await expect.poll(() => diff.locator('.recursa-diff-added').allTextContents()).toEqual(['+- [ ] Call Sam about the launch']);
    await screenshot('diff');
    await page.keyboard.press('Escape');
    expect(await page.locator('.modal-container').count()).toBe(0);

    // Revert asks first; cancelling changes nothing.
    await changes.getByRole('button', { name: 'Revert the changes of this run' }).click();
    await screenshot('revert-confirm');
    await page.locator('.modal').getByRole('button', { name: 'Cancel' }).click();
    expect(await readFile(join(chat.dir, ALPHA), 'utf8')).toBe(changed);
    await changes.getByRole('button', { name: 'Revert the changes of this run' }).click();
    await page.locator('.modal').getByRole('button', { name: 'Revert' }).click();
    await expect.poll(() => changes.getAttribute('class')).toContain('is-reverted');
    expect(await readFile(join(chat.dir, ALPHA), 'utf8')).toBe(NOTES[ALPHA]);
    expect(gitCli(chat.dir, 'log', '-1', '--format=%s').trim()).toBe('Revert "Recursa: Add a task to call Sam to the Alpha project"');
    expect(gitCli(chat.dir, 'status', '--porcelain', '--', ...NOTE_FOLDERS)).toBe('');
    expect(gitCli(chat.dir, 'show', `HEAD:${ALPHA}`)).toBe(NOTES[ALPHA]);
    gitCli(chat.dir, 'fsck', '--strict');
    await screenshot('reverted');
    expect(chat.harness.pageErrors).toEqual([]);
  });

  /** Opens the chat from the ribbon, as a person at a desktop does. */
  const openChat = async (): Promise<void> => {
    await chat.harness.page.getByRole('button', { name: 'Open agent chat' }).click();
  };

  it('stops a long run at once when the person presses Stop', async () => {
    const { page } = chat.harness;
    chat.server.script([{ text: answer({ think: 'Looking through every project note.', code: ADD_TASK }) }, { hang: true }]);
    await page.evaluate(() => window.recursaHarness?.openNote('Projects/Alpha.md'));
    await openChat();
    await send('Add a task to call Sam to the Alpha project');
    const status = page.locator('.recursa-status');
    await expect.poll(() => page.locator('.recursa-code-summary-text').textContent(), { timeout: 15_000 }).toMatch(/^Worked in your notes/);
    await expect.poll(() => status.locator('.recursa-status-text').textContent()).toBe('Looking through every project note.');
    await expect.poll(() => chat.server.requests.length).toBe(2);
    await screenshot('working');

    const started = Date.now();
    await page.getByRole('button', { name: 'Stop' }).click();
    const stopped = page.locator('.recursa-run-error-text');
    await expect.poll(() => stopped.textContent(), { timeout: 5_000 }).toBe('Stopped.');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await status.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Retry this request' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);
    // What the agent had changed is committed, naming the cancelled run; nothing else was asked.
    await expect.poll(() => page.locator('.recursa-changes .recursa-file-chip').allTextContents()).toEqual(['Projects/Alpha']);
    expect(gitCli(chat.dir, 'log', '-1', '--format=%B')).toContain('was cancelled');
    expect(gitCli(chat.dir, 'status', '--porcelain', '--', ...NOTE_FOLDERS)).toBe('');
    expect(chat.server.requests.length).toBe(2);
    await screenshot('stopped');
    expect(chat.harness.pageErrors).toEqual([]);
  });

  it('keeps a reply with HTML and script inert, and its note links open notes', async () => {
    const { page } = chat.harness;
    const payload = [
      'Found it: <img src=x onerror="window.xssCount = (window.xssCount || 0) + 1"> and <script>window.xssCount = (window.xssCount || 0) + 1</script>',
      '',
      '<iframe srcdoc="<script>parent.xssCount = (parent.xssCount || 0) + 1</script>"></iframe><svg onload="window.xssCount = (window.xssCount || 0) + 1"></svg>',
      '',
      '[a link](javascript:window.xssCount=1), [[Projects/Alpha|the Alpha note]] and `<b>code</b>`.',
    ].join('\n');
    chat.server.script([{ text: answer({ think: 'Answering.', reply: payload }) }]);
    await openChat();
    await send('What is in my notes?');
    const reply = page.locator('.recursa-message-agent');
    await expect.poll(() => reply.count(), { timeout: 15_000 }).toBe(1);
    await page.waitForTimeout(300);
    expect(await reply.locator('img, script, iframe, svg').count()).toBe(0);
    const text = (await reply.textContent()) ?? '';
    expect(text).toContain('Found it: <img src=x onerror="window.xssCount = (window.xssCount || 0) + 1">');
    expect(text).toContain('<script>window.xssCount');
    expect(await reply.locator('code').textContent()).toBe('<b>code</b>');
    const jsLink = reply.getByText('a link');
    expect(await jsLink.getAttribute('href')).toBeNull();
    await jsLink.click();
    await screenshot('xss');
    expect(await page.evaluate(() => (window as unknown as { xssCount?: number }).xssCount)).toBeUndefined();

    // The same reply through the test MarkdownRenderer with no neutralising does run: the test can fail.
    await page.evaluate((markdown) => window.recursaHarness?.renderUnsafely(markdown), payload);
    // Every vector counts up, so the count does not depend on the order the browser runs them in;
    // the image's error event waits for its failed load, which a busy machine can delay.
    await expect.poll(() => page.evaluate(() => (window as unknown as { xssCount?: number }).xssCount ?? 0), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

    await reply.getByText('the Alpha note').click();
    await expect.poll(() => page.evaluate(() => window.recursaHarness?.activeFile())).toBe(ALPHA);
  });

  it('sends with Enter, breaks lines with Shift+Enter, recalls the last request with ArrowUp', async () => {
    const { page } = chat.harness;
    chat.server.script([{ text: answer({ reply: 'Noted.' }) }]);
    await openChat();
    const input = page.getByRole('textbox', { name: 'Message to the agent' });
    await input.focus();
    await page.keyboard.type('First line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await input.inputValue()).toBe('First line\nsecond line');
    expect(chat.server.requests.length).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('Noted.');
    expect(await input.inputValue()).toBe('');
    expect(await page.locator('.recursa-message-user .recursa-message-text').textContent()).toBe('First line\nsecond line');
    const sent = chat.server.requests[0]?.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'First line\nsecond line' });
    await page.keyboard.press('ArrowUp');
    expect(await input.inputValue()).toBe('First line\nsecond line');

    // Every control of the view is reachable by keyboard and has a name for screen readers.
    const unnamed = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('[data-type="recursa-chat"] button, [data-type="recursa-chat"] [role="button"], [data-type="recursa-chat"] textarea, [data-type="recursa-chat"] summary'))
        .filter((el) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() === '' || el.tabIndex < 0)
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    await input.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Send');
  });

  it('shows a code block that failed with its error, and the model going on from it', async () => {
    const { page } = chat.harness;
    chat.server.script([
      { text: answer({ think: 'Opening the meeting note.', code: "return await mem.readFile('Meetings/Monday.md');" }) },
      { text: answer({ think: 'It does not exist; listing notes.', code: "return await mem.listFiles('');" }) },
      { text: answer({ reply: 'There is no Monday meeting note.' }) },
    ]);
    await openChat();
    await send('What did we decide on Monday?');
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('There is no Monday meeting note.');
    const blocks = page.locator('details.recursa-code');
    expect(await blocks.count()).toBe(2);
    const failed = blocks.nth(0);
    // A failed step is part of the work (the model goes on from it), not an alarm.
    expect(await failed.getAttribute('class')).toContain('is-retried');
    expect(await failed.locator('.recursa-code-summary-text').textContent()).toMatch(/^A step did not work: .*Meetings\/Monday\.md/);
    await failed.locator('summary').click();
    expect(await failed.locator('.recursa-code-result').textContent()).toBe('NotFoundError (line 1): No file or folder at "Meetings/Monday.md". Check the path with mem.listFiles or mem.fileExists.');
    expect(await blocks.nth(1).getAttribute('class')).not.toContain('is-retried');
    // The model was told what went wrong.
    const second = chat.server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(second.messages.at(-1)?.content).toMatch(/^\[Execution Error\]/);
    await screenshot('code-error');
  });

  it('shows a failed request inline with a Retry that runs it again', async () => {
    const { page } = chat.harness;
    chat.server.script([{ status: 401 }]);
    await openChat();
    await send('Summarise my inbox');
    const error = page.locator('.recursa-run-error-text');
    // A plain sentence and the action that fixes it; the server's own text behind a disclosure.
    await expect.poll(() => error.textContent(), { timeout: 15_000 }).toBe("The provider did not accept the API key. Check the key in Recursa's settings.");
    expect(await page.getByRole('button', { name: 'Open settings' }).count()).toBe(1);
    const raw = page.locator('.recursa-error-details');
    expect(await raw.getAttribute('open')).toBeNull();
    expect(await raw.locator('.recursa-error-raw').textContent()).toContain('Incorrect API key provided');
    await screenshot('error');
    chat.server.script([{ text: answer({ reply: 'Your inbox says to call Sam.' }) }]);
    await page.getByRole('button', { name: 'Retry this request' }).click();
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('Your inbox says to call Sam.');
    expect(await page.locator('.recursa-run-error').count()).toBe(0);
    const retried = chat.server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(retried.messages.filter((message) => message.role === 'user').map((message) => message.content)).toContain('Summarise my inbox');
  });

  it('starts a new chat and resumes a past conversation where it left off', async () => {
    const { page } = chat.harness;
    chat.server.script([{ text: answer({ reply: 'Alpha ships on Friday.' }) }]);
    await openChat();
    await send('When does Alpha ship?');
    await expect.poll(() => page.locator('.recursa-message-agent').textContent(), { timeout: 15_000 }).toBe('Alpha ships on Friday.');
    await page.getByRole('button', { name: 'New chat' }).click();
    expect(await page.locator('.recursa-run').count()).toBe(0);
    expect(await page.locator('.recursa-empty').count()).toBe(1);

    await page.getByRole('button', { name: 'Past conversations' }).click();
    const item = page.locator('.recursa-conversation-item');
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.locator('.recursa-conversation-title').textContent()).toBe('When does Alpha ship?');
    await screenshot('conversations');
    await item.click();
    await expect.poll(() => page.locator('.recursa-message-agent').textContent()).toBe('Alpha ships on Friday.');
    expect(await page.locator('.recursa-message-user .recursa-message-text').textContent()).toBe('When does Alpha ship?');

    chat.server.script([{ text: answer({ reply: 'Sam works on it.' }) }]);
    await send('Who works on it?');
    await expect.poll(() => page.locator('.recursa-message-agent').count(), { timeout: 15_000 }).toBe(2);
    const body = chat.server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(body.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['When does Alpha ship?', 'Who works on it?']);

    // The same view on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.recursaHarness?.setPhone(true));
    await screenshot('phone');
  });
});
