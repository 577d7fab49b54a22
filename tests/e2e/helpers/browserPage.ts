// A headless Chromium page running a bundle of plugin code (built by esbuild from a test entry),
// styled by the plugin's CSS over a few of the CSS variables Obsidian's default themes define.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../helpers/chromium';
import { buildPageScript } from '../../helpers/pageScript';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'tests', 'e2e', 'screenshots');

/** Obsidian's variables the plugin's CSS uses, light (`theme-light`) and dark (`theme-dark`). */
const THEME_CSS = `
  :root, .theme-light { --color-green-rgb: 8, 185, 78; --color-blue-rgb: 8, 109, 221; --color-red-rgb: 233, 49, 71;
    --color-red: #e93147; --background-primary: #ffffff; --background-secondary: #f6f6f6; --text-normal: #222222;
    --text-muted: #5c5c5c; --text-faint: #ababab; --background-modifier-border: #e0e0e0; --radius-s: 4px; --radius-m: 8px;
    --size-4-1: 4px; --size-4-2: 8px; --size-4-3: 12px; --size-4-4: 16px; --font-ui-small: 13px; --font-ui-smaller: 12px;
    --font-monospace: monospace; }
  .theme-dark { --color-green-rgb: 68, 207, 110; --color-blue-rgb: 2, 122, 255; --color-red-rgb: 251, 70, 76; --color-red: #fb464c;
    --background-primary: #1e1e1e; --background-secondary: #262626; --text-normal: #dadada; --text-muted: #b3b3b3;
    --text-faint: #666666; --background-modifier-border: #363636; }
  body { margin: 0; background: var(--background-primary); color: var(--text-normal); font: 15px/1.6 system-ui, sans-serif; }
  body .cm-editor { background: var(--background-primary); color: var(--text-normal); }
  body .cm-editor .cm-gutters { background: var(--background-primary); border: none; }
  body .cm-editor .cm-tooltip { background: var(--background-secondary); border: 1px solid var(--background-modifier-border); border-radius: 6px; }
`;


export interface TestPage {
  browser: Browser;
  page: Page;
  /** Uncaught errors in the page. */
  errors: string[];
}

/**
 * Opens `body` in a new page with `entry` (a path under the repository) bundled and run in it,
 * after `beforeScript` (e.g. `page.exposeFunction`) has run.
 */
export async function openTestPage(options: {
  entry: string;
  title: string;
  body: string;
  viewport?: { width: number; height: number };
  beforeScript?: (page: Page) => Promise<unknown>;
  /** Module aliases for the bundle (`obsidian` → the test implementation). */
  alias?: Record<string, string>;
  /** esbuild plugins for the bundle (isomorphic-git as the plugin bundles it). */
  plugins?: esbuild.Plugin[];
}): Promise<TestPage> {
  const script = await buildPageScript(join(ROOT, options.entry), {
    alias: Object.fromEntries(Object.entries(options.alias ?? {}).map(([name, path]) => [name, join(ROOT, path)])),
    plugins: options.plugins ?? [],
  });
  const css = await readFile(join(ROOT, 'styles.css'), 'utf8');
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 700, height: 420 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await options.beforeScript?.(page);
  const url = 'https://recursa.test/page';
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><title>${options.title}</title><style>${THEME_CSS}</style><style>${css}</style></head><body class="theme-light">${options.body}</body></html>`,
    }),
  );
  await page.goto(url);
  await page.addScriptTag({ content: script });
  return { browser, page, errors };
}
