// The chat view in headless Chromium: the real plugin over the test obsidian module, a real vault
// folder with a real git history, the scripted model server. Screenshots of every state, light
// and dark, go to tests/e2e/screenshots/.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitCli } from '../helpers/gitCli';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { makeTempDir } from '../helpers/tempVault';
import { openHarness, SCREENSHOTS, writePluginSettings, type HarnessPage } from './harness/chatHarness';
import { answer, NOTES, seedNotes } from './harness/chatVault';

const ALPHA = 'Projects/Alpha.md';
/** The notes (the plugin's own folder holds conversations and the index cache, outside the notes). */
const NOTE_FOLDERS = ['Projects', 'People', 'Inbox.md'];
const ADD_TASK = `const text = await mem.readFile('${ALPHA}');
// Add the call to the task list.
await mem.updateFile('${ALPHA}', text, text + '- [ ] Call Sam about the launch\\n');
return { updated: '${ALPHA}' };`;

describe('the chat view in a browser', () => {
  let dir: string;
  let removeDir: () => Promise<void>;
  let server: ModelServer;
  let harness: HarnessPage;

  beforeEach(async () => {
    ({ dir, remove: removeDir } = await makeTempDir('recursa-chat-'));
    await seedNotes(dir);
    server = await startModelServer();
    await writePluginSettings(dir, `${server.url}/v1`);
    harness = await openHarness({ vaultDir: dir });
    await harness.page.evaluate(async () => {
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    });
  });

  afterEach(async () => {
    await harness.close();
    await server.close();
    await removeDir();
  });

  /** Saves the page as it is now, light and dark. */
  const screenshot = async (name: string): Promise<void> => {
    const { page } = harness;
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
      await page.screenshot({ path: join(SCREENSHOTS, `chat-${name}-${theme}.png`) });
    }
    await page.evaluate(() => window.recursaHarness?.setTheme('light'));
  };

  it('shows a request through: think status, code block, reply, changes; revert restores the file', async () => {
    const { page } = harness;
    server.script([
      { text: answer({ think: 'Reading the Alpha project note.', code: ADD_TASK }) },
      { text: answer({ think: 'Done; telling the user.', reply: 'I added **Call Sam about the launch** to [[Projects/Alpha]].' }) },
    ]);
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
    expect(seen.some((text) => text.startsWith('Ran code · 2 mem calls'))).toBe(true);
    expect(await reply.locator('strong').textContent()).toBe('Call Sam about the launch');

    const code = page.locator('details.recursa-code');
    expect(await code.count()).toBe(1);
    expect(await code.getAttribute('open')).toBeNull();
    await code.locator('summary').click();
    expect(await code.locator('.token.keyword').first().textContent()).toBe('const');
    expect(await code.locator('.recursa-code-result').textContent()).toContain('"updated": "Projects/Alpha.md"');

    const changes = page.locator('.recursa-changes');
    await expect.poll(() => changes.count()).toBe(1);
    expect(await changes.locator('.recursa-file-chip').allTextContents()).toEqual([ALPHA]);
    expect(await page.locator('.recursa-usage').textContent()).toMatch(/^2 turns · \d+ tokens · 2 mem calls$/);
    await screenshot('reply');

    const changed = await readFile(join(dir, ALPHA), 'utf8');
    expect(changed).toBe(`${NOTES[ALPHA]}- [ ] Call Sam about the launch\n`);
    expect(gitCli(dir, 'status', '--porcelain', '--', ...NOTE_FOLDERS)).toBe('');
    expect(gitCli(dir, 'log', '-1', '--format=%s')).toContain('Recursa: Add a task to call Sam');

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
    expect(await readFile(join(dir, ALPHA), 'utf8')).toBe(changed);
    await changes.getByRole('button', { name: 'Revert the changes of this run' }).click();
    await page.locator('.modal').getByRole('button', { name: 'Revert' }).click();
    await expect.poll(() => changes.getAttribute('class')).toContain('is-reverted');
    expect(await readFile(join(dir, ALPHA), 'utf8')).toBe(NOTES[ALPHA]);
    expect(gitCli(dir, 'log', '-1', '--format=%s').trim()).toBe('Revert "Recursa: Add a task to call Sam to the Alpha project"');
    expect(gitCli(dir, 'status', '--porcelain', '--', ...NOTE_FOLDERS)).toBe('');
    expect(gitCli(dir, 'show', `HEAD:${ALPHA}`)).toBe(NOTES[ALPHA]);
    gitCli(dir, 'fsck', '--strict');
    await screenshot('reverted');
    expect(harness.pageErrors).toEqual([]);
  });
});
