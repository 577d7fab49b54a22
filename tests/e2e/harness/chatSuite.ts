// The setup every chat browser test shares: a fresh vault with the seeded notes, the scripted model
// server, and the plugin loaded in the harness page, made before each test and removed after it.
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterEach, beforeEach } from 'vitest';
import { startModelServer, type ModelServer } from '../../helpers/modelServer';
import { makeTempDir } from '../../helpers/tempVault';
import { openHarness, SCREENSHOTS, writePluginSettings, type HarnessPage } from './chatHarness';
import { seedNotes } from './chatVault';

/** The two widths the chat is held to. */
export const CHAT_WIDTHS = [
  { width: 'desktop', viewport: { width: 1280, height: 800 }, phone: false },
  { width: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

export interface ChatSuiteOptions {
  /** Prefix of the temporary vault folder's name. */
  tempPrefix: string;
  viewport?: { width: number; height: number };
  /** Whether the page plays a phone; left as the harness starts when absent. */
  phone?: boolean;
  /** Named in the screenshots' file names (`chat-<name>-<width>-<theme>.png`). */
  width?: string;
  /** Opens the chat before each test. */
  openChat?: boolean;
  beforeEachTimeoutMs?: number;
}

/** What a test of the suite reaches: the current test's vault, model server and page, and the usual steps. */
export interface ChatSuite {
  readonly dir: string;
  readonly server: ModelServer;
  readonly harness: HarnessPage;
  /** Saves the page as it is now, light and dark. */
  screenshot: (name: string) => Promise<void>;
  /** Opens the chat with the command (the ribbon is hidden on a phone; the command works at both widths). */
  openChat: () => Promise<void>;
  input: () => Locator;
  /** Types `text` into the chat and sends it with Enter. */
  send: (text: string) => Promise<void>;
}

/** Registers the suite's `beforeEach` and `afterEach`; call it in a `describe`. */
export function useChatSuite(options: ChatSuiteOptions): ChatSuite {
  let dir = '';
  let removeDir: () => Promise<void> = () => Promise.resolve();
  let server: ModelServer | undefined;
  let harness: HarnessPage | undefined;
  const current = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the chat suite has no ${what} outside a test`);
    return value;
  };

  const suite: ChatSuite = {
    get dir() {
      return dir;
    },
    get server() {
      return current(server, 'model server');
    },
    get harness() {
      return current(harness, 'page');
    },
    screenshot: async (name) => {
      const { page } = suite.harness;
      const suffix = options.width === undefined ? '' : `-${options.width}`;
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((value) => window.recursaHarness?.setTheme(value), theme);
        await page.screenshot({ path: join(SCREENSHOTS, `chat-${name}${suffix}-${theme}.png`) });
      }
      await page.evaluate(() => window.recursaHarness?.setTheme('light'));
    },
    openChat: async () => {
      await suite.harness.page.evaluate(() => window.recursaHarness?.runCommand('recursa:open-chat'));
      await suite.harness.page.locator('.recursa-chat').waitFor();
    },
    input: () => suite.harness.page.getByRole('textbox', { name: 'Message to the agent' }),
    send: async (text) => {
      await suite.input().fill(text);
      await suite.input().press('Enter');
    },
  };

  beforeEach(async () => {
    ({ dir, remove: removeDir } = await makeTempDir(options.tempPrefix));
    await seedNotes(dir);
    server = await startModelServer();
    await writePluginSettings(dir, `${server.url}/v1`);
    harness = await openHarness({ vaultDir: dir, ...(options.viewport === undefined ? {} : { viewport: options.viewport }) });
    await harness.page.evaluate(async (isPhone) => {
      if (isPhone !== null) window.recursaHarness?.setPhone(isPhone);
      await window.recursaHarness?.loadPlugin();
      await window.recursaHarness?.waitForCore();
    }, options.phone ?? null);
    if (options.openChat === true) await suite.openChat();
  }, options.beforeEachTimeoutMs);

  afterEach(async () => {
    await harness?.close();
    await server?.close();
    await removeDir();
    harness = undefined;
    server = undefined;
  });

  return suite;
}
