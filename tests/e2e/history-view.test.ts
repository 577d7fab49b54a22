// The history view in headless Chromium: the plugin's HistoryView over the real GitService, which
// runs in the page on a real folder (its files served from Node). A person reads the agent's
// commits, opens a diff, and reverts one after confirming; the git CLI checks the result.
import { writeFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledIsomorphicGit } from '../../scripts/bundled-isomorphic-git.mjs';
import { gitCli } from '../helpers/gitCli';
import { openGitVault, type GitVault } from '../helpers/gitVault';
import { nodeRuntime } from '../helpers/memHarness';
import { makeTempDir } from '../helpers/tempVault';
import { openTestPage, SCREENSHOTS } from './helpers/browserPage';
import { contrastOf } from './helpers/contrast';
import { serveVaultCall, type VaultCall } from './helpers/remoteVaultPort';
import type { PageHistory } from './history/page';

declare global {
  interface Window {
    recursaHistory: PageHistory;
  }
}

/** Enough of Obsidian's look for the screenshots: buttons, the modal, a sidebar-sized leaf. */
const SHELL_CSS = `
  #leaf { width: 340px; height: 640px; overflow: auto; border-right: 1px solid var(--background-modifier-border); padding: 12px; box-sizing: border-box; }
  body.is-phone #leaf { width: 100%; height: 844px; }
  button { font: inherit; font-size: var(--font-ui-small); padding: 4px 12px; border-radius: var(--radius-s); border: 1px solid var(--background-modifier-border);
    background: var(--background-secondary); color: var(--text-normal); cursor: pointer; }
  button.mod-warning { background: var(--color-red); color: #fff; border-color: transparent; }
  button:disabled { opacity: 0.5; cursor: default; }
  a { color: rgb(var(--color-blue-rgb)); }
  .modal-container { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.3); display: flex; align-items: center; justify-content: center; }
  .modal { width: 360px; padding: 16px 20px; border-radius: var(--radius-m); background: var(--background-primary); border: 1px solid var(--background-modifier-border); }
  .modal-title { font-weight: 600; margin-bottom: 8px; }
  .setting-item-control { display: flex; gap: 8px; justify-content: flex-end; }
  .notice-container { position: fixed; top: 8px; right: 8px; }
  .notice { background: var(--background-secondary); border: 1px solid var(--background-modifier-border); padding: 8px 12px; border-radius: var(--radius-s); margin-bottom: 4px; max-width: 280px; }
`;

