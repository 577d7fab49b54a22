// The settings tab in headless Chromium: a person picks a provider, fixes a bad address, stores
// the key in the keychain, tests the connection against the scripted model server, and changes
// limits and folders. Every saved data.json is checked: none holds the key.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyText } from '../../src/core/llm/httpErrors';
import { createNodeHttpTransport } from '../../src/node/nodeHttpTransport';
import { startModelServer, type ModelServer } from '../helpers/modelServer';
import { openTestPage, SCREENSHOTS } from './helpers/browserPage';
import { contrastOf } from './helpers/contrast';
import type { PageSettings } from './settings/page';

declare global {
  interface Window {
    recursaSettings: PageSettings;
  }
}

const KEY = 'sk-ant-e2e-7d3f0c2a91b4-never-saved';

const SHELL_CSS = `
  #settings { width: 680px; padding: 16px 24px; }
  .setting-item { display: flex; align-items: center; gap: 16px; padding: 10px 0; border-top: 1px solid var(--background-modifier-border); }
  .setting-item-heading { border-top: none; padding-top: 22px; font-weight: 600; }
  .setting-item-info { flex: 1; }
  .setting-item-description { font-size: var(--font-ui-smaller); color: var(--text-muted); }
  .setting-item-control { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; justify-content: flex-end; max-width: 320px; }
  input, select, textarea, button { font: inherit; font-size: var(--font-ui-small); color: var(--text-normal); background: var(--background-primary);
    border: 1px solid var(--background-modifier-border); border-radius: var(--radius-s); padding: 3px 6px; }
  button { background: var(--background-secondary); cursor: pointer; }
`;

