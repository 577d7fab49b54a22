// Review before commit, at desktop and at phone width: with the switch in the chat's header on, a
// run's changes stay uncommitted and show as diffs with Keep and Undo; undone files are restored
// exactly, kept ones become the run's commit, and a review left open survives a restart. The git
// CLI checks every step. Screenshots, light and dark, go to tests/e2e/screenshots/.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { contrastOf } from './helpers/contrast';
import { CHAT_WIDTHS, useChatSuite } from './harness/chatSuite';
import { answer, NOTES } from './harness/chatVault';

const ALPHA = 'Projects/Alpha.md';
const BETA = 'Projects/Beta.md';
const WRITE_TWO = `const text = await mem.readFile('${ALPHA}');
await mem.updateFile('${ALPHA}', text, text + '- [ ] Plan Beta\\n');
await mem.writeFile('${BETA}', '# Beta\\n\\nThe next project.\\n');
return 'ok';`;

describe.each(CHAT_WIDTHS)('review before commit at $width width', ({ width, viewport, phone }) => {
  const chat = useChatSuite({ tempPrefix: 'recursa-review-', viewport, phone, width, openChat: true, beforeEachTimeoutMs: 30_000 });
  const { screenshot, openChat, input, send } = chat;

  const settingsFile = (): Promise<{ reviewChanges?: boolean }> => readFile(join(chat.dir, '.obsidian', 'plugins', 'recursa', 'data.json'), 'utf8').then((text) => JSON.parse(text) as { reviewChanges?: boolean });
  /** HEAD once the first snapshot of the vault is committed (it runs in the background at start). */
  const headAfterSnapshot = async (): Promise<string> => {
    const head = (): string | null => {
      try {
        return gitCli(chat.dir, 'rev-parse', 'HEAD').trim();
      } catch {
        return null;
      }
    };
    await expect.poll(head, { timeout: 15_000 }).not.toBeNull();
    return head() ?? '';
  };
  const turnOnReview = async (): Promise<void> => {
    await chat.harness.page.getByRole('button', { name: 'Review changes before saving: off' }).click();
    await expect.poll(() => chat.harness.page.getByRole('button', { name: 'Review changes before saving: on' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await settingsFile()).reviewChanges).toBe(true);
  };

  it('leaves the changes uncommitted for review; Undo restores a file exactly, Keep commits only what was kept', async () => {
    const { page } = chat.harness;
    await turnOnReview();
    const before = await headAfterSnapshot();
    chat.server.script([{ text: answer({ code: WRITE_TWO }) }, { text: answer({ reply: 'Added Beta.' }) }]);
    await send('Start the Beta project');
    const review = page.locator('.recursa-review');
    await expect.poll(() => review.count(), { timeout: 15_000 }).toBe(1);
    const files = review.locator('.recursa-review-file');
    await expect.poll(() => files.locator('.recursa-path').evaluateAll((els) => els.map((el) => el.getAttribute('title')))).toEqual([ALPHA, BETA]);
    await expect.poll(() => files.nth(0).locator('.recursa-diff-added .recursa-diff-text').allTextContents()).toEqual(['- [ ] Plan Beta']);
    // Nothing is committed yet: the changes are in the work tree.
    expect(gitCli(chat.dir, 'rev-parse', 'HEAD').trim()).toBe(before);
    expect(gitCli(chat.dir, 'status', '--porcelain', '--', 'Projects')).toBe(` M ${ALPHA}\n?? ${BETA}\n`);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      const readings = await contrastOf(page, '.recursa-review *');
      expect(readings.length).toBeGreaterThan(2);
      expect(readings.filter((reading) => reading.ratio < 4.5), theme).toEqual([]);
    }
    await page.evaluate(() => window.recursaHarness?.setTheme('light'));
    await screenshot('review');

    // Another request waits until the review is done; the message stays.
    await send('And a Gamma project');
    expect(await input().inputValue()).toBe('And a Gamma project');
    expect(await page.locator('.recursa-hint').textContent()).toBe('Keep or undo the changes under review first; your message stays here.');
    expect(chat.server.requests.length).toBe(2);

    await review.getByRole('button', { name: `Undo the changes to ${BETA}` }).click();
    await expect.poll(() => existsSync(join(chat.dir, BETA))).toBe(false);
    expect(gitCli(chat.dir, 'rev-parse', 'HEAD').trim()).toBe(before);
    await review.getByRole('button', { name: `Keep the changes to ${ALPHA}` }).click();
    await expect.poll(() => review.locator('.recursa-review-outcome').textContent()).toBe('Kept 1 file, undid 1.');
    expect(gitCli(chat.dir, 'log', '-1', '--format=%s').trim()).toBe('Recursa: Start the Beta project');
    expect(gitCli(chat.dir, 'rev-parse', 'HEAD^').trim()).toBe(before);
    expect(gitCli(chat.dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe(ALPHA);
    expect(await readFile(join(chat.dir, ALPHA), 'utf8')).toBe(`${NOTES[ALPHA]}- [ ] Plan Beta\n`);
    expect(gitCli(chat.dir, 'status', '--porcelain', '--', 'Projects')).toBe('');
    gitCli(chat.dir, 'fsck', '--strict');
    expect(existsSync(join(chat.dir, '.obsidian', 'plugins', 'recursa', 'review.json'))).toBe(false);
    await screenshot('review-done');
    expect(await page.locator('.recursa-hint').isVisible()).toBe(false);
  });

  it('shows a review left open when Obsidian closed again on the next start, and keeps it then', async () => {
    const { page } = chat.harness;
    await turnOnReview();
    const before = await headAfterSnapshot();
    chat.server.script([{ text: answer({ code: WRITE_TWO }) }, { text: answer({ reply: 'Added Beta.' }) }]);
    await send('Start the Beta project');
    await expect.poll(() => page.locator('.recursa-review').count(), { timeout: 15_000 }).toBe(1);
    await page.locator('.recursa-review').getByRole('button', { name: `Undo the changes to ${BETA}` }).click();
    await expect.poll(() => existsSync(join(chat.dir, BETA))).toBe(false);

    // Obsidian closes with the review open, and starts again.
    await page.evaluate(async () => {
      await window.recursaHarness?.unloadPlugin();
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
    expect(gitCli(chat.dir, 'rev-parse', 'HEAD').trim()).toBe(before);
    await openChat();
    const pending = page.locator('.recursa-pending-review');
    await expect.poll(() => pending.count(), { timeout: 10_000 }).toBe(1);
    expect(await pending.locator('.recursa-review-request').textContent()).toBe('Waiting for your review, from the request "Start the Beta project".');
    expect(await pending.locator('.recursa-review-file[data-decision="pending"] .recursa-path').getAttribute('title')).toBe(ALPHA);
    expect(await pending.locator('.recursa-review-file[data-decision="undone"] .recursa-path').getAttribute('title')).toBe(BETA);
    await screenshot('review-restored');
    await pending.getByRole('button', { name: 'Keep all changes' }).click();
    await expect.poll(() => gitCli(chat.dir, 'log', '-1', '--format=%s').trim(), { timeout: 10_000 }).toBe('Recursa: Start the Beta project');
    expect(gitCli(chat.dir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe(ALPHA);
    // A commit moves the branch, then the index, as git's own does: the status settles once both moved.
    await expect.poll(() => gitCli(chat.dir, 'status', '--porcelain', '--', 'Projects')).toBe('');
    gitCli(chat.dir, 'fsck', '--strict');
  });
});
