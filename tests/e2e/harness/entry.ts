// The browser side of the chat harness: the real plugin (src/main.ts) over the test `obsidian`
// module, in a page laid out like Obsidian's window. The vault is a real folder reached through the
// host bridge (tests/helpers/obsidian/hostFs.browser.ts). Built by `node esbuild.config.mjs test`.
import type * as Obsidian from 'obsidian';
import RecursaPlugin from '../../../src/main';
// The same module the bundle's `obsidian` import resolves to (esbuild aliases it there).
import { App, Component, MarkdownRenderer, Notice, Plugin, Vault } from '../../helpers/obsidian';
import * as obsidianModule from '../../helpers/obsidian';
import type { App as TestApp } from '../../helpers/obsidian/app';
import { installNodeHttpShim } from './nodeHttpShim';

/** What leaks would show: live workers, intervals, listeners, DOM nodes. */
export interface ResourceCounts {
  workers: number;
  intervals: number;
  windowListeners: number;
  documentListeners: number;
  vaultListeners: number;
  workspaceListeners: number;
  domNodes: number;
  commands: number;
}

const live = { workers: 0, intervals: new Set<number>(), windowListeners: 0, documentListeners: 0 };

// Count what the plugin starts, before any of its code runs.
const NativeWorker = window.Worker;
window.Worker = class CountedWorker extends NativeWorker {
  private ended = false;
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    live.workers++;
  }
  override terminate(): void {
    if (!this.ended) live.workers--;
    this.ended = true;
    super.terminate();
  }
};
const nativeSetInterval = window.setInterval.bind(window);
const nativeClearInterval = window.clearInterval.bind(window);
window.setInterval = ((handler: TimerHandler, timeout?: number, ...args: unknown[]) => {
  const id = nativeSetInterval(handler, timeout, ...args);
  live.intervals.add(id);
  return id;
}) as typeof window.setInterval;
window.clearInterval = ((id?: number) => {
  if (id !== undefined) live.intervals.delete(id);
  nativeClearInterval(id);
}) as typeof window.clearInterval;
for (const [target, key] of [
  [window, 'windowListeners'],
  [document, 'documentListeners'],
] as const) {
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  const seen = new Set<string>();
  const keyOf = (type: string, listener: unknown, options: unknown): string => {
    const capture = typeof options === 'boolean' ? options : typeof options === 'object' && options !== null && (options as { capture?: boolean }).capture === true;
    return `${type}|${capture}|${listenerId(listener)}`;
  };
  target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
    const id = keyOf(type, listener, options);
    if (listener !== null && !seen.has(id)) {
      seen.add(id);
      live[key]++;
    }
    if (listener !== null) add(type, listener, options);
  };
  target.removeEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
    const id = keyOf(type, listener, options);
    if (seen.delete(id)) live[key]--;
    if (listener !== null) remove(type, listener, options);
  };
}

const listenerIds = new WeakMap<object, number>();
let nextListenerId = 1;
function listenerId(listener: unknown): number {
  if (typeof listener !== 'object' && typeof listener !== 'function') return 0;
  if (listener === null) return 0;
  let id = listenerIds.get(listener);
  if (id === undefined) {
    id = nextListenerId++;
    listenerIds.set(listener, id);
  }
  return id;
}

/** An anchor of the onload benchmark: a plugin that registers nothing (what loading a plugin costs at all). */
class EmptyPlugin extends Plugin {
  override async onload(): Promise<void> {
    // Nothing.
  }
}

/** An anchor of the onload benchmark: what Obsidian's sample plugin does in `onload`. */
class SamplePlugin extends Plugin {
  override async onload(): Promise<void> {
    const settings: unknown = { mySetting: 'default', ...((await this.loadData()) as object | null) };
    this.addRibbonIcon('dice', 'Sample', () => new Notice(JSON.stringify(settings)));
    this.addStatusBarItem().setText('Status bar text');
    this.addCommand({ id: 'open-sample-modal-simple', name: 'Open sample modal (simple)', callback: () => undefined });
    this.addCommand({ id: 'sample-editor-command', name: 'Sample editor command', callback: () => undefined });
    this.registerDomEvent(document, 'click', () => undefined);
    this.registerInterval(window.setInterval(() => undefined, 5 * 60 * 1000));
  }
}

let app: TestApp | null = null;
let plugin: RecursaPlugin | null = null;
let manifest: Obsidian.PluginManifest | null = null;

