// The page side of the mobile harness: a phone-shaped Obsidian in a browser page. The fake
// `obsidian` module (obsidianMobile.ts) over a vault whose files live in IndexedDB, and the BUILT
// main.js, fetched and evaluated as Obsidian evaluates a plugin: a CommonJS module body given a
// `require` that knows `obsidian` and the `@codemirror/*` modules Obsidian shares, nothing else.
// No Node: no `window.require`, no `process`, no host bridge. Bundled by mobileHarness.ts.
import * as codemirrorState from '@codemirror/state';
import * as codemirrorView from '@codemirror/view';
import type * as Obsidian from 'obsidian';
import { App, Vault } from '../obsidian';
import type { App as TestApp } from '../obsidian/app';
import type { Plugin as TestPlugin } from '../obsidian/plugin';
import { mobileStore, openMobileStore } from './capacitorAdapter';
import { IdbFileStore, parentOf, sizeOf, type StoredData, type StoredEntry } from './idbFileStore';
import { obsidianMobile } from './obsidianMobile';

/** One file or folder crossing to the host: its bytes as base64, or its removal. */
export interface ExportedEntry {
  path: string;
  kind: 'file' | 'folder' | 'removed';
  base64?: string;
}

/** What is known of the page's surroundings, to show it is phone-shaped. */
export interface PageEnvironment {
  windowRequire: string;
  process: string;
  globalBuffer: string;
  fileSystemAdapterExport: string;
  adapterClass: string;
  adapterHasBasePath: boolean;
  isMobile: boolean;
  isMobileApp: boolean;
  isDesktopApp: boolean;
}

/** The parts of the plugin the harness reaches (main.js is minified; property names stay). */
interface LoadedPlugin extends TestPlugin {
  readonly mem: Record<string, (...args: unknown[]) => Promise<unknown>> | null;
  readonly sandbox: { run(code: string, options?: { limits?: Record<string, number> }): Promise<{ ok: boolean; value: unknown; error: { code: string; message: string } | null }>; dispose(): void } | null;
  /** Private in the source; reached for timings and for waiting on the first snapshot. */
  readonly stack: {
    git: { whenSnapshotDone(): Promise<unknown>; whenIdle(): Promise<void> } | null;
    graph: { build(): Promise<void> } | null;
    rebuildIndex(): Promise<void>;
    /** The close the plugin started on unload (a second call waits for it). */
    close(): Promise<void>;
  } | null;
  /** Private in the source: the plugin's sync (what "Sync now" runs); reached to wait for it to end. */
  readonly sync: { readonly busy: boolean; readonly last: PluginLastSync | null } | null;
  unload(): void;
}

/** The plugin's last sync: what it did, or the message it showed for a failure. */
type PluginLastSync = { at: Date; result: Record<string, unknown> } | { at: Date; error: { text: string } };

/** A sync's outcome as it crosses to the host. */
export type SyncOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: string };

type PluginClass = new (app: Obsidian.App, manifest: Obsidian.PluginManifest) => LoadedPlugin;

const SHARED_MODULES: Record<string, unknown> = {
  obsidian: obsidianMobile,
  '@codemirror/state': codemirrorState,
  '@codemirror/view': codemirrorView,
};

// Long tasks on the page's main thread (the UI thread), from the moment the page starts.
const longTasks: { start: number; duration: number }[] = [];
const recordLongTasks = (entries: PerformanceEntryList): void => {
  for (const entry of entries) longTasks.push({ start: entry.startTime, duration: entry.duration });
};
const longTaskObserver = new PerformanceObserver((list) => recordLongTasks(list.getEntries()));
longTaskObserver.observe({ type: 'longtask', buffered: true });

let app: TestApp | null = null;
let manifest: Obsidian.PluginManifest | null = null;
let pluginClass: PluginClass | null = null;
let plugin: LoadedPlugin | null = null;
let exportQueue: string[] = [];

