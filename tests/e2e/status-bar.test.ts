// The status bar item in a real DOM (headless Chromium): its text, label, visibility and keyboard use.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPage } from './helpers/browserPage';

describe('the status bar item (headless Chromium)', () => {
  let browser: Browser | undefined;
  let page: Page;
  let errors: string[] = [];

  const shown = () =>
    page.evaluate(() => {
      const el = document.getElementById('status') as HTMLElement;
      return { text: el.textContent, label: el.getAttribute('aria-label'), visible: el.offsetParent !== null, role: el.getAttribute('role') };
    });

  beforeAll(async () => {
    ({ browser, page, errors } = await openTestPage({
      entry: 'tests/e2e/statusBar/page.ts',
      title: 'Recursa status bar',
      body: '<div class="status-bar"><div id="status" class="status-bar-item"></div></div>',
      viewport: { width: 500, height: 120 },
    }));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('is hidden while it has nothing to say', async () => {
    expect(await shown()).toEqual({ text: '', label: null, visible: false, role: 'button' });
  });

  it('shows indexing progress, then the agent\'s commits today once indexing ends', async () => {
    await page.evaluate(() => {
      window.recursaStatus.bar.setIndexProgress({ done: 5, total: 20 });
      window.recursaStatus.bar.setAgentCommitsToday(3);
    });
    expect(await shown()).toMatchObject({ text: 'Indexing 25% · 3 agent commits today', visible: true });
    expect((await shown()).label).toContain('5 of 20 notes');
    await page.evaluate(() => window.recursaStatus.bar.setIndexProgress({ done: 20, total: 20 }));
    expect(await shown()).toMatchObject({ text: '3 agent commits today', label: '3 agent commits today. Select to show the agent\'s history' });
  });

  it('opens the history on click, Enter and Space', async () => {
    await page.click('#status');
    await page.focus('#status');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    await page.keyboard.press('a');
    expect(await page.evaluate(() => window.recursaStatus.clicks())).toBe(3);
    expect(errors).toEqual([]);
  });
});