const harness = {
  /** Opens the folder as the vault and lays out the window; the layout is ready at once unless `deferLayout`. */
  async start(options: { vaultDir: string; manifest: Obsidian.PluginManifest; theme: 'light' | 'dark'; deferLayout?: boolean; nodeHttp?: boolean }): Promise<void> {
    manifest = options.manifest;
    // Desktop Obsidian has Node's http in the window (the plugin streams with it); mobile has not.
    if (options.nodeHttp !== false) installNodeHttpShim();
    app = new App(await Vault.load(options.vaultDir));
    harness.setTheme(options.theme);
    const container = document.body.createDiv('app-container');
    const main = container.createDiv('horizontal-main-container');
    main.appendChild(app.workspace.containerEl);
    container.appendChild(app.workspace.statusBarEl);
    showFileExplorer(app);
    const shown = app;
    shown.vault.on('modify', (file) => {
      if (file === shown.workspace.getActiveFile()) void shown.workspace.refreshActiveFile();
    });
    if (options.deferLayout !== true) app.workspace.setLayoutReady();
  },

  setTheme(theme: 'light' | 'dark'): void {
    document.body.toggleClass('theme-dark', theme === 'dark');
    document.body.toggleClass('theme-light', theme === 'light');
  },

  /** Obsidian's phone layout: the sidebar fills the screen. */
  setPhone(phone: boolean): void {
    document.body.toggleClass('is-mobile', phone);
    document.body.toggleClass('is-phone', phone);
  },

  /** Starts the sandbox worker (it starts on first use) by running a line of code. */
  async runSandbox(code: string): Promise<unknown> {
    const sandbox = plugin?.sandbox;
    if (sandbox === null || sandbox === undefined) throw new Error('no sandbox yet');
    return (await sandbox.run(code)).value;
  },

  setLayoutReady(): void {
    requireApp().workspace.setLayoutReady();
  },

  app(): TestApp {
    return requireApp();
  },

  async loadPlugin(): Promise<void> {
    if (manifest === null) throw new Error('start() first');
    plugin = new RecursaPlugin(requireApp() as unknown as Obsidian.App, manifest);
    plugin.load();
    await (plugin as unknown as { whenLoaded(): Promise<void> }).whenLoaded();
  },

  /**
   * Milliseconds from `load()` until `onload` has finished (as Obsidian awaits it), averaged over
   * `times` loads, for Recursa's plugin, a plugin whose `onload` does nothing, or one that does what
   * Obsidian's sample plugin does; each is unloaded again afterwards.
   */
  async timeOnload(which: 'recursa' | 'empty' | 'sample', times = 1): Promise<number> {
    if (manifest === null) throw new Error('start() first');
    const current = requireApp();
    let total = 0;
    for (let i = 0; i < times; i += 1) {
      const timed = which === 'recursa' ? new RecursaPlugin(current as unknown as Obsidian.App, manifest) : new (which === 'empty' ? EmptyPlugin : SamplePlugin)(current, manifest);
      const started = performance.now();
      timed.load();
      await (timed as unknown as { whenLoaded(): Promise<void> }).whenLoaded();
      total += performance.now() - started;
      timed.unload();
    }
    return total / times;
  },

  /** Resolves once the plugin's vault has closed (its index saved), as a restart would find it. */
  async unloadPlugin(): Promise<void> {
    // Private in the source: the close the plugin starts on unload (a second call waits for it).
    const stack = (plugin as unknown as { stack: { close(): Promise<void> } | null } | null)?.stack ?? null;
    plugin?.unload();
    plugin = null;
    await stack?.close();
  },

  /** Resolves once the plugin's core (history, index, sandbox) is up. */
  async waitForCore(timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (plugin?.sandbox === null || plugin?.sandbox === undefined) {
      if (Date.now() > until) throw new Error('the plugin core did not start');
      await new Promise((resolve) => window.setTimeout(resolve, 20));
    }
  },

  /** Shows the plugin's settings tab in a pane over the workspace, as the settings window does. */
  openSettings(): void {
    const tab = requireApp().setting.pluginTabs[0];
    if (tab === undefined) throw new Error('the plugin has no settings tab');
    document.body.createDiv({ cls: 'modal-container harness-settings' }).appendChild(tab.containerEl);
    tab.display();
  },

  /** Runs a command by its full id (`recursa:open-chat`); false when it is unknown or unavailable. */
  runCommand(id: string): boolean {
    return requireApp().commands.executeCommandById(id);
  },

  commandList(): { id: string; name: string; hotkeys: number }[] {
    return Object.values(requireApp().commands.commands).map((command) => ({ id: command.id, name: command.name, hotkeys: command.hotkeys?.length ?? 0 }));
  },

  async openNote(path: string): Promise<void> {
    const file = requireApp().vault.getFileByPath(path);
    if (file === null) throw new Error(`no note ${path}`);
    await requireApp().workspace.openFile(file);
  },

  activeFile(): string | null {
    return requireApp().workspace.getActiveFile()?.path ?? null;
  },

  notice(message: string): void {
    new Notice(message);
  },

  /**
   * Control for the XSS tests: renders Markdown with the test module's MarkdownRenderer straight
   * into the live page, with no neutralising, as a careless plugin would.
   */
  async renderUnsafely(markdown: string): Promise<void> {
    const el = document.body.createDiv('harness-unsafe');
    const owner = new Component();
    await MarkdownRenderer.render(requireApp(), markdown, el, '', owner);
    owner.unload();
  },

  counts(): ResourceCounts {
    const current = requireApp();
    return {
      workers: live.workers,
      intervals: live.intervals.size,
      windowListeners: live.windowListeners,
      documentListeners: live.documentListeners,
      vaultListeners: current.vault.listenerCount(),
      workspaceListeners: current.workspace.listenerCount(),
      domNodes: document.getElementsByTagName('*').length,
      commands: Object.keys(current.commands.commands).length,
    };
  },
};

/** The look of Obsidian's file explorer in the left sidebar (scenery: the plugin does not use it). */
function showFileExplorer(current: TestApp): void {
  const pane = current.workspace.leftSplitEl.createDiv('harness-file-explorer');
  pane.createDiv({ cls: 'harness-file-explorer-title', text: current.vault.getName() });
  for (const file of current.vault.getMarkdownFiles().sort((a, b) => a.path.localeCompare(b.path))) {
    const item = pane.createDiv({ cls: 'harness-file-item', text: file.path.replace(/\.md$/, '') });
    item.addEventListener('click', () => void current.workspace.openFile(file));
  }
}

function requireApp(): TestApp {
  if (app === null) throw new Error('start() first');
  return app;
}

declare global {
  interface Window {
    recursaHarness?: typeof harness;
    /** The test obsidian module itself, for tests of the module in a page. */
    recursaObsidian?: typeof obsidianModule;
  }
}

window.recursaHarness = harness;
window.recursaObsidian = obsidianModule;
