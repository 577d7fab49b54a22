// The Node side of the mobile harness: builds the phone-shaped page (mobilePage.ts over the fake
// `obsidian` module with the phone's adapter and `requestUrl`), opens it in headless Chromium,
// serves it the repository's BUILT main.js, fills the vault's in-page store, and copies the vault
// back out to a folder on the host so the `git` CLI can judge the repository. Nothing in the page
// reaches Node: the host only reads what `page.evaluate` returns.
import { isUtf8 } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin as EsbuildPlugin } from 'esbuild';
import type * as Obsidian from 'obsidian';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { defaultSettings, type RecursaSettings } from '../../../src/obsidian/settings/pluginSettings';
import { findChromium } from '../chromium';
import { buildPageScript } from '../pageScript';
import type { MobilePage } from './mobilePage';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN_JS = join(ROOT, 'main.js');
const TEST_MODULE_DIR = join(ROOT, 'tests', 'helpers', 'obsidian');
const MOBILE_DIR = join(ROOT, 'tests', 'helpers', 'mobile');
/** Capacitor serves the Android app's page from `http://localhost` (iOS: `capacitor://localhost`). */
export const ORIGIN = 'http://localhost';

/**
 * In the page bundle, the test module's vault adapter and `requestUrl` are the phone's: the
 * `./adapter` and `./requestUrl` imports inside tests/helpers/obsidian/ resolve to the files here.
 */
const phoneModules: EsbuildPlugin = {
  name: 'phone-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\/(adapter|requestUrl)$/ }, (args) => {
      if (dirname(args.importer) !== TEST_MODULE_DIR) return undefined;
      return { path: join(MOBILE_DIR, args.path === './adapter' ? 'capacitorAdapter.ts' : 'requestUrl.ts') };
    });
    // Nothing on the page may reach Node; a Node builtin in the bundle is a build error.
    build.onResolve({ filter: /^node:|^(fs|path|http|https|os|child_process|crypto|url|net)$/ }, (args) => ({ errors: [{ text: `${args.path} imported by ${args.importer}: the mobile page has no Node` }] }));
  },
};

let pageBundle: string | null = null;

/** The page script (built once per process). */
export async function buildMobilePage(): Promise<string> {
  if (pageBundle !== null) return pageBundle;
  const script = (entry: string, define: Record<string, string> = {}): Promise<string> => buildPageScript(join(MOBILE_DIR, entry), { plugins: [phoneModules], define });
  // The store's worker (the phone's native side) is a script of its own, carried by the page's.
  const storageWorker = await script('storageWorker.ts');
  pageBundle = await script('mobilePage.ts', { STORAGE_WORKER_SOURCE: JSON.stringify(storageWorker) });
  return pageBundle;
}

export interface MobileHarnessOptions {
  /** The vault's name (the IndexedDB database's). Default `Phone vault`. */
  vaultName?: string;
  viewport?: { width: number; height: number };
  /** Extra flags for V8 (`--js-flags`). */
  jsFlags?: string;
}

/** The plugin's manifest as Obsidian passes it, with its folder in the vault's config folder. */
export function pluginManifest(): Obsidian.PluginManifest {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Obsidian.PluginManifest;
  return { ...manifest, dir: `.obsidian/plugins/${manifest.id}` };
}

/** What a test sets in the plugin's `data.json` besides the model server. */
export interface PluginSettingsOptions {
  budgets?: Partial<RecursaSettings['budgets']>;
  sync?: Partial<RecursaSettings['sync']>;
}

/** The plugin's `data.json` for an agent that talks to `baseUrl` (an OpenAI-compatible server). */
export function pluginSettingsFile(baseUrl: string, options: PluginSettingsOptions = {}): { path: string; text: string } {
  const settings: RecursaSettings = { ...defaultSettings(), provider: 'custom' };
  settings.providers.custom = { ...settings.providers.custom, baseUrl, model: 'test-model' };
  settings.budgets = { ...settings.budgets, ...options.budgets };
  settings.sync = { ...settings.sync, ...options.sync };
  return { path: `${pluginManifest().dir}/data.json`, text: JSON.stringify(settings, null, 2) };
}

export class MobileHarness {
  /** Uncaught errors in the page, in order. */
  readonly pageErrors: string[] = [];
  /** Console errors in the page, in order. */
  readonly consoleErrors: string[] = [];
  private crashed = false;
  private cdpSession: CDPSession | null = null;

