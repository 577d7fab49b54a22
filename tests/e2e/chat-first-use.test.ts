// What a first use of the chat ran into, at desktop and at phone width: the view jumping to the
// bottom while the person reads, paths cut on both sides, a diff full of git headers, a bare list
// of conversations, Enter ignored during a run, small tap targets, low contrast. Screenshots of
// each state, light and dark, go to tests/e2e/screenshots/.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAT_WIDTHS, useChatSuite } from './harness/chatSuite';
import { answer } from './harness/chatVault';
import { contrastOf } from './helpers/contrast';

const LONG_PATH = 'Projects/Quarterly planning for the product launch and the marketing review/Launch checklist for Europe.md';

describe.each(CHAT_WIDTHS)('the chat at $width width', ({ width, viewport, phone }) => {
  const chat = useChatSuite({ tempPrefix: 'recursa-chat-first-', viewport, phone, width, openChat: true, beforeEachTimeoutMs: 30_000 });
  const { screenshot, input, send } = chat;

  const replies = () => chat.harness.page.locator('.recursa-message-agent');
  /** Where the top of the last reply is, relative to the top of the visible part of the conversation. */
  const lastReplyTop = (): Promise<number> =>
    chat.harness.page.evaluate(() => {
      const list = document.querySelector('.recursa-messages');
      const reply = Array.from(document.querySelectorAll('.recursa-message-agent')).at(-1);
      return reply === undefined || list === null ? Number.NaN : reply.getBoundingClientRect().top - list.getBoundingClientRect().top;
    });
  const longReply = (label: string): string => Array.from({ length: 40 }, (_, i) => `${label} paragraph ${i + 1}: the launch plan needs a date, an owner and a budget.`).join('\n\n');

  it('shows a long reply from its start, and leaves the person where they scrolled while a run streams', { timeout: 60_000 }, async () => {
    const { page } = chat.harness;
    chat.server.script([{ text: answer({ reply: longReply('First') }) }]);
    await send('Write the launch plan');
    await expect.poll(() => replies().count(), { timeout: 15_000 }).toBe(1);
    await page.waitForTimeout(200);
    // The top of the reply is in view, not cut off above.
    const top = await lastReplyTop();
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
    await screenshot('long-reply');

    // A second run streams slowly; the person scrolls up to read the first reply meanwhile.
    chat.server.script([{ text: answer({ think: 'Reading the launch plan again, slowly and with care.', reply: longReply('Second') }), chunkSizes: [24], delayMs: 20 }]);
    await send('Shorten it');
    await expect.poll(() => page.locator('.recursa-status-text').textContent(), { timeout: 15_000 }).toMatch(/^Reading/);
    await page.locator('.recursa-messages').evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect.poll(() => replies().count(), { timeout: 30_000 }).toBe(2);
    await page.waitForTimeout(200);
    expect(await page.locator('.recursa-messages').evaluate((el) => el.scrollTop)).toBe(0);
  });

  it('keeps the file name of a long path whole, and shows a diff without git headers, readable, under a title on one line', async () => {
    const { page } = chat.harness;
    chat.server.script([
      { text: answer({ code: `await mem.writeFile('${LONG_PATH}', '# Launch checklist\\n\\n- [ ] Book the venue\\n'); return 'ok';` }) },
      { text: answer({ reply: 'I wrote the checklist.' }) },
    ]);
    await send('Write a launch checklist for Europe');
    const chip = page.locator('.recursa-changes .recursa-file-chip');
    await expect.poll(() => chip.count(), { timeout: 15_000 }).toBe(1);
    await screenshot('long-path');
    const layout = await chip.evaluate((el) => {
      const name = el.querySelector<HTMLElement>('.recursa-path-name');
      const folder = el.querySelector<HTMLElement>('.recursa-path-folder');
      if (name === null || folder === null) return null;
      const box = el.getBoundingClientRect();
      const nameBox = name.getBoundingClientRect();
      return {
        nameWhole: name.scrollWidth <= name.clientWidth + 1 && nameBox.right <= box.right + 1 && nameBox.left >= box.left - 1,
        folderCut: folder.scrollWidth > folder.clientWidth,
        folderEllipsis: getComputedStyle(folder).textOverflow,
        name: name.textContent,
      };
    });
    expect(layout).toEqual({ nameWhole: true, folderCut: true, folderEllipsis: 'ellipsis', name: 'Launch checklist for Europe' });

    await chip.click();
    const diff = page.locator('.modal .recursa-diff');
    await expect.poll(() => diff.locator('.recursa-diff-added').count()).toBeGreaterThan(0);
    const lines = await diff.locator('.recursa-diff-line').allTextContents();
    expect(lines.filter((line) => /^(diff --git|index |--- |\+\+\+ |new file mode)/.test(line))).toEqual([]);
    expect(lines[0]).toBe('Line 1');
    expect(await diff.locator('.recursa-diff-added .recursa-diff-text').allTextContents()).toEqual(['# Launch checklist', ' ', '- [ ] Book the venue']);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      for (const reading of await contrastOf(page, '.recursa-diff-text, .recursa-diff-hunk')) expect(reading.ratio, `${theme}: ${reading.text}`).toBeGreaterThanOrEqual(4.5);
    }
    const title = page.locator('.modal .recursa-diff-title');
    const { height, lineHeight } = await title.evaluate((el) => ({ height: el.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(el).lineHeight) || 24 }));
    expect(height).toBeLessThan(lineHeight * 1.6);
    const name = title.locator('.recursa-path-name');
    expect(await name.textContent()).toBe('Launch checklist for Europe');
    // The file's name is whole; the folder gives way.
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= (el.closest('.modal')?.getBoundingClientRect().right ?? 0))).toBe(true);
    await screenshot('diff-modal');
  });

  it('lists past conversations with search, relative dates, rename and delete', async () => {
    const { page } = chat.harness;
    chat.server.script([{ text: answer({ reply: 'Alpha ships on Friday.' }) }, { text: answer({ reply: 'Sam works on Alpha.' }) }]);
    await send('When does Alpha ship?');
    await expect.poll(() => replies().count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('Who is Sam?');
    await expect.poll(() => replies().count(), { timeout: 15_000 }).toBe(1);

    await page.getByRole('button', { name: 'Past conversations' }).click();
    const titles = page.locator('.recursa-conversation-title');
    await expect.poll(() => titles.allTextContents()).toEqual(['Who is Sam?', 'When does Alpha ship?']);
    expect(await page.locator('.recursa-conversation-date').allTextContents()).toEqual(['just now', 'just now']);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      const readings = await contrastOf(page, '.modal *');
      expect(readings.length).toBeGreaterThan(2);
      const low = readings.filter((reading) => reading.ratio < 4.5);
      expect(low, theme).toEqual([]);
    }
    await screenshot('conversations');
    await page.keyboard.type('alpha');
    await expect.poll(() => titles.allTextContents()).toEqual(['When does Alpha ship?']);

    await page.getByRole('button', { name: 'Rename "When does Alpha ship?"' }).click();
    const titleInput = page.getByRole('textbox', { name: 'New title' });
    await titleInput.fill('Alpha launch date');
    await titleInput.press('Enter');
    // The open list shows the new title at once.
    await expect.poll(() => titles.allTextContents()).toEqual(['Alpha launch date']);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Past conversations' }).click();
    await expect.poll(() => titles.allTextContents()).toEqual(['Who is Sam?', 'Alpha launch date']);
    // From the keyboard: Shift+Enter renames the selected conversation; Escape closes only that.
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => titleInput.inputValue()).toBe('Who is Sam?');
    await page.keyboard.press('Escape');
    expect(await titleInput.count()).toBe(0);
    expect(await titles.count()).toBe(2);

    await page.getByRole('button', { name: 'Delete "Who is Sam?"' }).click();
    await screenshot('conversation-delete');
    await page.locator('.modal').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => titles.allTextContents()).toEqual(['Alpha launch date']);
    const files = await readdir(join(chat.dir, '.obsidian', 'plugins', 'recursa', 'conversations'));
    expect(files.filter((name) => name.endsWith('.json'))).toHaveLength(1);
    // The open conversation was the deleted one: the chat starts afresh.
    await page.keyboard.press('Escape');
    expect(await page.locator('.recursa-empty').count()).toBe(1);
  });

  it('says why Enter does not send while a run works, keeps the message, and Escape stops the run', async () => {
    const { page } = chat.harness;
    chat.server.script([{ text: answer({ think: 'Looking through every note.' }) }, { hang: true }]);
    await send('Find every open task');
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 15_000 }).toBe(1);
    await input().fill('And the deadlines');
    await input().press('Enter');
    expect(await input().inputValue()).toBe('And the deadlines');
    expect(await page.locator('.recursa-hint').textContent()).toBe('The agent is still working on the last request. Wait for it, or press Stop (Esc) first; your message stays here.');
    await screenshot('busy-hint');
    await input().press('Escape');
    await expect.poll(() => page.locator('.recursa-run-error-text').textContent(), { timeout: 5_000 }).toBe('Stopped.');
    expect(await page.locator('.recursa-hint').isVisible()).toBe(false);
    await input().press('Enter');
    await expect.poll(() => page.locator('.recursa-message-user .recursa-message-text').allTextContents()).toEqual(['Find every open task', 'And the deadlines']);
  });

  it('has named controls with a visible focus ring, tap targets of 32 px on a phone, narrower bubbles, and readable text', async () => {
    const { page } = chat.harness;
    chat.server.script([
      { text: answer({ code: "const text = await mem.readFile('Inbox.md');\nawait mem.updateFile('Inbox.md', text, text + 'Done.\\n');\nreturn 'ok';" }) },
      { text: answer({ reply: 'Marked it done.' }) },
    ]);
    await send('Mark the inbox as done');
    await expect.poll(() => page.locator('.recursa-changes').count(), { timeout: 15_000 }).toBe(1);
    await page.locator('details.recursa-code summary').click();

    const controls = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.recursa-chat button, .recursa-chat summary, .recursa-chat a, .recursa-chat textarea')).map((el) => ({
        name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
        height: el.getBoundingClientRect().height,
        focusable: el.tabIndex >= 0,
      })),
    );
    expect(controls.filter((control) => control.name === '' || !control.focusable)).toEqual([]);
    if (phone) expect(controls.filter((control) => control.height < 32)).toEqual([]);

    // Tabbing through the exchange: each control shows a focus ring.
    await page.locator('details.recursa-code summary').focus();
    const rings: { name: string; ring: boolean }[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      rings.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          const style = el === null ? null : getComputedStyle(el);
          return { name: el?.getAttribute('aria-label') ?? el?.textContent ?? '', ring: el !== null && el.matches(':focus-visible') && style?.outlineStyle === 'solid' && parseFloat(style.outlineWidth) >= 2 };
        }),
      );
    }
    expect(rings.filter((entry) => !entry.ring)).toEqual([]);

    // The person's bubble leaves room on the left, on a phone too.
    const ratio = await page.evaluate(() => {
      const bubble = document.querySelector('.recursa-message-user');
      const list = document.querySelector('.recursa-messages');
      return bubble === null || list === null ? 1 : bubble.getBoundingClientRect().width / list.clientWidth;
    });
    expect(ratio).toBeLessThanOrEqual(0.9);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      // Code is coloured by the theme's syntax highlighting, not by the chat.
      const low = (await contrastOf(page, '.recursa-chat *:not(.recursa-code-source *)')).filter((reading) => reading.ratio < 4.5);
      expect(low, theme).toEqual([]);
    }
    await screenshot('accessible');
  });
});