describe('the settings tab (headless Chromium)', () => {
  let browser: Browser | undefined;
  let page: Page;
  let errors: string[] = [];
  let server: ModelServer;

  /** The row named `name`. */
  const row = (name: string) => page.locator('.setting-item').filter({ has: page.locator('.setting-item-name', { hasText: new RegExp(`^${name}$`) }) });
  const lastSaved = async (): Promise<Record<string, unknown>> => JSON.parse((await page.evaluate(() => window.recursaSettings.saved())).at(-1) ?? '{}') as Record<string, unknown>;

  beforeAll(async () => {
    server = await startModelServer();
    const transport = createNodeHttpTransport();
    ({ browser, page, errors } = await openTestPage({
      entry: 'tests/e2e/settings/page.ts',
      title: 'Recursa settings',
      body: `<style>${SHELL_CSS} :root { --text-error: #e93147; } .theme-dark { --text-error: #fb464c; }</style><div id="settings"></div>`,
      viewport: { width: 760, height: 1900 },
      alias: { obsidian: 'tests/e2e/helpers/obsidianUi.ts' },
      beforeScript: (target) =>
        target.exposeFunction('recursaHttp', async (request: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; timeoutMs?: number }) => {
          const response = await transport.request(request);
          return { status: response.status, headers: response.headers, body: await readBodyText(response.body) };
        }),
    }));
    await page.evaluate(() => window.recursaSettings.open());
  });

  afterAll(async () => {
    await browser?.close();
    await server.close();
  });

  it('shows its sections under Setting headings, in sentence case, the same in both ways of drawing', async () => {
    const headings = await page.locator('.setting-item-heading .setting-item-name').allTextContents();
    expect(headings).toEqual(['Model', 'Vault', 'History', 'Memory', 'Sync', 'Advanced']);
    // The numeric limits of a request and of the memory are together under Advanced, the last heading.
    const underAdvanced = await page.evaluate(() => {
      const items = Array.from(document.querySelectorAll('#settings .setting-item'));
      const advanced = items.findIndex((item) => item.matches('.setting-item-heading') && item.textContent === 'Advanced');
      return items.slice(advanced + 1).map((item) => item.querySelector('.setting-item-name')?.textContent ?? '');
    });
    expect(underAdvanced).toEqual(['Model calls', 'Time in seconds', 'Tokens', 'Vault calls', 'Result tokens', 'Context window', 'Memory in the prompt', 'Working memory size', 'Items per entry', 'Action log size']);
    // Restoring the provider's defaults sits on the row it restores, not on Test connection.
    expect(await row('Model name').getByRole('button', { name: "Restore the provider's default address and model" }).count()).toBe(1);
    expect(await row('Test connection').locator('.clickable-icon').count()).toBe(0);
    const names = await page.locator('.setting-item:not(.setting-item-heading) .setting-item-name').allTextContents();
    for (const name of names) {
      // Sentence case: a capital first letter, then none but in acronyms and names.
      expect(name.charAt(0), name).toMatch(/[A-Z]/);
      expect(name.replace(/\b(?:API|URL|Logseq|Obsidian)\b/g, '').slice(1), name).not.toMatch(/[A-Z]/);
    }
    const definitions = await page.evaluate(() => window.recursaSettings.definitionNames());
    expect(definitions.map((group) => group.heading)).toEqual(headings);
    expect(definitions.flatMap((group) => group.names)).toEqual(names);
    expect(await page.locator('#settings h1, #settings h2, #settings h3, #settings h4').count()).toBe(0);
  });

  it('switches provider presets, keeping each provider\'s own values', async () => {
    await row('Provider').locator('select').selectOption('anthropic');
    await expect.poll(() => row('Base URL').locator('input').inputValue()).toBe('https://api.anthropic.com');
    expect(await row('Model name').locator('input').inputValue()).toBe('claude-sonnet-4-5');
    expect(await lastSaved()).toMatchObject({ provider: 'anthropic' });
  });

  it('refuses a bad address without saving it, and saves a good one', async () => {
    const input = row('Base URL').locator('input');
    const savedBefore = (await page.evaluate(() => window.recursaSettings.saved())).length;
    await input.fill('ftp://example.com');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await row('Base URL').locator('.setting-item-description').textContent()).toContain('http:// or https://');
    expect((await page.evaluate(() => window.recursaSettings.saved())).length).toBe(savedBefore);
    await input.fill(server.url);
    expect(await input.getAttribute('aria-invalid')).toBe('false');
    await row('Model name').locator('input').fill('claude-test');
    expect(await lastSaved()).toMatchObject({ providers: { anthropic: { baseUrl: server.url, model: 'claude-test' } } });
  });

  it('stores the key in the keychain, keeps only its id, and tests the connection with it', async () => {
    const key = row('API key');
    await key.locator('.secret-new-id').fill('anthropic-api-key');
    await key.locator('.secret-new-value').fill(KEY);
    await key.locator('.secret-save').click();
    expect(await page.evaluate(() => window.recursaSettings.secrets())).toEqual({ 'anthropic-api-key': KEY });
    expect(await lastSaved()).toMatchObject({ providers: { anthropic: { apiKeySecret: 'anthropic-api-key' } } });

    server.script([{ text: 'OK' }]);
    await row('Test connection').getByRole('button', { name: 'Test' }).click();
    const desc = row('Test connection').locator('.setting-item-description');
    await expect.poll(() => desc.textContent()).toMatch(/^Connected\. claude-test answered in \d+\.\d s\.$/);
    expect(await desc.getAttribute('aria-live')).toBe('polite');
    expect(server.requests.at(-1)).toMatchObject({ path: '/v1/messages', headers: { 'x-api-key': KEY }, body: { model: 'claude-test', max_tokens: 16 } });

    server.script([{ status: 401 }]);
    await row('Test connection').getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => desc.textContent()).toContain('The API key was refused (401)');
    expect(await desc.getAttribute('class')).toContain('recursa-setting-error');
  });

  it('saves limits, folders and the marker switch, refusing numbers out of range', async () => {
    const turns = row('Model calls').locator('input');
    await turns.fill('0');
    expect(await turns.getAttribute('aria-invalid')).toBe('true');
    await turns.fill('25');
    await row('Time in seconds').locator('input').fill('600');
    await row('Protected folders').locator('textarea').fill('Private\n../etc\nJournal/');
    expect(await row('Protected folders').locator('.setting-item-description').textContent()).toBe('Not vault folders, so left out: ../etc');
    await row('Mark agent changes in the editor').locator('input').uncheck();
    expect(await row('Let the agent edit git and instruction files').locator('input').isChecked()).toBe(false);
    await row('Let the agent edit git and instruction files').locator('input').check();
    await row('Logseq mode').locator('select').selectOption('on');
    expect(await lastSaved()).toMatchObject({
      budgets: { maxTurns: 25, timeMs: 600_000 },
      protectedFolders: ['Private', 'Journal'],
      changeMarkers: false,
      editProtectedFiles: true,
      logseqMode: 'on',
    });
  });

  it('never saved the key, in any version of data.json', async () => {
    const saved = await page.evaluate(() => window.recursaSettings.saved());
    expect(saved.length).toBeGreaterThan(8);
    for (const text of saved) expect(text).not.toContain(KEY);
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-light.png'), fullPage: true });
    await page.evaluate(() => document.body.classList.replace('theme-light', 'theme-dark'));
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-dark.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('draws its text at a contrast of at least 4.5:1 in the light and the dark theme', async () => {
    for (const [from, to] of [['theme-dark', 'theme-light'], ['theme-light', 'theme-dark']] as const) {
      await page.evaluate(([a, b]) => document.body.classList.replace(a, b), [from, to] as const);
      const readings = await contrastOf(page, '#settings *');
      expect(readings.length).toBeGreaterThan(2);
      const low = readings.filter((reading) => reading.ratio < 4.5);
      expect(low, to).toEqual([]);
    }
  });
});