  private constructor(
    readonly browser: Browser,
    readonly page: Page,
    readonly vaultName: string,
  ) {
    page.on('pageerror', (error) => this.pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleErrors.push(message.text());
    });
    page.on('crash', () => (this.crashed = true));
  }

  /** A phone-shaped page with an empty vault store; seed it, then `start()`. */
  static async open(options: MobileHarnessOptions = {}): Promise<MobileHarness> {
    if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: run \`npm run build\` first (\`npm test\` does).`);
    const script = await buildMobilePage();
    const args = [
      '--no-sandbox',
      // requestUrl runs outside the WebView's CORS rules on a phone; the fake uses the page's fetch.
      '--disable-web-security',
      '--enable-precise-memory-info',
      ...(options.jsFlags === undefined ? [] : [`--js-flags=${options.jsFlags}`]),
    ];
    const browser = await chromium.launch({ executablePath: findChromium(), args });
    // A phone's screen, touch and user agent (Android WebView).
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 412, height: 915 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.0.0 Mobile Safari/537.36 obsidian/1.9.0',
    });
    const page = await context.newPage();
    const harness = new MobileHarness(browser, page, options.vaultName ?? 'Phone vault');
    const files: Record<string, { type: string; body: () => string }> = {
      '/': {
        type: 'text/html',
        body: () =>
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Obsidian</title>' +
          '<link rel="stylesheet" href="/obsidian-theme.css"><link rel="stylesheet" href="/styles.css"></head><body><script src="/mobile.js"></script></body></html>',
      },
      '/obsidian-theme.css': { type: 'text/css', body: () => readFileSync(join(ROOT, 'tests', 'e2e', 'harness', 'obsidian-theme.css'), 'utf8') },
      '/styles.css': { type: 'text/css', body: () => readFileSync(join(ROOT, 'styles.css'), 'utf8') },
      '/mobile.js': { type: 'text/javascript', body: () => script },
      // Read when the page asks, so the page always runs the main.js on disk now.
      '/main.js': { type: 'text/javascript', body: () => readFileSync(MAIN_JS, 'utf8') },
    };
    await page.route(`${ORIGIN}/**`, (route) => {
      const file = files[new URL(route.request().url()).pathname];
      return file === undefined ? route.fulfill({ status: 404, body: 'not found' }) : route.fulfill({ status: 200, contentType: file.type, body: file.body() });
    });
    await page.goto(`${ORIGIN}/`);
    return harness;
  }

  /** Runs `fn` with the page's harness object. */
  async call<T, A>(fn: (mobile: MobilePage, arg: A) => T | Promise<T>, arg: A): Promise<T> {
    return this.page.evaluate(
      async ([source, value]) => {
        const mobile = window.recursaMobile;
        if (mobile === undefined) throw new Error('the mobile page is not loaded');
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the function is the test's own, sent as text
        const makeRun = new Function(`return (${source})`) as () => (m: MobilePage, a: unknown) => unknown;
        const run = makeRun();
        return run(mobile, value);
      },
      [fn.toString(), arg] as const,
    ) as Promise<T>;
  }

  /**
   * Copies the files of a host folder (a generated vault) into the page's store: those that are
   * UTF-8 as text, as the app writes a note, and the others as binary.
   */
  async seedFromFolder(dir: string, batchBytes = 4 * 1024 * 1024): Promise<number> {
    let batch: { path: string; text?: string; base64?: string }[] = [];
    let size = 0;
    let count = 0;
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      count += await this.call((mobile, { name, files }) => mobile.seed(name, files), { name: this.vaultName, files: batch });
      batch = [];
      size = 0;
    };
    for (const path of await filesUnder(dir)) {
      const bytes = await readFile(join(dir, path));
      batch.push(isUtf8(bytes) ? { path, text: bytes.toString('utf8') } : { path, base64: bytes.toString('base64') });
      size += bytes.length;
      if (size >= batchBytes) await flush();
    }
    await flush();
    return count;
  }

  /** Puts text files into the page's store. */
  async seedFiles(files: Record<string, string>): Promise<void> {
    const list = Object.entries(files).map(([path, text]) => ({ path, text }));
    await this.call((mobile, { name, files: seeded }) => mobile.seed(name, seeded), { name: this.vaultName, files: list });
  }

  /** Opens the vault in the page and lays out the phone's window. */
  async start(): Promise<void> {
    await this.call((mobile, options) => mobile.start(options), { vaultName: this.vaultName, manifest: pluginManifest() });
  }

  async loadPlugin(): Promise<void> {
    await this.call((mobile) => mobile.loadPlugin(), null);
  }

  /** Runs a command by its full id (`recursa:open-chat`), as the command palette does. */
  runCommand(id: string): Promise<boolean> {
    return this.call((mobile, commandId) => mobile.runCommand(commandId), id);
  }

  unloadPlugin(): Promise<void> {
    return this.call((mobile) => mobile.unloadPlugin(), null);
  }

  /**
   * Writes what changed in the page's vault since the last export (everything, the first time) into
   * `dir` on the host: files written, folders made, paths removed. Returns the number of paths.
   */
  async exportTo(dir: string): Promise<number> {
    await mkdir(dir, { recursive: true });
    let exported = 0;
    for (;;) {
      const { entries, remaining } = await this.call((mobile, name) => mobile.exportChanges(name), this.vaultName);
      for (const entry of entries) {
        const target = join(dir, ...entry.path.split('/'));
        if (!target.startsWith(dir + sep)) throw new Error(`the page exported a path outside the vault: ${entry.path}`);
        if (entry.kind === 'removed') await rm(target, { recursive: true, force: true });
        else if (entry.kind === 'folder') await mkdir(target, { recursive: true });
        else {
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, Buffer.from(entry.base64 ?? '', 'base64'));
        }
      }
      exported += entries.length;
      if (remaining === 0) return exported;
    }
  }

  /** A CDP session on the page (CPU throttling, heap, garbage collection). */
  async cdp(): Promise<CDPSession> {
    this.cdpSession ??= await this.page.context().newCDPSession(this.page);
    return this.cdpSession;
  }

  /** Chromium's CPU throttling: 1 is none, 4 runs the page's main thread 4× slower. */
  async throttleCpu(rate: number): Promise<void> {
    await (await this.cdp()).send('Emulation.setCPUThrottlingRate', { rate });
  }

  /** The page's JS heap in use, in bytes, after a full garbage collection when `collect`. */
  async heapUsed(collect = true): Promise<number> {
    const session = await this.cdp();
    if (collect) {
      // Twice: the first collection can leave objects whose finalizers free more.
      await session.send('HeapProfiler.collectGarbage');
      await session.send('HeapProfiler.collectGarbage');
    }
    return (await session.send('Runtime.getHeapUsage')).usedSize;
  }

  /** Whether the page's renderer has crashed. */
  get hasCrashed(): boolean {
    return this.crashed;
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

/** Every file under `dir`, as vault paths, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}
