// The editor extension that marks the agent's changes, in a real CodeMirror editor in headless
// Chromium: bundled with esbuild, styled by the plugin's CSS, its marks found by core's
// `agentLineChanges` over a real git repository (exposed to the page from Node).
// Needs a Chromium: $CHROMIUM_PATH or one on PATH (see sandbox-browser-worker.test.ts).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLineChanges } from '../../src/core/git/changedLines';
import type { AgentChangeMarks } from '../../src/obsidian/editor/agentChangeMarkers';
import { gitCli } from '../helpers/gitCli';
import { openGitVault, type GitVault } from '../helpers/gitVault';
import { nodeRuntime } from '../helpers/memHarness';
import { makeTempDir } from '../helpers/tempVault';
import type { PageEditor } from './changeMarkers/page';
import { openTestPage, SCREENSHOTS } from './helpers/browserPage';

/** What the page shows: each line's text and classes, and which lines have which gutter marker. */
interface Rendered {
  lines: { text: string; marked: string | null }[];
  markers: { line: number; kind: string; title: string; label: string | null }[];
}

declare global {
  interface Window {
    recursaEditor: PageEditor;
  }
}

const NOTE = ['# Groceries', '', '- apples', '- bread', '- milk', '', 'Notes: buy on Friday.'].join('\n') + '\n';