const mobile = {
  /** Puts files into the vault's store (before `start`), making their folders; returns the files stored. */
  async seed(vaultName: string, files: { path: string; text?: string; base64?: string }[]): Promise<number> {
    const store = await openMobileStore(vaultName);
    const now = Date.now();
    const puts: { path: string; entry: StoredEntry; content?: StoredData }[] = [];
    const folders = new Set<string>();
    for (const file of files) {
      for (let at = parentOf(file.path); at !== '/' && !folders.has(at) && store.get(at) === null; at = parentOf(at)) {
        folders.add(at);
        puts.push({ path: at, entry: { type: 'folder', ctime: now, mtime: now, size: 0 } });
      }
      const content = file.base64 === undefined ? (file.text ?? '') : fromBase64(file.base64);
      puts.push({ path: file.path, entry: { type: 'file', ctime: now, mtime: now, size: sizeOf(content) }, content });
    }
    await store.commit(puts.sort((a, b) => a.path.split('/').length - b.path.split('/').length));
    return files.length;
  },

  /** Opens the vault (its store must be seeded or empty) and lays out a phone's window; the layout is ready at once. */
  async start(options: { vaultName: string; manifest: Obsidian.PluginManifest }): Promise<void> {
    manifest = options.manifest;
    await openMobileStore(options.vaultName);
    app = new App(await Vault.load(options.vaultName));
    document.body.addClass('is-mobile', 'is-phone', 'theme-light');
    const container = document.body.createDiv('app-container');
    container.createDiv('horizontal-main-container').appendChild(app.workspace.containerEl);
    container.appendChild(app.workspace.statusBarEl);
    app.workspace.setLayoutReady();
  },

  /** Fetches main.js and evaluates it as Obsidian does, once; returns its size in bytes. */
  async evaluateMainJs(url = '/main.js'): Promise<number> {
    // The page's own loader, as Obsidian's would be: not the plugin's network path.
    const source = await (await window.fetch(url)).text();
    const module: { exports: { default?: unknown } } = { exports: {} };
    const require = (id: string): unknown => {
      if (id in SHARED_MODULES) return SHARED_MODULES[id];
      throw new Error(`Cannot find module '${id}'`);
    };
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a plugin's main.js is evaluated as Obsidian evaluates it
    const evaluate = new Function('require', 'module', 'exports', `${source}\n//# sourceURL=plugin:recursa`) as (req: typeof require, mod: typeof module, exp: unknown) => void;
    evaluate(require, module, module.exports);
    const exported = module.exports.default ?? module.exports;
    if (typeof exported !== 'function') throw new Error('main.js exports no plugin class');
    pluginClass = exported as PluginClass;
    return source.length;
  },

  /** Loads the plugin (Obsidian awaits `onload`); resolves once its core (history, index, sandbox) is up. */
  async loadPlugin(timeoutMs = 60_000): Promise<void> {
    if (pluginClass === null) await mobile.evaluateMainJs();
    if (manifest === null || pluginClass === null) throw new Error('start() first');
    plugin = new pluginClass(requireApp() as unknown as Obsidian.App, manifest);
    plugin.load();
    await plugin.whenLoaded();
    const until = Date.now() + timeoutMs;
    while (plugin.sandbox === null) {
      if (Date.now() > until) throw new Error('the plugin core did not start');
      await new Promise((resolve) => window.setTimeout(resolve, 10));
    }
  },

  /** Runs a command by its full id (`recursa:open-chat`), as the command palette does; false when it is unknown or unavailable. */
  runCommand(id: string): boolean {
    return requireApp().commands.executeCommandById(id);
  },

  /** Puts a secret into the app's keychain (`app.secretStorage`), as the settings' secret picker does. */
  setSecret(id: string, value: string): void {
    requireApp().secretStorage.setSecret(id, value);
  },

  /** Shows the plugin's settings tab over the workspace, as the settings window does; returns its section headings. */
  openSettings(): string[] {
    const tab = requireApp().setting.pluginTabs[0];
    if (tab === undefined) throw new Error('the plugin has no settings tab');
    document.body.createDiv({ cls: 'modal-container mobile-settings' }).appendChild(tab.containerEl);
    tab.display();
    return [...tab.containerEl.querySelectorAll('.setting-item-heading .setting-item-name')].map((el) => el.textContent ?? '');
  },

  /** Closes the settings tab opened by `openSettings`. */
  closeSettings(): void {
    requireApp().setting.pluginTabs[0]?.hide();
    document.querySelector('.mobile-settings')?.remove();
  },

  /** The vault's adapter itself, for tests of the adapter's own rules. */
  adapter(): Obsidian.DataAdapter {
    return requireApp().vault.adapter;
  },

  /**
   * Disables the plugin, as turning it off in Obsidian's settings does: the instance is unloaded
   * and its module let go (Obsidian evaluates main.js again when the plugin is enabled again, which
   * is how a plugin picks up new code without a restart), so what the module still holds is freed
   * unless something outside it keeps a reference. Resolves once the plugin's vault has closed
   * (its index saved): what it held is free from then on.
   */
  async unloadPlugin(): Promise<void> {
    const stack = plugin?.stack ?? null;
    plugin?.unload();
    plugin = null;
    pluginClass = null;
    await stack?.close();
  },

  async whenSnapshotDone(): Promise<void> {
    await requirePlugin().stack?.git?.whenSnapshotDone();
  },

  async whenIndexBuilt(): Promise<void> {
    await requirePlugin().stack?.graph?.build();
  },

  async whenGitIdle(): Promise<void> {
    await requirePlugin().stack?.git?.whenIdle();
  },

  /** Waits for the sync under way (started by "Sync now") to end; returns how the last sync ended. */
  async whenSyncDone(timeoutMs = 120_000): Promise<SyncOutcome> {
    const sync = requirePlugin().sync;
    if (sync === null) throw new Error('the plugin has no sync');
    const until = Date.now() + timeoutMs;
    while (sync.busy) {
      if (Date.now() > until) throw new Error('the sync did not end');
      await new Promise((resolve) => window.setTimeout(resolve, 20));
    }
    const last = sync.last;
    if (last === null) throw new Error('no sync has run');
    return 'error' in last ? { ok: false, error: last.error.text } : { ok: true, result: { ...last.result } };
  },

  /** Calls a `mem` method as the agent's code would, from the host side. */
  async mem(method: string, ...args: unknown[]): Promise<unknown> {
    const mem = requirePlugin().mem;
    const call = mem?.[method];
    if (call === undefined) throw new Error(`mem has no ${method}`);
    return call(...args);
  },

  /** Milliseconds of one `mem` call. */
  async timeMem(method: string, ...args: unknown[]): Promise<number> {
    const started = performance.now();
    await mobile.mem(method, ...args);
    return performance.now() - started;
  },

  async timeIndexRebuild(): Promise<number> {
    const started = performance.now();
    await requirePlugin().stack?.rebuildIndex();
    return performance.now() - started;
  },

  /** Milliseconds from a fresh sandbox (no worker) to the answer of a one-line run. */
  async timeSandboxColdStart(): Promise<number> {
    const sandbox = requirePlugin().sandbox;
    if (sandbox === null) throw new Error('no sandbox');
    sandbox.dispose();
    const started = performance.now();
    const result = await sandbox.run('return 1 + 1;');
    if (!result.ok) throw new Error(`the sandbox failed: ${JSON.stringify(result.error)}`);
    return performance.now() - started;
  },

  async runSandbox(code: string, limits?: Record<string, number>): Promise<unknown> {
    const sandbox = requirePlugin().sandbox;
    if (sandbox === null) throw new Error('no sandbox');
    return sandbox.run(code, limits === undefined ? {} : { limits });
  },

  /**
   * The next batch of what changed in the store since the last export (all of it, the first time),
   * at most about `maxBytes` of file content; `remaining` says how many paths are still to come.
   */
  async exportChanges(vaultName: string, maxBytes = 8 * 1024 * 1024): Promise<{ entries: ExportedEntry[]; remaining: number }> {
    const store = mobileStore(vaultName);
    exportQueue.push(...store.takeChanges());
    exportQueue = [...new Set(exportQueue)];
    const entries: ExportedEntry[] = [];
    let bytes = 0;
    while (exportQueue.length > 0 && bytes < maxBytes) {
      const path = exportQueue.shift() ?? '/';
      if (path === '/') continue;
      const entry = store.get(path);
      if (entry === null) entries.push({ path, kind: 'removed' });
      else if (entry.type === 'folder') entries.push({ path, kind: 'folder' });
      else {
        const content = await store.readBytes(path);
        bytes += content.byteLength;
        entries.push({ path, kind: 'file', base64: toBase64(new Uint8Array(content)) });
      }
    }
    return { entries, remaining: exportQueue.length };
  },

  /** Forgets which paths changed since the last export (for a benchmark that never exports); returns how many. */
  forgetChanges(vaultName: string): number {
    exportQueue = [];
    return mobileStore(vaultName).takeChanges().length;
  },

  /** How many entries (files and folders) the store's in-memory table holds. */
  storeEntryCount(vaultName: string): number {
    return mobileStore(vaultName).entries.size;
  },

  /** Every path in the store under `folder`, for tests that look at the vault from the page. */
  listStore(vaultName: string, folder = '/'): string[] {
    return mobileStore(vaultName).descendants(folder);
  },

  async readStoredText(vaultName: string, path: string): Promise<string> {
    return mobileStore(vaultName).readText(path);
  },

  /** What IndexedDB itself holds for a text file (null for binary or nothing), past the store's copy in memory. */
  async persistedText(vaultName: string, path: string): Promise<string | null> {
    const value = await mobileStore(vaultName).readPersisted(path);
    return typeof value === 'string' ? value : null;
  },

  /** Long tasks seen since `since` (page clock), and the page clock now. */
  longTasks(since = 0): { now: number; tasks: { start: number; duration: number }[] } {
    // Entries reach the observer's callback in a later task: a task that just ended (main.js's
    // evaluation, read right after it) would be missed without taking them now.
    recordLongTasks(longTaskObserver.takeRecords());
    return { now: performance.now(), tasks: longTasks.filter((task) => task.start >= since) };
  },

  environment(): PageEnvironment {
    const current = requireApp();
    const globals = window as unknown as Record<string, unknown>;
    const adapter = current.vault.adapter as unknown as { getBasePath?: unknown; constructor: { name: string } };
    return {
      windowRequire: typeof globals.require,
      process: typeof globals.process,
      globalBuffer: typeof globals.Buffer,
      fileSystemAdapterExport: typeof (obsidianMobile as Record<string, unknown>).FileSystemAdapter,
      adapterClass: adapter.constructor.name,
      adapterHasBasePath: typeof adapter.getBasePath === 'function',
      isMobile: obsidianMobile.Platform.isMobile,
      isMobileApp: obsidianMobile.Platform.isMobileApp,
      isDesktopApp: obsidianMobile.Platform.isDesktopApp,
    };
  },

  /** Deletes a vault's database (for a page that opens several vaults). */
  async destroyStore(vaultName: string): Promise<void> {
    mobileStore(vaultName).close();
    await IdbFileStore.destroy(vaultName);
  },
};

function requireApp(): TestApp {
  if (app === null) throw new Error('start() first');
  return app;
}

function requirePlugin(): LoadedPlugin {
  if (plugin === null) throw new Error('loadPlugin() first');
  return plugin;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): ArrayBuffer {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export type MobilePage = typeof mobile;

declare global {
  interface Window {
    recursaMobile?: MobilePage;
  }
}

window.recursaMobile = mobile;
