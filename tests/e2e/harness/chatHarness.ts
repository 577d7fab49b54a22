// Opens the plugin in headless Chromium: the page is laid out like Obsidian's window, themed with
// Obsidian's default variables (obsidian-theme.css) and the plugin's styles.css, and runs the
// plugin bundle that `node esbuild.config.mjs test` builds. The vault is a real folder.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Obsidian from 'obsidian';
import { chromium, type Browser, type Page } from 'playwright-core';
import { installHostBridge } from './hostBridge';
import { defaultSettings, type RecursaSettings } from '../../../src/obsidian/settings/pluginSettings';
import { findChromium } from '../../helpers/chromium';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const SCREENSHOTS = join(ROOT, 'tests', 'e2e', 'screenshots');
const HARNESS_FILE = join(ROOT, 'node_modules', '.cache', 'recursa-e2e', 'harness.js');
/** A made-up origin served by Playwright itself, as Obsidian's `app://` is its own. */
const ORIGIN = 'https://recursa.test';

let built = false;

/** Builds the harness bundle with the project's esbuild config, once per test process. */
export function buildHarness(): void {
  if (built) return;
  execFileSync(process.execPath, ['esbuild.config.mjs', 'test'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  built = true;
}


export interface HarnessOptions {
  vaultDir: string;
  theme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** Leave the layout not ready until the test says so (`recursaHarness.setLayoutReady()`). */
  deferLayout?: boolean;
  /**
   * Give the page Node's `http` through `window.require`, as Electron does for desktop Obsidian,
   * so model answers stream. Default true; false is mobile, where only `requestUrl` exists.
   */
  nodeHttp?: boolean;
}

export interface HarnessPage {
  browser: Browser;
  page: Page;
  /** Uncaught errors in the page, in order. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** The plugin's manifest as Obsidian passes it, with its folder in the vault's config folder. */
export function pluginManifest(): Obsidian.PluginManifest {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Obsidian.PluginManifest;
  return { ...manifest, dir: `.obsidian/plugins/${manifest.id}` };
}

/** Writes the plugin's `data.json` so the agent talks to `baseUrl` (a custom OpenAI-compatible server). */
export async function writePluginSettings(vaultDir: string, baseUrl: string, budgets: Record<string, number> = {}): Promise<void> {
  const dir = join(vaultDir, '.obsidian', 'plugins', pluginManifest().id);
  await mkdir(dir, { recursive: true });
  const settings: RecursaSettings = { ...defaultSettings(), provider: 'custom' };
  settings.providers.custom = { ...settings.providers.custom, baseUrl, model: 'test-model' };
  settings.budgets = { ...settings.budgets, ...budgets };
  await writeFile(join(dir, 'data.json'), JSON.stringify(settings, null, 2));
}

/** A page with Obsidian's window laid out, the vault open; the plugin is not loaded yet. */
export async function openHarness(options: HarnessOptions): Promise<HarnessPage> {
  buildHarness();
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await installHostBridge(page, options.vaultDir);
  const files: Record<string, { body: string; type: string }> = {
    '/': {
      type: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Obsidian</title><link rel="stylesheet" href="/obsidian-theme.css"><link rel="stylesheet" href="/styles.css"></head><body class="theme-${options.theme ?? 'light'}"><script src="/harness.js"></script></body></html>`,
    },
    '/obsidian-theme.css': { type: 'text/css', body: readFileSync(join(ROOT, 'tests', 'e2e', 'harness', 'obsidian-theme.css'), 'utf8') },
    '/styles.css': { type: 'text/css', body: readFileSync(join(ROOT, 'styles.css'), 'utf8') },
    '/harness.js': { type: 'text/javascript', body: readFileSync(HARNESS_FILE, 'utf8') },
  };
  await page.route(`${ORIGIN}/**`, (route) => {
    const file = files[new URL(route.request().url()).pathname];
    return file === undefined ? route.fulfill({ status: 404, body: 'not found' }) : route.fulfill({ status: 200, contentType: file.type, body: file.body });
  });
  await page.goto(`${ORIGIN}/`);
  await page.evaluate(
    async ({ vaultDir, manifest, theme, deferLayout, nodeHttp }) => {
      await window.recursaHarness?.start({ vaultDir, manifest, theme, deferLayout, nodeHttp });
    },
    { vaultDir: options.vaultDir, manifest: pluginManifest(), theme: options.theme ?? 'light', deferLayout: options.deferLayout ?? false, nodeHttp: options.nodeHttp ?? true },
  );
  return { browser, page, pageErrors, close: () => browser.close() };
}