describe('agent change markers in a CodeMirror editor (headless Chromium)', () => {
  let browser: Browser | undefined;
  let page: Page;
  let vault: (GitVault & { dispose: () => Promise<void> }) | undefined;
  let removeDir: () => Promise<void> = () => Promise.resolve();
  let pageErrors: string[] = [];

  /** Calls a method of the page's editor (see changeMarkers/page.ts). */
  const call = <K extends keyof PageEditor>(method: K, ...args: Parameters<PageEditor[K]>): Promise<ReturnType<PageEditor[K]>> =>
    page.evaluate(
      ([name, values]) => (window.recursaEditor[name] as (...input: unknown[]) => unknown)(...values),
      [method, args] as const,
    ) as Promise<ReturnType<PageEditor[K]>>;

  const rendered = (): Promise<Rendered> =>
    page.evaluate(() => {
      const lineEls = [...document.querySelectorAll<HTMLElement>('.cm-content .cm-line')];
      const lines = lineEls.map((el) => ({
        text: el.textContent ?? '',
        marked: [...el.classList].find((name) => name.startsWith('recursa-agent-line-'))?.replace('recursa-agent-line-', '') ?? null,
      }));
      const markers = [...document.querySelectorAll<HTMLElement>('.recursa-agent-gutter .recursa-agent-marker')].map((marker) => {
        const top = (marker.closest('.cm-gutterElement') as HTMLElement).getBoundingClientRect().top;
        const line = lineEls.findIndex((el) => Math.abs(el.getBoundingClientRect().top - top) < 2) + 1;
        const kind = [...marker.classList].find((name) => name.startsWith('recursa-agent-marker-'))?.replace('recursa-agent-marker-', '') ?? '';
        return { line, kind, title: marker.title, label: marker.getAttribute('aria-label') };
      });
      return { lines, markers };
    });

  const waitForLoads = async (count: number): Promise<void> => {
    await page.waitForFunction((n) => window.recursaEditor.loads() >= n, count);
    // The answer crosses back from Node; let the page apply it.
    await page.waitForTimeout(50);
  };

  const markedLines = (shown: Rendered): (string | null)[] => shown.lines.map((line) => line.marked);

  beforeAll(async () => {
    const temp = await makeTempDir();
    removeDir = temp.remove;
    vault = await openGitVault(nodeRuntime, temp.dir);
    await vault.seed('Groceries.md', NOTE);
    gitCli(temp.dir, 'add', '-A');
    gitCli(temp.dir, 'commit', '-q', '-m', 'My list');

    ({ browser, page, errors: pageErrors } = await openTestPage({
      entry: 'tests/e2e/changeMarkers/page.ts',
      title: 'Recursa change markers',
      body: '<div id="editor" style="width: 640px; margin: 24px; border: 1px solid var(--background-modifier-border)"></div>',
      beforeScript: (target) =>
        target.exposeFunction('recursaLoad', async (path: string, text: string): Promise<AgentChangeMarks | null> => {
          const changes = await agentLineChanges((vault as GitVault).git.repo, path, text);
          return changes === null ? null : { hash: changes.hash, message: changes.message, ranges: changes.ranges };
        }),
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await vault?.dispose();
    await removeDir();
  });

  it('marks nothing in a note the agent never changed', async () => {
    await call('open', NOTE, 'Groceries.md');
    await waitForLoads(1);
    const shown = await rendered();
    expect(shown.lines.map((line) => line.text)).toEqual(NOTE.split('\n'));
    expect(markedLines(shown).every((kind) => kind === null)).toBe(true);
    expect(shown.markers).toEqual([]);
  });

  it('marks the lines of the agent\'s commit after it commits, with the message on the gutter and on hover', async () => {
    const v = vault as GitVault;
    const changed = ['# Groceries', '', '- apples', '- sourdough bread', '- milk', '- eggs', '- butter', '', 'Notes: buy on Friday.'].join('\n') + '\n';
    await v.mem.writeFile('Groceries.md', changed);
    await v.mem.commitChanges('Update the shopping list\n\nBread is sourdough now; eggs and butter were missing.');
    await call('replaceText', changed);
    await call('notify', ['Other.md']);
    await page.waitForTimeout(100);
    expect((await rendered()).markers).toEqual([]);
    const before = await call('loads');
    await call('notify', ['Groceries.md']);
    await waitForLoads(before + 1);

    const shown = await rendered();
    expect(markedLines(shown)).toEqual([null, null, null, 'modified', null, 'added', 'added', null, null, null]);
    const title = 'Changed by the agent: Update the shopping list';
    expect(shown.markers).toEqual([
      { line: 4, kind: 'modified', title, label: title },
      { line: 6, kind: 'added', title, label: title },
      { line: 7, kind: 'added', title, label: title },
    ]);
    // The line background is visible but faint.
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('.recursa-agent-line-added') as Element).backgroundColor);
    expect(background).toBe('rgba(8, 185, 78, 0.07)');

    await page.hover('.cm-content .cm-line:nth-child(6)', { position: { x: 12, y: 8 } });
    const tooltip = page.locator('.cm-tooltip-hover .recursa-agent-tooltip');
    await tooltip.waitFor({ state: 'visible' });
    const head = gitCli(v.dir, 'rev-parse', '--short=7', 'HEAD').trim();
    expect(await tooltip.locator('.recursa-agent-tooltip-title').textContent()).toBe(`Changed by the agent in ${head}`);
    expect(await tooltip.locator('.recursa-agent-tooltip-message').textContent()).toBe('Update the shopping list\n\nBread is sourdough now; eggs and butter were missing.');
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'change-markers-light.png') });
    await page.evaluate(() => document.body.classList.replace('theme-light', 'theme-dark'));
    await page.screenshot({ path: join(SCREENSHOTS, 'change-markers-dark.png') });
    await page.evaluate(() => document.body.classList.replace('theme-dark', 'theme-light'));

    await page.mouse.move(690, 410);
    await tooltip.waitFor({ state: 'detached' });
    await page.hover('.cm-content .cm-line:nth-child(1)', { position: { x: 12, y: 8 } });
    await page.waitForTimeout(300);
    expect(await page.locator('.cm-tooltip-hover').count()).toBe(0);
  });

  it('keeps the marks on their lines while the user types above them', async () => {
    const loads = await call('loads');
    await call('insertAtStart', 'Shopping\n\n');
    const expected = [null, null, null, null, null, 'modified', null, 'added', 'added', null, null, null];
    expect(markedLines(await rendered())).toEqual(expected);
    expect(await call('loads')).toBe(loads);
    // Found again from git against the edited text, the lines are the same.
    await call('notify', ['Groceries.md']);
    await waitForLoads(loads + 1);
    expect(markedLines(await rendered())).toEqual(expected);
  });

  it('follows the agent\'s next commit, and shows its message as text however it is written', async () => {
    const v = vault as GitVault;
    const text = await v.disk('Groceries.md');
    await v.mem.writeFile('Groceries.md', text.replace('- milk', '- oat milk'));
    await v.mem.commitChanges('<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script> milk');
    await call('open', '', 'Groceries.md');
    const current = await v.disk('Groceries.md');
    const before = await call('loads');
    await call('replaceText', current);
    // This time through the extension's own subscription to the agent's commits.
    expect(await call('listeners')).toBe(1);
    await call('announce', ['Groceries.md']);
    await waitForLoads(before + 1);
    const shown = await rendered();
    expect(markedLines(shown)).toEqual([null, null, null, null, 'modified', null, null, null, null, null]);
    await page.hover('.cm-content .cm-line:nth-child(5)', { position: { x: 12, y: 8 } });
    const message = page.locator('.cm-tooltip-hover .recursa-agent-tooltip-message');
    await message.waitFor({ state: 'visible' });
    expect(await message.textContent()).toBe('<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 2</script> milk');
    expect(await page.locator('.cm-tooltip-hover img, .cm-tooltip-hover script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.mouse.move(690, 410);
  });

  it('shows nothing when the setting is off, and the marks again when it is back on', async () => {
    expect(await call('setEnabled', false)).toBe(true);
    expect(await call('setEnabled', false)).toBe(false);
    let shown = await rendered();
    expect(shown.markers).toEqual([]);
    expect(markedLines(shown).every((kind) => kind === null)).toBe(true);
    expect(await page.locator('.recursa-agent-gutter').count()).toBe(0);
    expect(await call('listeners')).toBe(0);
    const before = await call('loads');
    expect(await call('setEnabled', true)).toBe(true);
    await waitForLoads(before + 1);
    shown = await rendered();
    expect(shown.markers.map((marker) => marker.line)).toEqual([5]);
    expect(await call('listeners')).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