describe('the agent history view (headless Chromium)', () => {
  let browser: Browser | undefined;
  let page: Page;
  let errors: string[] = [];
  let vault: (GitVault & { dispose: () => Promise<void> }) | undefined;
  let removeDir: () => Promise<void> = () => Promise.resolve();
  const hashes: Record<string, string> = {};

  const items = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.recursa-history-item')].map((item) => ({
        subject: item.querySelector('.recursa-history-subject')?.textContent,
        badge: item.querySelector('.recursa-history-badge')?.textContent ?? null,
        files: [...item.querySelectorAll('.recursa-history-file')].map((file) => file.textContent),
        buttons: [...item.querySelectorAll('.recursa-history-actions button')].map((button) => ({
          text: button.textContent,
          disabled: (button as HTMLButtonElement).disabled,
        })),
      })),
    );
  const item = (n: number) => page.locator('.recursa-history-item').nth(n);
  const head = (): string => gitCli((vault as GitVault).dir, 'rev-parse', 'HEAD').trim();

  beforeAll(async () => {
    const temp = await makeTempDir();
    removeDir = temp.remove;
    await mkdir(join(temp.dir, 'Projects'), { recursive: true });
    await writeFile(join(temp.dir, 'Projects/Garden.md'), '# Garden\n\n- tomatoes\n');
    await writeFile(join(temp.dir, 'Inbox.md'), 'call the plumber\n');
    vault = await openGitVault(nodeRuntime, temp.dir);
    await vault.mem.writeFile('Projects/Garden.md', '# Garden\n\n- tomatoes\n- basil\n');
    await vault.mem.writeFile('Projects/Herbs.md', '# Herbs\n\nBasil likes sun.\n');
    hashes.garden = await vault.mem.commitChanges('Plan the herbs\n\nBasil goes next to the tomatoes.');
    await vault.mem.writeFile('Inbox.md', 'call the plumber\n- [ ] water the basil\n');
    hashes.inbox = await vault.mem.commitChanges('<img src=x onerror="window.__pwned=1"> Add a reminder');
    await writeFile(join(temp.dir, 'Mine.md'), 'mine\n');
    gitCli(temp.dir, 'add', 'Mine.md');
    gitCli(temp.dir, 'commit', '-q', '-m', 'A commit of my own');

    const port = vault.port;
    ({ browser, page, errors } = await openTestPage({
      entry: 'tests/e2e/history/page.ts',
      title: 'Recursa history',
      body: `<style>${SHELL_CSS}</style><div id="leaf"></div>`,
      viewport: { width: 760, height: 660 },
      alias: { obsidian: 'tests/e2e/helpers/obsidianUi.ts' },
      plugins: [bundledIsomorphicGit],
      beforeScript: (target) => target.exposeFunction('recursaVault', (call: VaultCall) => serveVaultCall(port, call)),
    }));
    await page.evaluate(() => window.recursaHistory.open());
  });

  afterAll(async () => {
    await browser?.close();
    await vault?.dispose();
    await removeDir();
  });

  it('lists the agent\'s commits newest first, with files, and leaves the user\'s own out', async () => {
    expect(await page.locator('.recursa-history-summary').textContent()).toBe('2 agent commits today');
    expect(await items()).toEqual([
      {
        subject: '<img src=x onerror="window.__pwned=1"> Add a reminder',
        badge: null,
        files: ['Inbox.md'],
        buttons: [
          { text: 'Show changes', disabled: false },
          { text: 'Revert', disabled: false },
        ],
      },
      {
        subject: 'Plan the herbs',
        badge: null,
        files: ['Projects/Garden.md', 'Projects/Herbs.md'],
        buttons: [
          { text: 'Show changes', disabled: false },
          { text: 'Revert', disabled: false },
        ],
      },
    ]);
    expect(await item(1).locator('.recursa-history-body').textContent()).toBe('Basil goes next to the tomatoes.');
    // The time alone; the commit's id is its tooltip, for whoever looks it up in git.
    expect(await item(1).locator('.recursa-history-meta').textContent()).toMatch(/^Today \d\d:\d\d$/);
    expect(await item(1).locator('.recursa-history-time').getAttribute('title')).toBe(`Commit ${hashes.garden?.slice(0, 7)}`);
    // The model's text is shown as text.
    expect(await page.locator('#leaf img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('shows a commit\'s diff as git prints it, and opens a file from the list', async () => {
    await item(1).getByRole('button', { name: 'Show changes' }).click();
    const diff = item(1).locator('.recursa-diff');
    await diff.waitFor();
    const v = vault as GitVault;
    const cli = gitCli(v.dir, 'diff', `${hashes.garden}^`, hashes.garden as string);
    const shown = await diff.locator('.recursa-diff-line').allTextContents();
    expect(shown).toEqual(cli.slice(0, -1).split('\n'));
    expect(await diff.locator('.recursa-diff-added').allTextContents()).toEqual(['+- basil', '+# Herbs', '+', '+Basil likes sun.']);
    expect(await item(1).getByRole('button', { name: 'Hide changes' }).getAttribute('aria-expanded')).toBe('true');
    await item(1).getByRole('link', { name: 'Open Projects/Herbs.md' }).click();
    expect(await page.evaluate(() => window.recursaHistory.opened())).toEqual(['Projects/Herbs.md']);
    await page.screenshot({ path: join(SCREENSHOTS, 'history-light.png') });
    await page.evaluate(() => document.body.classList.replace('theme-light', 'theme-dark'));
    await page.screenshot({ path: join(SCREENSHOTS, 'history-dark.png') });
    await page.evaluate(() => document.body.classList.replace('theme-dark', 'theme-light'));
  });

  it('reverts only after confirmation, and the git CLI sees the revert', async () => {
    const before = head();
    await item(1).getByRole('button', { name: 'Revert' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.locator('.modal-title').textContent()).toBe('Revert this change?');
    expect(await dialog.locator('li').allTextContents()).toEqual(['Projects/Garden.md', 'Projects/Herbs.md']);
    // The safe choice has the focus: Enter alone cancels.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.screenshot({ path: join(SCREENSHOTS, 'history-confirm.png') });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(head()).toBe(before);

    await item(1).getByRole('button', { name: 'Revert' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revert' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.recursa-history-item').length === 3);
    const v = vault as GitVault;
    expect(gitCli(v.dir, 'log', '-1', '--format=%B').trim()).toBe(
      `Revert "Plan the herbs"\n\nThis reverts commit ${hashes.garden}.\n\nRecursa-Run: history-revert`,
    );
    expect(gitCli(v.dir, 'rev-parse', 'HEAD^').trim()).toBe(before);
    expect(await v.disk('Projects/Garden.md')).toBe('# Garden\n\n- tomatoes\n');
    expect(gitCli(v.dir, 'ls-files', 'Projects')).toBe('Projects/Garden.md\n');
    expect(gitCli(v.dir, 'status', '--porcelain')).toBe('');
    gitCli(v.dir, 'fsck', '--strict');
    expect(await page.evaluate(() => window.recursaHistory.notices())).toEqual(['Reverted "Plan the herbs".']);
    expect(await page.evaluate(() => window.recursaHistory.reverted())).toEqual([head()]);

    const shown = await items();
    expect(shown.map((entry) => [entry.subject, entry.badge])).toEqual([
      ['Revert "Plan the herbs"', null],
      ['<img src=x onerror="window.__pwned=1"> Add a reminder', null],
      ['Plan the herbs', 'Reverted'],
    ]);
    expect(shown[2]?.buttons[1]).toEqual({ text: 'Reverted', disabled: true });
    expect(await page.locator('.recursa-history-summary').textContent()).toBe('3 agent commits today');
  });

  it('refuses a revert over the user\'s own later edit, says why, and changes nothing', async () => {
    const v = vault as GitVault;
    await writeFile(join(v.dir, 'Inbox.md'), 'call the plumber\n- [ ] water the basil\n- my own line\n');
    const before = head();
    await item(1).getByRole('button', { name: 'Revert' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revert' }).click();
    await page.waitForFunction(() => window.recursaHistory.notices().length === 2);
    const notices = await page.evaluate(() => window.recursaHistory.notices());
    expect(notices[1]).toContain('Cannot revert');
    expect(notices[1]).toContain('"Inbox.md"');
    expect(head()).toBe(before);
    expect(await v.disk('Inbox.md')).toBe('call the plumber\n- [ ] water the basil\n- my own line\n');
    expect(errors).toEqual([]);
  });

  it('reads as a list of changes, not as git log: no prefixes or run ids, the request, a quiet Revert, Refresh as a view action; at phone width too', async () => {
    const v = vault as GitVault;
    await v.mem.writeFile('Projects/Garden.md', '# Garden\n\n- tomatoes\n- water every morning\n');
    await v.mem.commitChanges('Recursa: Water the basil\n\nCommitted when run run-k2x9 finished, with changes the agent had not committed itself.\n\nRequest: Water the basil every morning, and note it in the garden plan');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForFunction(() => document.querySelector('.recursa-history-subject')?.textContent === 'Water the basil');
    const first = item(0);
    expect(await first.locator('.recursa-history-request').textContent()).toBe('You asked: Water the basil every morning, and note it in the garden plan');
    expect(await first.locator('.recursa-history-body').count()).toBe(0);
    const text = (await first.textContent()) ?? '';
    expect(text).not.toMatch(/Recursa:|run-k2x9|[0-9a-f]{7}/);
    // No red button on every row: the confirmation carries the warning.
    expect(await page.locator('.recursa-history-list .mod-warning').count()).toBe(0);
    expect(await first.locator('.recursa-history-file').first().getAttribute('class')).toContain('internal-link');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => {
        document.body.classList.remove('theme-light', 'theme-dark');
        document.body.classList.add(`theme-${value}`);
      }, theme);
      const low = (await contrastOf(page, '.recursa-history-item *:not(.recursa-diff *)')).filter((reading) => reading.ratio < 4.5);
      expect(low, theme).toEqual([]);
    }
    await page.evaluate(() => document.body.classList.replace('theme-dark', 'theme-light'));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => document.body.classList.add('is-mobile', 'is-phone'));
    const small = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('#leaf button, #leaf .recursa-history-file'))
        .filter((el) => el.getBoundingClientRect().height < 32)
        .map((el) => el.textContent),
    );
    expect(small).toEqual([]);
    expect(await page.evaluate(() => {
      const leaf = document.getElementById('leaf');
      return leaf === null ? false : leaf.scrollWidth <= leaf.clientWidth;
    })).toBe(true);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => {
        document.body.classList.remove('theme-light', 'theme-dark');
        document.body.classList.add(`theme-${value}`);
      }, theme);
      await page.screenshot({ path: join(SCREENSHOTS, `history-phone-${theme}.png`) });
    }
    expect(errors).toEqual([]);
  });
  it('names the MCP client a commit was made for, and reverts it like any other', async () => {
    const v = vault as GitVault;
    v.session.client = 'Claude Code';
    await v.mem.writeFile('Clients.md', 'written for an MCP client\n');
    const made = await v.mem.commitChanges('Note what the client asked');
    v.session.client = null;
    expect(gitCli(v.dir, 'log', '-1', '--format=%(trailers:key=Recursa-Client,valueonly)').trim()).toBe('Claude Code');
    await page.evaluate(() => window.recursaHistory.refresh());
    const first = item(0);
    expect(await first.locator('.recursa-history-subject').textContent()).toBe('Note what the client asked');
    expect(await first.locator('.recursa-history-client').textContent()).toBe('via Claude Code');
    expect(await first.locator('.recursa-history-client').getAttribute('aria-label')).toBe('Made for the MCP client Claude Code');
    // The plugin's own runs name no client.
    expect(await item(1).locator('.recursa-history-client').count()).toBe(0);

    await first.getByRole('button', { name: 'Revert' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revert' }).click();
    await page.waitForFunction(() => window.recursaHistory.notices().some((text) => text.includes('Note what the client asked')));
    expect(gitCli(v.dir, 'log', '-1', '--format=%s').trim()).toBe('Revert "Note what the client asked"');
    expect(gitCli(v.dir, 'rev-parse', 'HEAD^').trim()).toBe(made);
    expect(gitCli(v.dir, 'ls-files', 'Clients.md')).toBe('');
    gitCli(v.dir, 'fsck', '--strict');
    expect(errors).toEqual([]);
  });
});
